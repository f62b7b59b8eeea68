"""``engine.fork``: a copy of this engine, serving core-engine/1 on a Unix socket.

Mixed into :class:`~reference.protocol.handler.ProtocolHandler`. The child is what a
freshly started engine process is, minus the start: the suite kills hundreds of them
(STATE-KILL-001), and an interpreter start costs far more than a checkpoint.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from reference.protocol.args import string_arg
from reference.protocol.envelope import OpSpec, bad_arg

if TYPE_CHECKING:
    import socket

    from reference.protocol.stdio import LineHandler

FORK_CAPABILITIES = ("fork",)
FORK_OPS: Mapping[str, OpSpec] = {"engine.fork": OpSpec("op_engine_fork", ("socket",))}


class ForkOps:
    """``engine.fork``: the child leads a new session and serves the connection.

    The steps are hooks a broken engine may replace: ``connect_socket``,
    ``lead_session``, ``release_stdio``.
    """

    def connect_socket(self, path: str) -> socket.socket:
        """A connection to the Unix socket listening at the file *path*, or
        PROTOCOL_BAD_ARGS. A NUL is refused: a leading one would name Linux's abstract
        namespace, not a file."""
        if "\x00" in path:
            bad_arg("socket", "argument 'socket' must be a path without NUL")
        import socket

        conn = socket.socket(socket.AF_UNIX)
        try:
            conn.connect(path)
        except OSError as exc:
            conn.close()
            bad_arg("socket", f"cannot connect to {path!r}: {exc.strerror or exc}")
        return conn

    def lead_session(self) -> None:
        """In a forked child: leave the parent's session and process group."""
        os.setsid()

    def release_stdio(self) -> None:
        """In a forked child: let go of the parent's stdin and stdout (both become null)."""
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)

    def warm_for_fork(self) -> None:
        """Load, once in the parent, what a child's first state op or session would load."""
        from reference.runtime import persistence  # noqa: F401
        from reference.state import soak  # noqa: F401

    def op_engine_fork(self, args: dict[str, Any]) -> dict[str, Any]:
        """Fork a child serving *socket*; answer its pid once it leads its own session.

        The child is forked from a short-lived middle process, so it is orphaned at once
        and the engine never has to reap it; it reports its own pid.
        """
        conn = self.connect_socket(string_arg(args, "socket"))
        self.warm_for_fork()
        ready, led = os.pipe()
        middle = os.fork()
        if middle == 0:
            os.close(ready)
            if os.fork() == 0:
                self._serve_child(conn, led)
            os._exit(0)
        os.close(led)
        conn.close()
        os.waitpid(middle, 0)
        with open(ready, "rb") as leader:
            pid = leader.read()
        if not pid:
            raise OSError("the forked engine ended before it led its own session")
        return {"pid": int(pid)}

    def _serve_child(self, conn: socket.socket, led: int) -> None:
        """In the child: lead a new session and let go of the parent's stdin and stdout,
        then write its pid to *led*, serve *conn*, and exit at its end."""
        from reference.protocol.stdio import serve

        try:
            self.lead_session()
            self.release_stdio()
            os.write(led, str(os.getpid()).encode("ascii"))
            os.close(led)
            reader = io.TextIOWrapper(conn.makefile("rb"), encoding="utf-8")
            writer = io.TextIOWrapper(conn.makefile("wb"), encoding="utf-8")
            serve(reader, writer, cast("LineHandler", self))
        finally:
            os._exit(0)
