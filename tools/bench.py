"""Benchmarks for ``nox -s bench``: medians and ratios, all measured in one run.

Targets (never asserted in tests): a chat turn median at most 0.2 ms in every register;
a ci-profile certification of the reference engine over the subprocess protocol at most
20 s on an idle 2-core machine, ``-n 2`` against its anchor ``-n 1``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.probe_script import lexicon_script
from reference.truth import intent

ROOT = Path(__file__).resolve().parents[1]

REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")


def turn_times(
    runtime: ChatRuntime, script: list[str], turns: int, cold: bool = False
) -> list[float]:
    """Wall time of each of *turns* chat turns (seconds), continuing through the script;
    with *cold*, the reading cache is emptied before each turn (outside its time)."""
    times = []
    for _ in range(turns):
        prompt = script[len(runtime.turn_log) % len(script)]
        if cold:
            intent.read.cache_clear()
        start = time.perf_counter_ns()
        runtime.chat(prompt)
        times.append((time.perf_counter_ns() - start) / 1e9)
    return times


def bench_turns(turns: int, batch: int = 100) -> None:
    """One fresh session per register, all answering the lexicon script in alternating
    batches, so every register's median comes from the same minutes of the machine; the
    reading cache is emptied before each batch, and a fifth session reads every turn cold."""
    script = lexicon_script()
    runtimes = {r: ChatRuntime(RuntimeConfig(register_id=r)) for r in REGISTERS}
    for runtime in runtimes.values():
        turn_times(runtime, script, 50)
    cold_runtime = ChatRuntime(RuntimeConfig(register_id=None))
    samples: dict[str | None, list[float]] = {register: [] for register in REGISTERS}
    cold: list[float] = []
    for _ in range(max(1, turns // batch)):
        for register, runtime in runtimes.items():
            intent.read.cache_clear()  # no register reads what the one before it read
            samples[register].extend(turn_times(runtime, script, batch))
        cold.extend(turn_times(cold_runtime, script, batch, cold=True))
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
    cold_median = statistics.median(cold)
    print(
        f"chat turn   none, every reading cold median {cold_median * 1e3:7.3f} ms"
        f"   ({cold_median / medians[None]:4.2f}x the cached none median)"
    )


def certify_once(workers: int) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds (user + sys, every process) of one ci-profile certification of
    ``python -m reference serve`` on *workers* engine processes, and its report."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "conformance", "certify", "--quiet", "--report", out]
            + ["-n", str(workers), "--engine", f"{sys.executable} -m reference serve"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            print(done.stdout[-2000:], done.stderr[-2000:])
            raise SystemExit("certification failed")
        report: dict[str, Any] = json.loads((Path(out) / "report.json").read_text("utf-8"))
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, report


def soak_rate(report: dict[str, Any]) -> float:
    """SIGKILLs per second of STATE-KILL-001 in a certification report."""
    soak = next(r for r in report["results"] if r["id"] == "STATE-KILL-001")
    kills, milliseconds = float(soak["details"]["kills"]), float(soak["duration_ms"])
    return kills / (milliseconds / 1000)


def bench_certify(runs: int) -> None:
    """``certify -n 2`` against its anchor ``-n 1``, alternating, *runs* of each: wall, CPU,
    the kill soak's rate, and whether both give the same verdict digest."""
    figures: dict[int, list[tuple[float, float, dict[str, Any]]]] = {1: [], 2: []}
    for _ in range(runs):
        for workers in (1, 2):
            figures[workers].append(certify_once(workers))
    medians = {}
    for workers, samples in figures.items():
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        rate = statistics.median(soak_rate(s[2]) for s in samples)
        medians[workers] = wall
        print(
            f"certify     -n {workers}, subprocess engine   median {wall:7.1f} s wall "
            f"{cpu:6.1f} s CPU   kill soak {rate:5.1f} kills/s   "
            f"({runs} runs: {', '.join(f'{s[0]:.1f}' for s in samples)})"
        )
    digests = {s[2]["verdict_digest"] for samples in figures.values() for s in samples}
    print(
        f"ratio       certify -n 1 / -n 2 = {medians[1] / medians[2]:5.2f}x   "
        f"verdict digests {'identical' if len(digests) == 1 else 'DIFFER'}"
    )


def kills_per_second(kills: int, workers: int, forks: bool) -> float:
    """SIGKILLs per second of STATE-KILL-001's harness on the reference, *workers* at once:
    soak engines forked from a zygote (*forks*), or started (as many started ahead)."""
    from concurrent.futures import ThreadPoolExecutor

    from conformance.state.driver import scratch
    from conformance.state.killer import (
        KILL_TIMEOUT,
        WARM,
        ZYGOTES,
        KillPlan,
        soak_and_kill,
        spawner,
    )
    from reference.state import load_state

    command = [sys.executable, "-m", "reference", "serve"]
    spawn = spawner(command, forks, ahead=workers)

    def one(number: int, root: Path) -> None:
        directory = root / f"kill{number}"
        directory.mkdir()
        plan = KillPlan(number, 1 + number % 6, 0)
        record = soak_and_kill(spawn, str(directory), plan, KILL_TIMEOUT)
        assert record.error is None, record.error
        load_state(directory)

    with scratch() as root:
        start = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda number: one(number, root), range(kills)))
        rate = kills / (time.perf_counter() - start)
    WARM.close()
    ZYGOTES.close()
    return rate


def bench_kills(kills: int) -> None:
    from conformance.state.killer import kill_workers

    workers = kill_workers(kills)
    started = kills_per_second(kills, workers, forks=False)
    forked = kills_per_second(kills, workers, forks=True)
    serial = kills_per_second(kills, 1, forks=True)
    print(
        f"kill soak   {kills} SIGKILLs, {workers} at once  {forked:7.1f} kills/s forked from a "
        f"zygote, {started:.1f} started ({forked / started:.2f}x); {serial:.1f} forked one at "
        f"a time"
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
