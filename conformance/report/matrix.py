"""Engines side by side: requirements × engines, one outcome per cell, from report.json data.

``build_matrix`` takes each engine's report (with a label and the directory its files
are in) and returns plain data, the body of ``compare --format json``
(``conformance/report/schemas/compare.schema.json``); ``render_matrix`` draws it as text.
The same reports always give the same data, in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance.report.certificate import HEADLINE, replay_command

COMPARE_FORMAT = "core-conformance-compare/1"
COMPARE_SCHEMA_ID = "https://core-conformance.example/schemas/compare-1.schema.json"
BLOCKING = ("fail", "error", "xpass")
"""Outcomes that block certification: their cells carry the replay command."""
NOT_RUN = "not-run"
"""The cell of a requirement an engine's run did not include."""
CELL = {
    "pass": "pass",
    "fail": "FAIL",
    "error": "ERROR",
    "not-claimed": "-",
    "xfail": "xfail",
    "xpass": "XPASS",
    NOT_RUN: ".",
}
"""How an outcome is drawn in the text matrix."""
VERDICT_ORDER = ("not-certified", "engine-unavailable", "partial", "certified")
"""Run verdicts, worst first: several engines' verdict is the worst one's."""


@dataclass(frozen=True)
class EngineRun:
    """One engine's report: a short ``label``, the report.json ``report`` and the
    ``directory`` its files (and counterexamples) are in, as the user named it."""

    label: str
    report: dict[str, Any]
    directory: str


def slug(text: str, taken: Sequence[str] = ()) -> str:
    """A short file-name-safe label for an engine command, distinct from *taken*."""
    words = re.findall(r"[A-Za-z0-9]+", text.replace("python:", ""))
    base = "-".join(w.lower() for w in words if w.lower() not in ("python", "m", "js"))[:40]
    base = base.strip("-") or "engine"
    label, n = base, 2
    while label in taken:
        label, n = f"{base}-{n}", n + 1
    return label


def worst(verdicts: Sequence[str]) -> str:
    """The worst of several run verdicts (``certified`` for none)."""
    return min(verdicts, key=VERDICT_ORDER.index, default="certified")


def _engine_row(run: EngineRun) -> dict[str, Any]:
    report = run.report
    summary = report["summary"]
    hello = report["engine"].get("hello") or {}
    about: dict[str, Any] = hello["engine"] if isinstance(hello.get("engine"), dict) else {}
    fault = report.get("engine_fault")
    return {
        "label": run.label,
        "command": report["engine"]["command"],
        "name": about.get("name"),
        "language": about.get("language"),
        "capabilities": sorted(hello.get("capabilities") or []),
        "report_dir": run.directory,
        "verdict": summary["verdict"],
        "headline": HEADLINE[summary["verdict"]],
        "complete": bool(report["scope"].get("complete")),
        "left_out": list(report["scope"].get("left_out", [])),
        "fault": None if not fault else f"{fault['kind']}: {fault['message']}",
        "counts": {
            "claimed": summary["total"] - summary["not_claimed"],
            "passed": summary["passed"],
            "failed": summary["failed"],
            "errors": summary["errors"],
            "not_claimed": summary["not_claimed"],
            "xfailed": summary["xfailed"],
            "xpassed": summary["xpassed"],
            "examples": summary["examples"],
        },
        "verdict_digest": report["verdict_digest"],
    }


def _cell(run: EngineRun, result: dict[str, Any] | None) -> dict[str, Any]:
    if result is None:
        return {"outcome": NOT_RUN, "examples": 0, "message": "", "counterexample": None}
    blocking = result["outcome"] in BLOCKING and result.get("counterexample")
    cell: dict[str, Any] = {
        "outcome": result["outcome"],
        "examples": result["examples"],
        "message": result["message"] if result["outcome"] != "pass" else "",
        "counterexample": result.get("counterexample") if blocking else None,
    }
    if blocking:
        cell["replay"] = replay_command(run.report, result, run.directory)
    if result.get("fault"):
        cell["fault"] = result["fault"]
    return cell


def build_matrix(runs: Sequence[EngineRun]) -> dict[str, Any]:
    """The comparison of *runs*: engines (summary each), and one row per requirement any
    of them ran, in id order, with a cell per engine (by label)."""
    by_engine = [{r["id"]: r for r in run.report["results"]} for run in runs]
    ids = sorted(set().union(*by_engine)) if by_engine else []
    rows = []
    for req_id in ids:
        first = next(results[req_id] for results in by_engine if req_id in results)
        cells = {
            run.label: _cell(run, results.get(req_id))
            for run, results in zip(runs, by_engine, strict=True)
        }
        outcomes = {cell["outcome"] for cell in cells.values()}
        rows.append(
            {
                "id": req_id,
                "title": first["title"],
                "family": first["family"],
                "agree": len(outcomes) == 1,
                "cells": cells,
            }
        )
    engines = [_engine_row(run) for run in runs]
    return {
        "$schema": COMPARE_SCHEMA_ID,
        "format": COMPARE_FORMAT,
        "verdict": worst([e["verdict"] for e in engines]),
        "engines": engines,
        "requirements": rows,
    }


def render_matrix(matrix: dict[str, Any]) -> str:
    """The matrix as text: a legend of engines, one line per requirement, one column per
    engine, then every blocking cell's message and replay command."""
    engines = matrix["engines"]
    width = max(len(f"[{len(engines)}]"), 6)
    lines = ["engines:"]
    for n, e in enumerate(engines, 1):
        counts = e["counts"]
        lines.append(
            f"  [{n}] {e['label']}: {e['headline']}, {counts['passed']} of {counts['claimed']} "
            f"claimed pass ({e['command']}; report {e['report_dir']}/)"
        )
        if e["fault"]:
            lines.append(f"      {e['fault'][:300]}")
    first = max([len(row["id"]) for row in matrix["requirements"]] + [len("requirement")])
    columns = " ".join(f"[{n}]".ljust(width) for n in range(1, 1 + len(engines)))
    lines += ["", f"{'requirement':<{first}} {columns}"]
    for row in matrix["requirements"]:
        marks = " ".join(CELL[row["cells"][e["label"]]["outcome"]].ljust(width) for e in engines)
        lines.append(f"{row['id']:<{first}} {marks}{'' if row['agree'] else '  *'}")
    legend = "pass, FAIL, ERROR, xfail, XPASS; - not claimed; . not run; * engines disagree"
    lines += ["", legend]
    failures = [
        (row, e["label"], row["cells"][e["label"]])
        for row in matrix["requirements"]
        for e in engines
        if row["cells"][e["label"]].get("replay")
    ]
    if failures:
        lines += ["", "counterexamples:"]
    for row, label, cell in failures:
        message = cell["message"][:200]
        lines.append(f"  {row['id']} on {label}: {cell['outcome'].upper()}: {message}")
        lines.append(f"    {cell['replay']}")
    lines += ["", f"verdict: {HEADLINE[matrix['verdict']]} (the worst engine's)"]
    return "\n".join(line.rstrip() for line in lines) + "\n"
