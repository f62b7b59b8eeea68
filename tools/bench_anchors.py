"""Anchored benchmarks: each figure is a median over interleaved samples and a ratio to its
anchor, measured in the same run.

* the variation selector against one bare SHA-256 of the same seed;
* a protocol round trip to ``python -m reference serve`` against a Python echo process;
* the cold start of ``python -m reference chat --once`` and of ``python -m reference serve``
  to its ``hello`` answer against a bare interpreter start, in wall time and in CPU time
  (user + system of the child, which a busy machine moves less), with the share of the chat
  start spent importing numpy.

Figures are recorded in ``docs/figures/anchors.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from reference.realize.variation import select_bucket_index
from tools.benchrecord import Recording

ROOT = Path(__file__).resolve().parents[1]

TRACE_HASH = hashlib.sha256(b"bench").hexdigest()
BUCKET = ("Well,", "So,", "Right,", "")
ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
BYTECODE_NOTE = (
    "Cold starts read compiled bytecode where it exists: a venv installed without it, or "
    "`PYTHONDONTWRITEBYTECODE=1` from the first run on, compiles every module at every start."
)
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


def bench_selector(rounds: int) -> dict[str, float]:
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
    return {"selector_us": round(ours * 1e6, 3), "sha256_us": round(anchor * 1e6, 3)}


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


def bench_round_trip(rounds: int) -> dict[str, float]:
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
    return {
        "hello_round_trip_us": round(ours * 1e6, 1),
        "echo_round_trip_us": round(anchor * 1e6, 1),
    }


def _start_seconds(argv: list[str], given: bytes | None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of *argv* fed *given* on stdin."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, input=given, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def bench_cold_start(runs: int) -> dict[str, float]:
    commands: dict[str, tuple[list[str], bytes | None]] = {
        "bare": ([sys.executable, "-c", "pass"], None),
        "numpy": ([sys.executable, "-c", "import numpy"], None),
        "hello": ([sys.executable, "-m", "reference", "serve"], HELLO.encode()),
        "chat": ([sys.executable, "-m", "reference", "chat", "--once", "What is light?"], None),
    }
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, given) in commands.items():
            wall, cpu = _start_seconds(argv, given)
            walls[name].append(wall)
            cpus[name].append(cpu)
    figures: dict[str, float] = {"runs": runs}
    for name in commands:
        figures[f"{name}_ms"] = round(statistics.median(walls[name]) * 1e3, 1)
        figures[f"{name}_cpu_ms"] = round(statistics.median(cpus[name]) * 1e3, 1)
    bare, numpy, chat = (figures[f"{n}_ms"] for n in ("bare", "numpy", "chat"))
    figures["numpy_share"] = round((numpy - bare) / (chat - bare), 2)
    for name in ("hello", "chat"):
        print(
            f"cold start  {name:<26}median {figures[f'{name}_ms']:7.1f} ms "
            f"({figures[f'{name}_cpu_ms']:.1f} ms CPU)   bare python {bare:6.1f} ms "
            f"({figures['bare_cpu_ms']:.1f} ms CPU)"
        )
    print(f"cold start  numpy import {figures['numpy_share']:4.0%} of chat's start over bare")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--starts", type=int, default=11)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording("anchors", argv)
    figures = {
        **bench_selector(args.rounds),
        **bench_round_trip(args.rounds),
        **bench_cold_start(args.starts),
    }
    if not args.no_record:
        run.write(figures, BYTECODE_NOTE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
