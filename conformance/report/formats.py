"""The ``--format json`` documents of ``list``, ``certify`` and ``diff`` stdout.

Each document has a ``format`` naming its JSON Schema (shipped in
``conformance/report/schemas``, each with an ``$id``): ``core-conformance-list/1``,
``core-conformance-certify/1`` and ``core-conformance-diff/1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.model import Requirement
from conformance.report.certificate import headline, replay_command, scope_lines

LIST_FORMAT = "core-conformance-list/1"
CERTIFY_FORMAT = "core-conformance-certify/1"
DIFF_FORMAT = "core-conformance-diff/1"


def list_document(registry: Mapping[str, Requirement], suite_version: str) -> dict[str, Any]:
    """Every requirement: id, family, capabilities, title."""
    return {
        "format": LIST_FORMAT,
        "suite_version": suite_version,
        "requirements": [
            {
                "id": req.id,
                "family": req.family,
                "capabilities": list(req.capabilities),
                "title": req.title,
            }
            for req in (registry[i] for i in sorted(registry))
        ],
    }


def certify_document(report: dict[str, Any], report_dir: str, exit_status: int) -> dict[str, Any]:
    """What ``certify`` prints: the verdict, its counts, why it is not CERTIFIED, where
    the report is, and a replay command per problem."""
    rows: list[dict[str, Any]] = [
        {
            "kind": r["outcome"],
            "id": r["id"],
            "message": r["message"][:500],
            "replay": replay_command(report, r, report_dir) if r["counterexample"] else None,
        }
        for r in report["results"]
        if r["outcome"] in ("fail", "error", "xpass")
    ]
    rows += [
        {"kind": "stale", "id": i, "message": "names no claimed requirement", "replay": None}
        for i in report["stale_expected_failures"]
    ]
    return {
        "format": CERTIFY_FORMAT,
        "verdict": report["summary"]["verdict"],
        "headline": headline(report).replace("**", ""),
        "exit_status": exit_status,
        "summary": report["summary"],
        "left_out": [line[2:] for line in scope_lines(report) if line.startswith("- ")],
        "engine_fault": report.get("engine_fault"),
        "problems": rows,
        "verdict_digest": report["verdict_digest"],
        "report_dir": report_dir,
    }


def diff_document(
    rows: list[dict[str, Any]], before: str, after: str, counts: dict[str, int], regression: bool
) -> dict[str, Any]:
    """What ``diff`` prints: a row per requirement id, the counts, and whether it regressed."""
    return {
        "format": DIFF_FORMAT,
        "before": before,
        "after": after,
        "rows": rows,
        "counts": counts,
        "regression": regression,
    }
