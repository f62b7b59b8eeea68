"""Benchmarks for ``nox -s bench``: medians and ratios measured in one run.

Targets (not asserted anywhere): a chat turn below 1 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.runtime import ChatRuntime, RuntimeConfig  # noqa: E402
from reference.runtime.sessions import lexicon_script  # noqa: E402

REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")


def turn_times(register: str | None, turns: int) -> list[float]:
    """Wall time of each chat turn (seconds) over *turns* turns of the probe script."""
    script = lexicon_script()
    runtime = ChatRuntime(RuntimeConfig(register_pack_id=register))
    times = []
    for i in range(turns):
        start = time.perf_counter_ns()
        runtime.chat(script[i % len(script)])
        times.append((time.perf_counter_ns() - start) / 1e9)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    args = parser.parse_args()
    turn_times(None, 50)
    medians = {}
    for register in REGISTERS:
        times = turn_times(register, args.turns)
        medians[register] = statistics.median(times)
        p95 = sorted(times)[int(0.95 * len(times))]
        print(
            f"chat turn [{register or 'none':<19}] median {medians[register] * 1e3:7.3f} ms"
            f"   p95 {p95 * 1e3:7.3f} ms   ({args.turns} turns)"
        )
    base = medians[None]
    for register in REGISTERS[1:]:
        print(f"ratio {register:<19} / none = {medians[register] / base:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
