"""Serve an in-process engine factory over stdio: ``python -m conformance.engines.host M:F``.

Lets the suite run process-level requirements (SIGKILL, a second writer, end of input)
against a Python engine plugged in as ``module:factory``. Each stdin line goes to the
handler as :func:`conformance.engines.lines.answer_line` passes it; a handler may write
event lines before a response through the ``emit`` attribute this host sets on it. At
end of input the host calls the handler's ``close()`` when it has one, then exits 0.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from conformance.engines.inprocess import load_factory
from conformance.engines.lines import answer_line


def main(argv: list[str]) -> int:
    handler = load_factory(argv[1])()
    out = sys.stdout.buffer

    def write(line: str) -> None:
        out.write(line.encode("utf-8") + b"\n")
        out.flush()

    def emit(message: dict[str, Any]) -> None:
        write(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    handler.emit = emit
    while line := sys.stdin.buffer.readline():
        write(answer_line(handler, line.removesuffix(b"\n")))
    close = getattr(handler, "close", None)
    if callable(close):
        close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
