"""Serve an in-process engine factory over stdio: ``python -m conformance.engines.host M:F``.

Lets the suite run process-level requirements (SIGKILL, a second writer) against a
Python engine plugged in as ``module:factory``. A handler may write event lines
before a response through the ``emit`` attribute this host sets on it.
"""

from __future__ import annotations

import json
import sys

from conformance.engines.inprocess import load_factory


def main(argv: list[str]) -> int:
    handler = load_factory(argv[1])()
    out = sys.stdout

    def emit(message: object) -> None:
        out.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()

    handler.emit = emit
    while line := sys.stdin.readline():
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        emit(handler.handle(request))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
