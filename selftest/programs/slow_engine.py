"""A slow engine program: the reference handler, waiting before it answers.

``python slow_engine.py [SECONDS] [--chat SECONDS] [--planted]``:

* ``SECONDS`` (default 0.02) is waited before each request line (a batch is one line);
* ``--chat SECONDS`` is waited before each chat turn as well (batch elements included),
  as a real alternate engine spends seconds on a turn;
* ``--planted`` plants two defects such engines carry: chat decoration seeded from the
  surface text (a seeding defect, ``VAR-CHAT-001``) and a trace hash that slips under
  terse_v1 on one gloss-less lemma (invariant C, ``REG-INV-003``).

It stands in for slow engines in CI: budgeted certification must end inside its budget
and still report each planted defect under its own id.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler, serve

DEFAULT_SECONDS_PER_OP = 0.02


class SlowEngine(ProtocolHandler):
    """The reference handler, except that every request line first waits ``seconds_per_op``
    and every chat turn ``seconds_per_chat``.

    A batch is one request line: its elements are not slowed down one by one (its chat
    turns are).
    """

    seconds_per_op = DEFAULT_SECONDS_PER_OP
    seconds_per_chat = 0.0

    def handle_line(self, line: str | bytes) -> str:
        time.sleep(self.seconds_per_op)
        return super().handle_line(line)

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        if self.seconds_per_chat:
            time.sleep(self.seconds_per_chat)
        return super().chat(runtime, text)


def planted() -> type[SlowEngine]:
    """The slow engine with the two planted defects (see the module docstring)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from selftest.mutants.combined import TerseHashSlip
    from selftest.mutants.variation import SurfaceSeeded

    class PlantedSlowEngine(SlowEngine, SurfaceSeeded, TerseHashSlip):
        """Slow, with surface-seeded decoration and a terse trace-hash slip."""

    return PlantedSlowEngine


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="slow_engine.py")
    parser.add_argument("seconds", nargs="?", type=float, default=DEFAULT_SECONDS_PER_OP)
    parser.add_argument("--chat", type=float, default=0.0, help="seconds before each chat turn")
    parser.add_argument("--planted", action="store_true", help="plant the two defects")
    args = parser.parse_args(argv)
    engine = (planted() if args.planted else SlowEngine)()
    engine.seconds_per_op, engine.seconds_per_chat = args.seconds, args.chat
    return serve(sys.stdin, sys.stdout, engine)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
