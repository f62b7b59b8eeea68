"""Instructions per chat turn in each register, counted by callgrind: a figure that does
not move with the host's speed or load, as wall times do.

Each register's session answers 100 turns of the lexicon script to warm up, then the
counted turns; callgrind collects only inside ``math.prod``, which drives the counted
turns, so start-up and warm-up are not counted. Skipped (with a line saying so) where
valgrind is not installed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tools.benchrecord import Recording, load

ROOT = Path(__file__).resolve().parents[1]
REGISTERS = ("none", "default_neutral_v1", "terse_v1", "convivial_v1")

PROGRAM = """
import math
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.probe_script import lexicon_script
script = lexicon_script()
register = {register!r}
runtime = ChatRuntime(RuntimeConfig(register_id=None if register == "none" else register))
for turn in range(100):
    runtime.chat(script[turn % len(script)])
def turn():
    runtime.chat(script[len(runtime.turn_log) % len(script)])
    return 1
math.prod(turn() for _ in range({turns}))
"""


def instructions_per_turn(register: str, turns: int) -> float:
    """Instructions callgrind counts per turn over *turns* turns in *register*."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        "--toggle-collect=math_prod",
        sys.executable,
        "-c",
        PROGRAM.format(register=register, turns=turns),
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=os.environ)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed for {register}: {done.stderr[-2000:]}")
    return int(found.group(1)) / turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording("instructions", argv)
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed; not counted")
        return 0
    counts = {register: instructions_per_turn(register, args.turns) for register in REGISTERS}
    for register, count in counts.items():
        ratio = count / counts["none"]
        print(
            f"instructions per chat turn   {register:<19} {count / 1e6:6.3f} M"
            f"   ({ratio:4.2f}x none, {args.turns} turns)"
        )
    if not args.no_record:
        run.write(
            {
                "turns": args.turns,
                "millions": {r: round(c / 1e6, 3) for r, c in counts.items()},
                "earlier": earlier_runs(),
            }
        )
    return 0


def earlier_runs(keep: int = 2) -> list[dict[str, object]]:
    """The runs the recorded file holds (its own and its earlier ones), latest first, so a
    new record keeps the *keep* latest before it to compare commits by."""
    try:
        previous = load("instructions")
    except FileNotFoundError:
        return []
    own = {
        "commit": previous["commit"],
        "date": previous["date"],
        "millions": previous["figures"]["millions"],
    }
    return [own, *previous["figures"].get("earlier", [])][:keep]


if __name__ == "__main__":
    raise SystemExit(main())
