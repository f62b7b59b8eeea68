"""Budgeted certification of a slow engine with two planted defects, timed on the clock.

``python -m tools.bench_budget [--budget 5m] [--chat 1.5] [--report DIR]`` certifies
``selftest/programs/slow_engine.py --planted`` (the reference waiting ``--chat`` seconds
before every chat turn, with a seeding defect and an invariant-C defect planted) over
every requirement within the budget, and records its figures in
``docs/figures/budget.json`` (one run per budget and chat wait, replacing an earlier one):
the wall time of the whole command against the budget, the time the budget accounts, the
verdict, what the budget cut, the verdict of each planted defect's requirement and when
it was found. ``python -m tools.docfigures`` then renders docs/benchmarks.md's table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SLOW_ENGINE = ROOT / "selftest/programs/slow_engine.py"
TARGET = ROOT / "docs" / "figures" / "budget.json"
PLANTED = {
    "VAR-CHAT-001": "seeding (decoration seeded from the surface)",
    "REG-INV-003": "invariant C (terse trace-hash slip on one gloss-less lemma)",
}


def run(budget: str, chat: float, report: Path) -> tuple[float, int, dict[str, Any]]:
    engine = shlex.join([sys.executable, str(SLOW_ENGINE), "0", "--chat", str(chat), "--planted"])
    command = [sys.executable, "-m", "conformance", "certify", "--quiet", "--engine", engine]
    command += ["--budget", budget, "--timeout", "120", "--report", str(report)]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    wall = time.monotonic() - started
    return wall, done.returncode, json.loads((report / "report.json").read_text("utf-8"))


def _commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    return done.stdout.strip()


def figures(
    budget: str,
    chat: float,
    wall: float,
    status: int,
    report: dict[str, Any],
    started: dict[str, Any],
) -> dict[str, Any]:
    """The recorded figures of one run (plain data for docs/figures/budget.json);
    *started* holds the commit, date and load average taken when it started."""
    results = {r["id"]: r for r in report["results"]}
    block = report["budget"]
    rows = {row["id"]: row for row in block["requirements"]}
    return {
        "command": f"python -m tools.bench_budget --budget {budget} --chat {chat:g}",
        **started,
        "budget_s": block["seconds"],
        "chat_s": chat,
        "wall_s": round(wall, 1),
        "spent_s": round(block["spent_ms"] / 1000, 1),
        "calibration_s": round(block["calibration_ms"] / 1000, 2),
        "found_s": {i: round(ms / 1000, 1) for i, ms in block.get("found_ms", {}).items()},
        "tiers_s": {tier: round(ms / 1000, 1) for tier, ms in block["tiers_ms"].items()},
        "rates_ms": block["rates_ms"],
        "verdict": report["summary"]["verdict"],
        "exit_status": status,
        "ran": sum(row["ran"] for row in block["requirements"]),
        "selected": len(block["requirements"]),
        "cut": len(block["cut"]),
        "not_run": len(block["not_run"]),
        "planted": [
            {
                "id": req_id,
                "defect": defect,
                "outcome": results.get(req_id, {}).get("outcome", "not run"),
                "ms": rows.get(req_id, {}).get("ms", 0),
                "found_s": round(block.get("found_ms", {}).get(req_id, 0) / 1000, 1),
            }
            for req_id, defect in PLANTED.items()
        ],
        "others_not_passing": sorted(
            f"{i} {r['outcome']}"
            for i, r in results.items()
            if i not in PLANTED and r["outcome"] not in ("pass", "not-claimed")
        ),
    }


def record(run_figures: dict[str, Any], target: Path = TARGET) -> None:
    """Add *run_figures* to *target*, replacing a run of the same budget and chat wait."""
    document = json.loads(target.read_text("utf-8")) if target.is_file() else {"runs": []}
    key = (run_figures["budget_s"], run_figures["chat_s"])
    runs = [r for r in document["runs"] if (r["budget_s"], r["chat_s"]) != key]
    runs.append(run_figures)
    document["runs"] = sorted(runs, key=lambda r: (r["budget_s"], -r["chat_s"]))
    target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_budget")
    parser.add_argument("--budget", default="5m")
    parser.add_argument("--chat", type=float, default=1.5, help="seconds per chat turn")
    parser.add_argument("--report", type=Path, help="keep the report in this directory")
    parser.add_argument("--no-record", action="store_true", help="print, do not record")
    args = parser.parse_args()
    started = {
        "date": f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        "commit": _commit(),
        "load_average": [round(x, 1) for x in os.getloadavg()],
    }
    with tempfile.TemporaryDirectory() as scratch:
        where = args.report or Path(scratch) / "report"
        wall, status, report = run(args.budget, args.chat, where)
    found = figures(args.budget, args.chat, wall, status, report, started)
    print(json.dumps(found, indent=2, ensure_ascii=False))
    if not args.no_record:
        record(found)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
