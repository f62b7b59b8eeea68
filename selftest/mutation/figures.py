"""The mutation figures of docs/mutation.md, recorded in ``docs/figures/mutation.json``.

``python -m selftest.mutation.score figures`` writes the file from ``mutants/`` (the verdicts
of the last run, with the stored ones recalled) and the review list; ``python -m
tools.docfigures`` renders it. A module's score is killed / (killed + survived + no tests);
reviewed mutants are left out, unchecked ones are counted apart.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

from selftest.mutation import reviews
from selftest.mutation.keys import Mutant

ROOT = Path(__file__).resolve().parents[2]
FIGURE = ROOT / "docs" / "figures" / "mutation.json"
LOG = Path("mutants") / "fastrun-log.jsonl"
KINDS = ("killed", "survived", "no tests", "reviewed", "unchecked")


def _module(name: str) -> str:
    return name.rsplit(".", 1)[0]


def write(
    codes: dict[str, int | None],
    reviewed: dict[str, reviews.Review],
    table: dict[str, Mutant],
    path: Path = FIGURE,
) -> Path:
    from selftest.mutation.score import verdict

    by_file: dict[str, Counter] = {}
    survivors: list[str] = []
    for name, code in sorted(codes.items()):
        if name not in table:
            continue
        kind = "reviewed" if name in reviewed else verdict(code)
        by_file.setdefault(_module(table[name].function), Counter())[kind] += 1
        if kind in ("survived", "no tests"):
            survivors.append(table[name].key)
    seconds = []
    if LOG.is_file():
        for line in LOG.read_text("utf-8").splitlines():
            entry = json.loads(line)
            if entry["tests"]:
                seconds.append(entry["seconds"])
    figures = {
        "by_file": {m: {k: c[k] for k in KINDS} for m, c in sorted(by_file.items())},
        "survivors": survivors,
        "fastrun": _cost(seconds, path),
    }
    from tools.benchrecord import Recording

    recording = Recording("mutation", ["figures"])
    recording.command = "python -m selftest.mutation.score figures"
    recording.write(figures, note="verdicts of mutants/ (stored ones recalled) and the review list")
    return path


def _cost(seconds: list[float], path: Path) -> dict[str, object]:
    """The per-mutant cost of the fast run logged in ``mutants/``; with none logged there
    (a fresh ``mutants/``), the cost *path* already records, from the last run that was."""
    if not seconds:
        recorded = json.loads(path.read_text("utf-8")) if path.is_file() else {}
        kept = recorded.get("figures", {}).get("fastrun")
        if kept and kept.get("mutants"):
            return dict(kept)
    return {
        "mutants": len(seconds),
        "median_seconds": round(statistics.median(seconds), 2) if seconds else None,
        "mean_seconds": round(statistics.fmean(seconds), 2) if seconds else None,
    }
