"""Anchored benchmarks: each figure is a median over interleaved samples and a ratio to its
anchor, measured in the same run.

* the variation selector against one bare SHA-256 of the same seed;
* a protocol round trip to ``python -m reference serve`` against a Python echo process;
* the cold start of ``python -m reference chat --once`` against a bare interpreter start,
  with the share of it spent importing numpy.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from reference.realize.variation import select_bucket_index

ROOT = Path(__file__).resolve().parents[1]

TRACE_HASH = hashlib.sha256(b"bench").hexdigest()
BUCKET = ("Well,", "So,", "Right,", "")
ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
HELLO = '{"id":1,"op":"hello"}\n'


def _interleaved(pair: tuple[Callable[[], object], Callable[[], object]], rounds: int, batch: int):
    """Median seconds per call of each of two callables, sampled in alternating batches."""
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for side, work in enumerate(pair):
            start = time.perf_counter_ns()
            for _ in range(batch):
                work()
            samples[side].append((time.perf_counter_ns() - start) / batch / 1e9)
    return statistics.median(samples[0]), statistics.median(samples[1])


def bench_selector(rounds: int) -> None:
    seed = f"{TRACE_HASH}|default_neutral_v1|7|openings".encode()

    def selector() -> object:
        return select_bucket_index(
            BUCKET,
            trace_hash=TRACE_HASH,
            register_id="default_neutral_v1",
            turn_idx=7,
            bucket_name="openings",
        )

    def bare() -> object:
        return hashlib.sha256(seed).digest()

    ours, anchor = _interleaved((selector, bare), rounds, 2000)
    print(
        f"selector    select_bucket_index       median {ours * 1e6:7.3f} us"
        f"   bare SHA-256 {anchor * 1e6:6.3f} us   ratio {ours / anchor:5.2f}x"
    )


class _LineProcess:
    """A child process spoken to one line at a time."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=ROOT,
        )

    def round_trip(self, line: str) -> str:
        self.process.stdin.write(line)
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def bench_round_trip(rounds: int) -> None:
    engine = _LineProcess([sys.executable, "-m", "reference", "serve"])
    echo = _LineProcess([sys.executable, "-c", ECHO])
    try:
        if '"ok":true' not in engine.round_trip(HELLO):
            raise SystemExit("the engine did not answer hello")
        ours, anchor = _interleaved(
            (lambda: engine.round_trip(HELLO), lambda: echo.round_trip(HELLO)), rounds, 200
        )
    finally:
        engine.close()
        echo.close()
    print(
        f"protocol    hello round trip          median {ours * 1e6:7.1f} us"
        f"   Python echo {anchor * 1e6:7.1f} us   ratio {ours / anchor:5.2f}x"
    )


def _start_seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def bench_cold_start(runs: int) -> None:
    commands = {
        "bare": [sys.executable, "-c", "pass"],
        "numpy": [sys.executable, "-c", "import numpy"],
        "chat": [sys.executable, "-m", "reference", "chat", "--once", "What is light?"],
    }
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            samples[name].append(_start_seconds(argv))
    bare, numpy, chat = (statistics.median(samples[name]) for name in commands)
    share = (numpy - bare) / (chat - bare)
    print(
        f"cold start  chat --once               median {chat * 1e3:7.1f} ms"
        f"   bare python {bare * 1e3:6.1f} ms   ratio {chat / bare:5.2f}x"
        f"   numpy import {share:4.0%} of the rest"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--starts", type=int, default=11)
    args = parser.parse_args(argv)
    bench_selector(args.rounds)
    bench_round_trip(args.rounds)
    bench_cold_start(args.starts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
