"""Micro-benchmarks of the algebra core: median microseconds per call of its hot operations.

Each operation runs in batches of ``--calls`` calls; the median over ``--repeats`` batches is
reported, divided by the batch size, with its ratio to the anchor: one numpy ufunc call on
two multivectors (``np.add``), the floor under any numpy operation. The products a chat turn
makes are counted, not timed.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from reference.algebra import (
    blade,
    geometric_product,
    plane_rotor,
    rotor,
    versor_apply,
)
from reference.lexicon.versors import lemma_versor
from reference.runtime import ChatRuntime
from reference.runtime.probe_script import lexicon_script
from reference.truth.field import SessionField
from tools.benchrecord import Recording

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
        "np.add (anchor)": lambda i: np.add(left, right),
        "geometric_product": lambda i: geometric_product(left, right),
        "rotor": lambda i: rotor(bivector, 0.3),
        "versor_apply": lambda i: versor_apply(spin, point),
        "SessionField.step": lambda i: field.step(turns[i % 8], anchors[(i * 3) % 8]),
    }


PRODUCTS = ("geometric_product", "product_grades", "sandwich_grades", "blade_product")


def products_per_turn(turns: int = 2000) -> dict[str, float]:
    """Mean calls per chat turn of each product function, over the lexicon script."""
    script = lexicon_script()
    runtime = ChatRuntime()
    for prompt in script[:50]:
        runtime.chat(prompt)
    calls: collections.Counter[str] = collections.Counter()

    def count(frame, event, arg):
        if event == "call" and frame.f_code.co_name in PRODUCTS:
            calls[frame.f_code.co_name] += 1

    sys.setprofile(count)
    try:
        for i in range(turns):
            runtime.chat(script[i % len(script)])
    finally:
        sys.setprofile(None)
    return {name: calls[name] / turns for name in PRODUCTS}


def main(argv: list[str] | None = None) -> int:
    """Print one line per operation: its median microseconds per call and ratio to np.add."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=51)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording("algebra", argv)
    timed = operations()
    medians: dict[str, list[float]] = {name: [] for name in timed}
    for _ in range(args.repeats):
        for name, operation in timed.items():
            medians[name].append(microseconds_per_call(operation, args.calls, 1))
    anchor = statistics.median(medians["np.add (anchor)"])
    calls = []
    for name, batches in medians.items():
        median = statistics.median(batches)
        calls.append({"call": name, "median_us": round(median, 2)})
        print(f"{name:20s} {median:8.2f} us   {median / anchor:6.2f}x np.add")
    per_turn = products_per_turn()
    print("per chat turn        " + ", ".join(f"{n} {c:.2f}" for n, c in per_turn.items()))
    if not args.no_record:
        run.write(
            {
                "repeats": args.repeats,
                "calls_per_batch": args.calls,
                "calls": calls,
                "per_turn": {n: round(c, 2) for n, c in per_turn.items()},
            }
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
