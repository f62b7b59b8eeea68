"""A correct but slow engine program: it sleeps a fixed time before answering each request line.

``python slow_engine.py SECONDS`` (default 0.02): the reference handler, slowed down,
to exercise budgeted certification the way a port in progress would.
"""

from __future__ import annotations

import sys
import time

from reference.serve import ProtocolHandler, serve

DEFAULT_SECONDS_PER_OP = 0.02


class SlowEngine(ProtocolHandler):
    """The reference handler, except that every request line first waits ``seconds_per_op``.

    A batch is one request line: its elements are not slowed down one by one.
    """

    seconds_per_op = DEFAULT_SECONDS_PER_OP

    def handle_line(self, line: str | bytes) -> str:
        time.sleep(self.seconds_per_op)
        return super().handle_line(line)


if __name__ == "__main__":
    engine = SlowEngine()
    if len(sys.argv) > 1:
        engine.seconds_per_op = float(sys.argv[1])
    raise SystemExit(serve(sys.stdin, sys.stdout, engine))
