"""The Node engine's mutation figures (docs/mutation.md § Node engine), from StrykerJS reports.

``python -m tools.nodefigures run PART MUTATE`` runs StrykerJS over MUTATE (from
``ports/node``, after ``npm ci``; the suite's Python on ``PATH``) and stores its figures.

``python -m tools.nodefigures add PART MUTATE SELECTION REPORT SECONDS`` stores the summary
of one Stryker run (its JSON report, ``ports/node/reports/mutation/mutation.json``) in
``docs/figures/node-mutation.json`` under PART, replacing an earlier run of the same part:
the counts per status, the wall-clock seconds, and each survivor (file, line, column,
mutator, replacement). ``table()`` renders the figure block ``node-mutation`` from that file
(``python -m tools.docfigures``), counting as reviewed the survivors that
``selftest/mutation/node-reviews.txt`` lists (``FILE:LINE:COLUMN MUTATOR | kind | reason``).
``rerun PART REPORT`` turns into kills the survivors of PART that a later Stryker run of
their lines (after the suite gained checks) killed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures" / "node-mutation.json"
REVIEWS = ROOT / "selftest" / "mutation" / "node-reviews.txt"
KILLS = ("Killed", "Timeout")


def summary(report: dict[str, Any]) -> tuple[Counter[str], list[dict[str, Any]]]:
    """The status counts and the survivors of a Stryker JSON report."""
    counts: Counter[str] = Counter()
    survivors = []
    for name, data in sorted(report["files"].items()):
        for mutant in data["mutants"]:
            counts[mutant["status"]] += 1
            if mutant["status"] not in KILLS:
                start = mutant["location"]["start"]
                survivors.append(
                    {
                        "key": f"{name}:{start['line']}:{start['column']} {mutant['mutatorName']}",
                        "status": mutant["status"],
                        "replacement": mutant.get("replacement", ""),
                    }
                )
    return counts, survivors


def reviews() -> dict[str, str]:
    """The reviewed survivors: key -> kind (``equivalent``, ``not normative FREE-...``)."""
    found = {}
    if REVIEWS.is_file():
        for line in REVIEWS.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                key, kind, _reason = (part.strip() for part in line.split("|", 2))
                found[key] = kind
    return found


PORT = ROOT / "ports" / "node"
SELECTION = "the file's families (node_reach)"


def run(part: str, mutate: str) -> None:
    """Run StrykerJS over *mutate* (``nice -n 19``, one runner, the part's incremental file
    ``ports/node/incremental/PART.json``) and store its figures under *part*."""
    started = time.monotonic()
    command = ["nice", "-n", "19", "npx", "stryker", "run", "--mutate", mutate]
    command += ["--concurrency", "1", "--incremental"]
    command += ["--incrementalFile", f"incremental/{part}.json", "--reporters", "json,clear-text"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run(command, cwd=PORT, env=env, check=True)
    report = PORT / "reports" / "mutation" / "mutation.json"
    add(part, mutate, SELECTION, report, time.monotonic() - started)


def _provenance(part: str, mutate: str) -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "command": f"python -m tools.nodefigures run {part} {mutate}",
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "commit": commit,
        "load_average": round(os.getloadavg()[0], 1),
    }


def add(part: str, mutate: str, selection: str, report: Path, seconds: float) -> None:
    counts, survivors = summary(json.loads(report.read_text("utf-8")))
    runs = json.loads(FIGURES.read_text("utf-8"))["runs"] if FIGURES.is_file() else []
    runs = [run for run in runs if run["part"] != part]
    runs.append(
        {
            "part": part,
            "mutate": mutate,
            **_provenance(part, mutate),
            "selection": selection,
            "counts": dict(sorted(counts.items())),
            "seconds": round(seconds),
            "survivors": survivors,
        }
    )
    FIGURES.write_text(json.dumps({"runs": runs}, indent=1, ensure_ascii=False) + "\n", "utf-8")


def rerun(part: str, report: Path) -> None:
    """Survivors of *part* that a later run (*report*, of their lines, after the suite gained
    checks) killed become kills; the run keeps how many (``killed_on_rerun``)."""
    _counts, after = summary(json.loads(report.read_text("utf-8")))
    rerun_keys = _all_keys(json.loads(report.read_text("utf-8")))
    runs = json.loads(FIGURES.read_text("utf-8"))["runs"]
    for run in runs:
        if run["part"] != part:
            continue
        killed = _killed_on_rerun(run["survivors"], after, rerun_keys)
        for survivor in killed:
            run["counts"][survivor["status"]] -= 1
            run["counts"]["Killed"] = run["counts"].get("Killed", 0) + 1
            run["survivors"].remove(survivor)
        run["killed_on_rerun"] = run.get("killed_on_rerun", 0) + len(killed)
    FIGURES.write_text(json.dumps({"runs": runs}, indent=1, ensure_ascii=False) + "\n", "utf-8")


def _killed_on_rerun(
    survivors: list[dict[str, Any]], after: list[dict[str, Any]], rerun_keys: set[str]
) -> list[dict[str, Any]]:
    """The *survivors* the rerun killed: of those whose key it ran, all but as many per key
    as survived it (two mutants can share a key: one operand and the whole test replaced
    at one column by the same mutator)."""
    spared = Counter(s["key"] for s in after)
    killed = []
    for survivor in survivors:
        key = survivor["key"]
        if key not in rerun_keys:
            continue
        if spared[key]:
            spared[key] -= 1
        else:
            killed.append(survivor)
    return killed


def _all_keys(report: dict[str, Any]) -> set[str]:
    return {
        f"{name}:{m['location']['start']['line']}:{m['location']['start']['column']} "
        f"{m['mutatorName']}"
        for name, data in report["files"].items()
        for m in data["mutants"]
    }


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def table() -> str:
    """One row per recorded run: counts, score, score without the reviewed survivors."""
    reviewed = reviews()
    rows = [
        "| part of `ports/node` | requirements | mutants | killed | timeout | survived "
        "| reviewed | score | score without reviewed | s / mutant | run |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for run in json.loads(FIGURES.read_text("utf-8"))["runs"]:
        counts = run["counts"]
        total = sum(counts.values())
        kills = counts.get("Killed", 0) + counts.get("Timeout", 0)
        seen = sum(1 for s in run["survivors"] if s["key"] in reviewed)
        rows.append(
            f"| `{run['mutate']}` | {run['selection']} | {total} | {counts.get('Killed', 0)} "
            f"| {counts.get('Timeout', 0)} | {total - kills} | {seen} | {_percent(kills, total)} "
            f"| {_percent(kills, total - seen)} | {run['seconds'] / total if total else 0:.1f} "
            f"| {run['date']}, `{run['commit']}`, load {run['load_average']}: "
            f"`{run['command']}` |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if argv[:1] == ["add"] and len(argv) == 6:
        add(argv[1], argv[2], argv[3], Path(argv[4]), float(argv[5]))
        return 0
    if argv[:1] == ["run"] and len(argv) == 3:
        run(argv[1], argv[2])
        return 0
    if argv[:1] == ["rerun"] and len(argv) == 3:
        rerun(argv[1], Path(argv[2]))
        return 0
    if argv[:1] == ["table"]:
        print(table())
        return 0
    print(
        "usage: python -m tools.nodefigures run PART MUTATE"
        " | add PART MUTATE SELECTION REPORT SECONDS"
        " | rerun PART REPORT | table"
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
