"""Benchmarks for ``nox -s bench``: medians and ratios, all measured in one run.

Targets (never asserted in tests; compared in docs/benchmarks.md by tools/benchfigures.py):
a chat turn median at most 0.2 ms in every register; a ci-profile certification of the
reference engine over the subprocess protocol, ``-n 2`` against its anchor ``-n 1``, at
most 5 s on a quiet 2-core machine, with the suite's own CPU at most the engines'.
Records ``docs/figures/turns.json``, ``kills.json`` and ``certify.json``.
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
from tools.benchrecord import Recording

ROOT = Path(__file__).resolve().parents[1]

CPU_NOTE = (
    "CPU time is user + system of every process; the suite's and the engines' shares come "
    "from a separate `-n 1` run inside the bench process."
)
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
            intent.forget_readings()
        start = time.perf_counter_ns()
        runtime.chat(prompt)
        times.append((time.perf_counter_ns() - start) / 1e9)
    return times


def bench_turns(turns: int, batch: int = 100) -> dict[str, Any]:
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
            intent.forget_readings()  # no register reads what the one before it read
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
    return {
        "turns_per_register": len(samples[None]),
        "batch": batch,
        "registers": [
            {
                "register": register or "none",
                "median_ms": round(medians[register] * 1e3, 3),
                "p95_ms": round(samples[register][int(0.95 * len(samples[register]))] * 1e3, 3),
            }
            for register in REGISTERS
        ],
        "cold_median_ms": round(cold_median * 1e3, 3),
    }


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


def bench_certify(runs: int) -> dict[str, Any]:
    """``certify -n 2`` against its anchor ``-n 1``, alternating, *runs* of each: wall, CPU,
    the kill soak's rate, and whether both give the same verdict digest."""
    figures: dict[int, list[tuple[float, float, dict[str, Any]]]] = {1: [], 2: []}
    for _ in range(runs):
        for workers in (1, 2):
            figures[workers].append(certify_once(workers))
    medians = {}
    rows = []
    for workers, samples in figures.items():
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        rate = statistics.median(soak_rate(s[2]) for s in samples)
        medians[workers] = wall
        rows.append(
            {
                "workers": workers,
                "wall_s": round(wall, 2),
                "cpu_s": round(cpu, 2),
                "kills_per_s": round(rate, 1),
                "walls_s": [round(s[0], 2) for s in samples],
            }
        )
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
    report = figures[2][0][2]
    return {
        "runs": runs,
        "requirements": len(report["results"]),
        "verdict": report["summary"]["verdict"],
        "verdict_digest": report["verdict_digest"],
        "digests_identical": len(digests) == 1,
        "workers": rows,
        "crash": next(
            r["details"] for r in figures[1][0][2]["results"] if r["id"] == "STATE-CRASH-001"
        ),
        "longest": [
            {"id": r["id"], "ms": r["duration_ms"]}
            for r in sorted(figures[1][0][2]["results"], key=lambda r: -r["duration_ms"])[:6]
        ],
    }


def split_cpu(runs: int) -> dict[str, Any]:
    """CPU seconds of the suite and of the engines in ``certify -n 1`` run in this process
    (the suite is this process; the engines, strace and soak engines are its children),
    medians of *runs*."""
    import contextlib
    import io

    from conformance.entry import main as conformance_main

    suite, engine = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            before = resource.getrusage(resource.RUSAGE_SELF)
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            argv = ["certify", "--quiet", "-n", "1", "--report", out]
            argv += ["--engine", f"{sys.executable} -m reference serve"]
            with contextlib.redirect_stdout(io.StringIO()):
                conformance_main(argv)
            after = resource.getrusage(resource.RUSAGE_SELF)
            done = resource.getrusage(resource.RUSAGE_CHILDREN)
        suite.append(_cpu(before, after))
        engine.append(_cpu(children, done))
    figures = {
        "suite_cpu_s": round(statistics.median(suite), 2),
        "engine_cpu_s": round(statistics.median(engine), 2),
    }
    print(
        f"certify     -n 1 in this process      suite {figures['suite_cpu_s']:6.1f} s CPU   "
        f"engines {figures['engine_cpu_s']:6.1f} s CPU"
    )
    return figures


def _cpu(before: resource.struct_rusage, after: resource.struct_rusage) -> float:
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


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


def bench_kills(kills: int) -> dict[str, Any]:
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
    return {
        "kills": kills,
        "workers": workers,
        "forked_per_s": round(forked, 1),
        "started_per_s": round(started, 1),
        "serial_forked_per_s": round(serial, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--certify-runs", type=int, default=1)
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args()
    run = Recording("turns")
    recorded = {"turns": bench_turns(args.turns)}
    if args.kills:
        recorded["kills"] = bench_kills(args.kills)
    if args.certify_runs:
        recorded["certify"] = {
            **bench_certify(args.certify_runs),
            **split_cpu(args.certify_runs),
        }
    if not args.no_record:
        for name, figures in recorded.items():
            run.name = name
            run.write(figures, CPU_NOTE if name == "certify" else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
