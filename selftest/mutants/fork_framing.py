"""A forked engine that frames its socket otherwise than a fresh engine frames its stdio
(docs/protocol.md § Forking: "exactly as a freshly started engine serves its stdin and
stdout (the same `hello`, framing, responses and event lines)")."""

from __future__ import annotations

import io
import os
import socket
from typing import cast

from reference.protocol.stdio import LineHandler, serve
from reference.serve import ProtocolHandler


class _TextLines:
    """The socket read as text decoded with replacement characters: no byte layer, so the
    loop never sees the bytes a line was sent as."""

    def __init__(self, conn: socket.socket) -> None:
        self._text = io.TextIOWrapper(conn.makefile("rb"), encoding="utf-8", errors="replace")

    def readline(self) -> str:
        return self._text.readline()


class ForkChildReadsText(ProtocolHandler):
    """The forked child reads its socket as text with replacement characters (as a port that
    wraps the connection in a text stream would), where the stdio loop reads bytes: a line
    that is not UTF-8 is answered as the text it decodes to, not refused as PROTOCOL_BAD_JSON."""

    def _serve_child(self, conn: socket.socket, led: int) -> None:
        try:
            self.lead_session()
            self.release_stdio()
            os.write(led, str(os.getpid()).encode("ascii"))
            os.close(led)
            writer = io.TextIOWrapper(conn.makefile("wb"), encoding="utf-8")
            serve(cast("io.TextIOWrapper", _TextLines(conn)), writer, cast("LineHandler", self))
        finally:
            os._exit(0)
