"""``engine.fork``: a copy of this engine, serving core-engine/1 on a Unix socket.

Mixed into :class:`~reference.protocol.handler.ProtocolHandler`. The child is what a
freshly started engine process is, minus the start: the suite kills hundreds of them
(STATE-KILL-001), and an interpreter start costs far more than a checkpoint.
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from reference.protocol.args import string_arg
from reference.protocol.envelope import OpSpec, bad_arg

if TYPE_CHECKING:
    from reference.protocol.stdio import LineHandler

FORK_CAPABILITIES = ("fork",)
FORK_OPS: Mapping[str, OpSpec] = {"engine.fork": OpSpec("op_engine_fork", ("socket",))}


def _connect(path: str) -> socket.socket:
    """A connection to the listening Unix socket at *path*, or PROTOCOL_BAD_ARGS."""
    if not os.path.isabs(path) or "\x00" in path:
        bad_arg("socket", "argument 'socket' must be an absolute path")
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError as exc:
        conn.close()
        bad_arg("socket", f"cannot connect to {path!r}: {exc.strerror or exc}")
    return conn


class ForkOps:
    """``engine.fork``: the child leads a new session and serves the connection."""

    def __init__(self) -> None:
        super().__init__()
        self.children: set[int] = set()
        """Forked children not yet seen to exit."""

    def lead_session(self) -> None:
        """In a forked child: leave the parent's session and process group."""
        os.setsid()

    def warm_for_fork(self) -> None:
        """Load, once in the parent, what a child's first state op would load."""
        from reference.state import soak  # noqa: F401

    def op_engine_fork(self, args: dict[str, Any]) -> dict[str, Any]:
        """Fork a child serving *socket*; answer its pid once it leads its own process group."""
        conn = _connect(string_arg(args, "socket"))
        self.warm_for_fork()
        ready, led = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(ready)
            self._serve_child(conn, led)
        os.close(led)
        conn.close()
        self.children.add(pid)
        with open(ready, "rb") as leader:
            leader.read()
        self._reap()
        return {"pid": pid}

    def _serve_child(self, conn: socket.socket, led: int) -> None:
        """In the child: lead a new session (then close *led*, which the parent waits on),
        leave the parent's pipes, serve *conn*, exit at its end."""
        from reference.protocol.stdio import serve

        status = 1
        try:
            self.lead_session()
            os.close(led)
            devnull = os.open(os.devnull, os.O_RDWR)
            os.dup2(devnull, 0)
            os.dup2(devnull, 1)
            reader = io.TextIOWrapper(conn.makefile("rb"), encoding="utf-8")
            writer = io.TextIOWrapper(conn.makefile("wb"), encoding="utf-8")
            status = serve(reader, writer, cast("LineHandler", self))
        finally:
            os._exit(status)

    def _reap(self) -> None:
        """Collect the exit status of every child that has ended, so none stays a zombie."""
        for pid in sorted(self.children):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            self.children.discard(pid)
