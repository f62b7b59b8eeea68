"""Benchmarks for ``nox -s bench``: medians and ratios, all measured in one run.

Targets (never asserted in tests): a chat turn median at most 0.2 ms in every register;
a ci-profile certification of the reference engine over the subprocess protocol below
2 minutes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.probe_script import lexicon_script

ROOT = Path(__file__).resolve().parents[1]

REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")


def turn_times(runtime: ChatRuntime, script: list[str], turns: int) -> list[float]:
    """Wall time of each of *turns* chat turns (seconds), continuing through the script."""
    times = []
    for _ in range(turns):
        prompt = script[len(runtime.turn_log) % len(script)]
        start = time.perf_counter_ns()
        runtime.chat(prompt)
        times.append((time.perf_counter_ns() - start) / 1e9)
    return times


def bench_turns(turns: int, batch: int = 100) -> None:
    """One fresh session per register, all answering the lexicon script in alternating
    batches, so every register's median comes from the same minutes of the machine."""
    script = lexicon_script()
    runtimes = {r: ChatRuntime(RuntimeConfig(register_id=r)) for r in REGISTERS}
    for runtime in runtimes.values():
        turn_times(runtime, script, 50)
    samples: dict[str | None, list[float]] = {register: [] for register in REGISTERS}
    for _ in range(max(1, turns // batch)):
        for register, runtime in runtimes.items():
            samples[register].extend(turn_times(runtime, script, batch))
    medians = {}
    for register, times in samples.items():
        times.sort()
        medians[register] = statistics.median(times)
        print(
            f"chat turn   {register or 'none':<19} median {medians[register] * 1e3:7.3f} ms"
            f"   p95 {times[int(0.95 * len(times))] * 1e3:7.3f} ms   ({len(times)} turns)"
        )
    for register in REGISTERS[1:]:
        print(f"ratio       {register:<19} / none = {medians[register] / medians[None]:5.2f}")


def bench_certify(runs: int) -> None:
    """Wall time of ``python -m conformance certify`` (ci profile, subprocess engine)."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "conformance",
                    "certify",
                    "--quiet",
                    "--report",
                    out,
                    "--engine",
                    f"{sys.executable} -m reference serve",
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
            )
            times.append(time.perf_counter() - start)
        if done.returncode != 0:
            print(done.stdout[-2000:], done.stderr[-2000:])
            raise SystemExit("certification failed")
    print(
        f"certify     ci profile, subprocess    median {statistics.median(times):7.1f} s"
        f"   ({runs} runs: {', '.join(f'{t:.1f}' for t in times)})"
    )


def kills_per_second(kills: int, workers: int) -> float:
    """SIGKILLs per second of STATE-KILL-001's harness on the reference, *workers* at once."""
    from concurrent.futures import ThreadPoolExecutor

    from conformance.state.killer import KILL_TIMEOUT, KillPlan, soak_and_kill
    from reference.state import load_state

    command = [sys.executable, "-m", "reference", "serve"]

    def one(number: int, root: Path) -> None:
        directory = root / f"kill{number}"
        directory.mkdir()
        soak_and_kill(command, str(directory), KillPlan(number, 1 + number % 6, 0), KILL_TIMEOUT)
        load_state(directory)

    with tempfile.TemporaryDirectory() as root:
        start = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda number: one(number, Path(root)), range(kills)))
        return kills / (time.perf_counter() - start)


def bench_kills(kills: int) -> None:
    from conformance.state.killer import kill_workers

    serial = kills_per_second(kills, 1)
    parallel = kills_per_second(kills, kill_workers(kills))
    print(
        f"kill soak   {kills} SIGKILLs            {parallel:7.1f} kills/s with "
        f"{kill_workers(kills)} at once, {serial:.1f} one at a time ({parallel / serial:.2f}x)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--certify-runs", type=int, default=1)
    parser.add_argument("--kills", type=int, default=40)
    args = parser.parse_args()
    bench_turns(args.turns)
    if args.kills:
        bench_kills(args.kills)
    if args.certify_runs:
        bench_certify(args.certify_runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
