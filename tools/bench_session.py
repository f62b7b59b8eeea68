"""Long-session benchmark: turn cost at turn 100,000 against a fresh session, and RSS growth.

One session answers the same prompt ``--turns`` times; its resident memory is read at its
first turn and at its last. Then it and a fresh session answer the prompt in alternating
batches, so both medians come from the same minutes of the same machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from reference.runtime import ChatRuntime
from tools.benchrecord import Recording

PROMPT = "What is light?"


def resident_bytes() -> int:
    """This process's current resident set size, from /proc/self/statm."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _batch_seconds(runtime: ChatRuntime, turns: int) -> list[float]:
    times = []
    for _ in range(turns):
        start = time.perf_counter_ns()
        runtime.chat(PROMPT)
        times.append((time.perf_counter_ns() - start) / 1e9)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=4000, help="turns timed per session")
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording("session", argv)
    long = ChatRuntime()
    long.chat(PROMPT)
    first = resident_bytes()
    for _ in range(args.turns - 1):
        long.chat(PROMPT)
    grown = resident_bytes() - first
    fresh = ChatRuntime()
    _batch_seconds(fresh, 100)
    samples: tuple[list[float], list[float]] = ([], [])
    batch = 100
    for _ in range(args.samples // batch):
        samples[0].extend(_batch_seconds(fresh, batch))
        samples[1].extend(_batch_seconds(long, batch))
    fresh_median, long_median = (statistics.median(side) for side in samples)
    print(
        f"long session turn {args.turns:,}          median {long_median * 1e3:7.3f} ms"
        f"   fresh session {fresh_median * 1e3:6.3f} ms   ratio {long_median / fresh_median:5.2f}x"
    )
    print(
        f"long session RSS growth over {args.turns:,} turns: {grown / 2**20:5.2f} MiB"
        f"   ({first / 2**20:.1f} MiB after turn 1)"
    )
    if not args.no_record:
        run.write(
            {
                "turns": args.turns,
                "samples": args.samples,
                "long_median_ms": round(long_median * 1e3, 3),
                "fresh_median_ms": round(fresh_median * 1e3, 3),
                "rss_first_mib": round(first / 2**20, 1),
                "rss_growth_mib": round(grown / 2**20, 2),
            }
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
