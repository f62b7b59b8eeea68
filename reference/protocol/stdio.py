"""The stdio loop: one request line in, one response line out, until end of input."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from reference.canonical import wire_json
from reference.shutdown import guarded


class LineHandler(Protocol):
    """What the loop needs of a handler: one response line per request line, an ``emit``
    attribute it sets for event lines and a ``boundary`` it sets for long requests."""

    emit: Callable[[dict[str, Any]], None] | None
    boundary: Callable[[], None] | None

    def handle_line(self, line: str | bytes) -> str: ...


# The stdio loop ------------------------------------------------------------------------------


def line_reader(stdin: TextIO) -> Callable[[], str | bytes]:
    """A ``readline`` over the raw bytes of *stdin* when it has them, else over its text."""
    return getattr(stdin, "buffer", stdin).readline


def line_writer(stdout: TextIO) -> Callable[[str], None]:
    """Write one line plus ``\\n`` as UTF-8 (to the byte layer when there is one) and flush.

    The byte layer is unbuffered under ``python -u``: a signal then cuts a write to a full
    pipe short, so the rest is written until the whole line is out."""
    target = getattr(stdout, "buffer", None)

    def write(line: str) -> None:
        if target is None:
            stdout.write(line + "\n")
            stdout.flush()
            return
        rest = memoryview(line.encode("utf-8") + b"\n")
        while rest:
            rest = rest[target.write(rest) or 0 :]
        target.flush()

    return write


def strip_newline(line: str | bytes) -> str | bytes:
    """*line* without its trailing ``\\n`` (a ``\\r`` before it is JSON whitespace)."""
    if isinstance(line, bytes):
        return line[:-1] if line.endswith(b"\n") else line
    return line[:-1] if line.endswith("\n") else line


def serve(stdin: TextIO, stdout: TextIO, handler: LineHandler) -> int:
    """Answer request lines from *stdin* on *stdout* with *handler* until EOF; returns 0.

    Anything else the engine might print goes to stderr, so stdout carries responses only.
    A SIGTERM or SIGINT ends the loop once the request in flight is answered, or at the
    handler's next ``boundary`` call (raising :class:`~reference.shutdown.Stop`); then, as
    at end of input, the handler's ``close`` (when it has one) lets go of what it holds.
    """
    read, write = line_reader(stdin), line_writer(stdout)
    handler.emit = lambda message: write(wire_json(message))
    with contextlib.redirect_stdout(sys.stderr), guarded() as guard:
        handler.boundary = guard.check
        try:
            while True:
                with guard.waiting():
                    line = read()
                if not line:
                    return 0
                write(handler.handle_line(strip_newline(line)))
        except BrokenPipeError:
            return 0
        finally:
            close = getattr(handler, "close", None)
            if callable(close):
                close()
