"""Budgeted certification of a slow engine with two planted defects, timed on the clock.

``python -m tools.bench_budget [--budget 5m] [--chat 1.5] [--write docs/benchmarks.md]``
certifies ``selftest/programs/slow_engine.py --planted`` (the reference waiting
``--chat`` seconds before every chat turn, with a seeding defect and an invariant-C
defect planted) over every requirement within the budget, and prints a Markdown block:
the wall time against the budget, the verdict, what the budget cut, and the verdict of
each planted defect's requirement. ``--write FILE`` replaces the block between
``<!-- bench_budget -->`` and ``<!-- /bench_budget -->`` in FILE.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOW_ENGINE = ROOT / "selftest/programs/slow_engine.py"
PLANTED = {
    "VAR-CHAT-001": "seeding (decoration seeded from the surface)",
    "REG-INV-003": "invariant C (terse trace-hash slip on one gloss-less lemma)",
}
MARKS = ("<!-- bench_budget -->", "<!-- /bench_budget -->")


def run(budget: str, chat: float, report: Path) -> tuple[float, int, dict]:
    engine = shlex.join([sys.executable, str(SLOW_ENGINE), "0", "--chat", str(chat), "--planted"])
    command = [sys.executable, "-m", "conformance", "certify", "--quiet", "--engine", engine]
    command += ["--budget", budget, "--timeout", "120", "--report", str(report)]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    wall = time.monotonic() - started
    return wall, done.returncode, json.loads((report / "report.json").read_text("utf-8"))


def block(budget: str, chat: float, wall: float, status: int, report: dict) -> str:
    results = {r["id"]: r for r in report["results"]}
    spent = report["budget"]["spent_ms"] / 1000
    seconds = report["budget"]["seconds"]
    ran = sum(row["ran"] for row in report["budget"]["requirements"])
    lines = [
        f"`python -m tools.bench_budget --budget {budget} --chat {chat}` "
        f"({datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC):",
        "",
        "| figure | value |",
        "|---|---|",
        f"| budget | {seconds:g} s |",
        f"| wall time of the whole `certify` (start-up and report included) | "
        f"{wall:.1f} s ({wall / seconds:.2f}x the budget) |",
        f"| time the budget accounts (from hello to the last request) | {spent:.1f} s |",
        f"| verdict, exit status | {report['summary']['verdict']}, {status} |",
        f"| requirements run / selected | {ran} / {len(report['budget']['requirements'])} |",
        f"| cut short / not run | {len(report['budget']['cut'])} / "
        f"{len(report['budget']['not_run'])} |",
    ]
    for req_id, defect in PLANTED.items():
        verdict = results.get(req_id, {}).get("outcome", "not run")
        lines.append(f"| planted {defect}: `{req_id}` | {verdict} |")
    others = sorted(
        f"`{i}` {r['outcome']}"
        for i, r in results.items()
        if i not in PLANTED and r["outcome"] not in ("pass", "not-claimed")
    )
    lines.append(f"| other requirements not passing | {', '.join(others) or 'none'} |")
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> None:
    content = path.read_text(encoding="utf-8")
    start, end = (re.escape(mark) for mark in MARKS)
    pattern = re.compile(f"{start}\n.*?{end}", re.S)
    if not pattern.search(content):
        raise SystemExit(f"{path}: no {MARKS[0]} ... {MARKS[1]} block")
    path.write_text(pattern.sub(lambda _: f"{MARKS[0]}\n{text}{MARKS[1]}", content), "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_budget")
    parser.add_argument("--budget", default="5m")
    parser.add_argument("--chat", type=float, default=1.5, help="seconds per chat turn")
    parser.add_argument("--write", type=Path, help="Markdown file with a bench_budget block")
    parser.add_argument("--report", type=Path, help="keep the report in this directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        where = args.report or Path(scratch) / "report"
        wall, status, report = run(args.budget, args.chat, where)
    text = block(args.budget, args.chat, wall, status, report)
    print(text, end="")
    if args.write:
        write(args.write, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
