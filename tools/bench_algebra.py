"""Micro-benchmarks of the algebra core: median microseconds per call of its hot operations.

Each operation runs in batches of ``--calls`` calls; the median over ``--repeats`` batches is
reported, divided by the batch size.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.algebra import (  # noqa: E402
    blade,
    geometric_product,
    plane_rotor,
    rotor,
    versor_apply,
)
from reference.lexicon.versors import lemma_versor  # noqa: E402
from reference.truth.field import SessionField  # noqa: E402

WORDS = ("light", "water", "stone", "tree", "river", "fire", "wind", "salt")


def microseconds_per_call(operation: Callable[[int], object], calls: int, repeats: int) -> float:
    """Median over ``repeats`` batches of the mean time of one call of ``operation(i)``."""
    batches = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for i in range(calls):
            operation(i)
        batches.append((time.perf_counter_ns() - start) / calls / 1e3)
    return statistics.median(batches)


def operations() -> dict[str, Callable[[int], object]]:
    """The benchmarked operations, each taking a call index."""
    turns = [lemma_versor(word, "VERB", ()) for word in WORDS]
    anchors = [lemma_versor(word, "NOUN", ("nature",)) for word in WORDS]
    left, right = turns[0], anchors[0]
    bivector = blade(0b0011, 0.6) + blade(0b1001, 0.8)
    point = blade(0b00001, 1.5) + blade(0b00100, -2.0)
    spin = plane_rotor(1, 3, 0.7)
    field = SessionField()
    return {
        "geometric_product": lambda i: geometric_product(left, right),
        "rotor": lambda i: rotor(bivector, 0.3),
        "versor_apply": lambda i: versor_apply(spin, point),
        "SessionField.step": lambda i: field.step(turns[i % 8], anchors[(i * 3) % 8]),
    }


def main(argv: list[str] | None = None) -> int:
    """Print one line per operation: its name and median microseconds per call."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    for name, operation in operations().items():
        median = microseconds_per_call(operation, args.calls, args.repeats)
        print(f"{name:20s} {median:8.2f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
