"""A correct but slow engine program: it sleeps a fixed time before answering each request.

``python slow_engine.py SECONDS`` (default 0.02): the reference handler, slowed down,
to exercise budgeted certification the way a port in progress would.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from reference.serve import ProtocolHandler, serve

DEFAULT_SECONDS_PER_OP = 0.02


class SlowEngine(ProtocolHandler):
    """The reference handler, except that every request first waits ``seconds_per_op``."""

    seconds_per_op = DEFAULT_SECONDS_PER_OP

    def handle(self, request: object) -> dict[str, Any]:
        time.sleep(self.seconds_per_op)
        return super().handle(request)


if __name__ == "__main__":
    engine = SlowEngine()
    if len(sys.argv) > 1:
        engine.seconds_per_op = float(sys.argv[1])
    raise SystemExit(serve(sys.stdin, sys.stdout, engine))
