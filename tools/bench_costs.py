"""What the suite's own checks cost, before and after a change: one run of each, back to back.

``python -m tools.bench_costs --before REF [--test PATH ...] [--top N]`` exports commit
*REF* into a temporary directory (``git archive``) and, in it and then in this working
tree, runs ``python -m conformance certify --engine "python -m reference serve" -n 1``
(ci profile) and ``pytest -q -p no:cacheprovider -n 0`` on each *PATH*. It records in
``docs/figures/costs.json`` the time of each requirement the reports give (the *N*
longest before, and every one whose time changed by more than half), the whole
certification's wall time, both verdict digests (they must be equal: the same verdicts)
and each test path's wall and CPU time. ``python -m tools.docfigures`` renders the table.

CPU time is user + system of the waited-for processes; an engine forked from a zygote is
not the harness's child, so certification is compared on wall time, per requirement.
One run of each on a shared machine: read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from tools.benchrecord import ROOT, Recording, short

CHANGED = 0.5
"""A requirement whose time moved by more than this fraction of its earlier time is listed."""


def export(ref: str, into: Path) -> str:
    """Write the tree of commit *ref* into *into*; return its full hash."""
    commit = subprocess.run(
        ["git", "rev-parse", ref], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.strip()
    archive = subprocess.run(["git", "archive", commit], capture_output=True, cwd=ROOT, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into)], check=False)
    return commit


def timed(command: list[str], tree: Path) -> tuple[float, float]:
    """Run *command* in *tree* (importing from it first); its wall and CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": ""}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(command, cwd=tree, env=env, check=False, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def certify(tree: Path, report: Path) -> dict[str, Any]:
    """One ``certify -n 1`` of the reference in *tree*: wall seconds, digest, times by id."""
    engine = f"{sys.executable} -m reference serve"
    command = [sys.executable, "-m", "conformance", "certify", "--engine", engine]
    wall, _ = timed([*command, "-n", "1", "--quiet", "--report", str(report)], tree)
    document = json.loads((report / "report.json").read_text(encoding="utf-8"))
    times = {row["id"]: row["duration_ms"] / 1000 for row in document["results"]}
    return {"wall": wall, "digest": document["verdict_digest"], "times": times}


def tests(tree: Path, path: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``pytest -n 0`` on *path* in *tree*."""
    return timed(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", path], tree
    )


def _s(seconds: float) -> str:
    return f"{seconds:.1f} s"


def _ratio(after: float, before: float) -> str:
    return f"{after / before:.2f}x" if before else "n/a"


def rows(before: dict[str, Any], after: dict[str, Any], top: int) -> list[list[str]]:
    """The table: listed requirements, then the whole run."""
    old, new = before["times"], after["times"]
    longest = sorted(old, key=lambda i: -old[i])[:top]
    moved = [
        i for i in sorted(old) if i in new and abs(new[i] - old[i]) > CHANGED * max(old[i], 0.2)
    ]
    listed = longest + [i for i in moved if i not in longest]
    out = [
        [i, f"{_s(old[i])} -> {_s(new.get(i, 0.0))} ({_ratio(new.get(i, 0.0), old[i])})"]
        for i in listed
    ]
    total_old, total_new = sum(old.values()), sum(new.values())
    out.append(
        [
            "every requirement, summed",
            f"{_s(total_old)} -> {_s(total_new)} ({_ratio(total_new, total_old)})",
        ]
    )
    out.append(
        [
            "whole `certify -n 1`, wall",
            f"{_s(before['wall'])} -> {_s(after['wall'])} "
            f"({_ratio(after['wall'], before['wall'])})",
        ]
    )
    same = "same" if before["digest"] == after["digest"] else "**different**"
    out.append(
        ["verdict digest", f"`{before['digest'][:12]}…` -> `{after['digest'][:12]}…` ({same})"]
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit to compare with")
    parser.add_argument("--test", action="append", default=[], help="a test path to time")
    parser.add_argument("--top", type=int, default=8, help="longest requirements listed")
    args = parser.parse_args(argv)
    recording = Recording("costs", argv)
    with tempfile.TemporaryDirectory(prefix="bench-costs-") as scratch:
        old_tree = Path(scratch) / "before"
        commit = export(args.before, old_tree)
        runs = {}
        for label, tree in (("before", old_tree), ("after", ROOT)):
            runs[label] = certify(tree, Path(scratch) / f"report-{label}")
            print(f"certify {label}: {runs[label]['wall']:.1f} s", flush=True)
        table = rows(runs["before"], runs["after"], args.top)
        for path in args.test:
            old_wall, old_cpu = tests(old_tree, path)
            new_wall, new_cpu = tests(ROOT, path)
            print(f"{path}: {old_cpu:.1f} -> {new_cpu:.1f} s CPU", flush=True)
            table.append(
                [
                    f"`pytest -n 0 {path}`, CPU (wall)",
                    f"{_s(old_cpu)} ({_s(old_wall)}) -> {_s(new_cpu)} ({_s(new_wall)}) "
                    f"({_ratio(new_cpu, old_cpu)} CPU)",
                ]
            )
    table.insert(0, ["compared with", f"commit `{short(commit)}` (before -> after)"])
    recording.write(
        {"rows": table},
        note="One run of each, the earlier commit first; certification per requirement on "
        "wall time (the report's), tests on CPU time.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
