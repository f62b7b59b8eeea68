"""Serve an in-process engine factory over stdio: ``python -m conformance.engines.host M:F``.

Lets the suite run process-level requirements (SIGKILL, a second writer, end of input)
against a Python engine plugged in as ``module:factory``. Each stdin line goes to the
handler as :func:`conformance.engines.lines.answer_line` passes it; a handler may write
event lines before a response through the ``emit`` attribute this host sets on it, and
call the ``boundary`` attribute it sets between the steps of a long request (each
acknowledged ``state.soak`` iteration): with a signal held, it raises, and the request gets
no response. At
end of input the host calls the handler's ``close()`` when it has one, then exits 0.
SIGTERM or SIGINT while the host waits for a line does the same and exits with the
handler's ``signal_status(signum)`` when it has one, else 128 + the signal; one that
arrives while a line is answered is held until its answer is written (docs/state.md
§ Shutdown).
"""

from __future__ import annotations

import json
import signal
import sys
from types import FrameType
from typing import Any

from conformance.engines.inprocess import load_factory
from conformance.engines.lines import answer_line


class _Stop(BaseException):
    """A SIGTERM or SIGINT ends the host (not an error of the handler)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Guard:
    """Holds SIGTERM and SIGINT while a line is answered; raises :class:`_Stop` while idle."""

    def __init__(self) -> None:
        self.held: int | None = None
        self.idle = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.held is None:
            self.held = signum
        if self.idle:
            raise _Stop(signum)

    def check(self) -> None:
        """At a boundary inside a request: raise :class:`_Stop` if a signal was held."""
        if self.held is not None:
            raise _Stop(self.held)

    def readline(self) -> bytes:
        """The next line of stdin (b"" at its end), or :class:`_Stop` on a held signal."""
        self.idle = True
        try:
            if self.held is not None:
                raise _Stop(self.held)
            return sys.stdin.buffer.readline()
        finally:
            self.idle = False


def main(argv: list[str]) -> int:
    guard = _Guard()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, guard.handle)
    handler = load_factory(argv[1])()
    out = sys.stdout.buffer

    def write(line: str) -> None:
        rest = memoryview(line.encode("utf-8") + b"\n")
        while rest:
            rest = rest[out.write(rest) or 0 :]
        out.flush()

    def emit(message: dict[str, Any]) -> None:
        write(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    handler.emit = emit
    handler.boundary = guard.check
    status = 0
    try:
        while line := guard.readline():
            write(answer_line(handler, line.removesuffix(b"\n")))
    except _Stop as stop:
        statuses = getattr(handler, "signal_status", None)
        status = statuses(stop.signum) if callable(statuses) else 128 + stop.signum
    close = getattr(handler, "close", None)
    if callable(close):
        close()
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
