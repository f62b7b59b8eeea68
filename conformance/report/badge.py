"""The shields.io endpoint badge: ``badge.json`` beside report.json.

Serve the file and point ``https://img.shields.io/endpoint?url=...`` at it; the
format is https://shields.io/badges/endpoint-badge (``schemaVersion`` 1).
"""

from __future__ import annotations

from typing import Any

COLOR = {
    "certified": "brightgreen",
    "partial": "yellow",
    "not-certified": "red",
    "engine-unavailable": "lightgrey",
}


def badge_message(report: dict[str, Any]) -> str:
    summary = report["summary"]
    claimed = summary["total"] - summary["not_claimed"]
    verdict = summary["verdict"]
    if verdict == "engine-unavailable":
        return "engine unavailable"
    counts = f"{summary['passed']}/{claimed}"
    return {"certified": f"certified {counts}", "partial": f"partial {counts}"}.get(
        verdict, f"not certified {counts}"
    )


def render_badge(report: dict[str, Any]) -> dict[str, Any]:
    """The endpoint badge JSON object for *report*."""
    return {
        "schemaVersion": 1,
        "label": "CORE conformance",
        "message": badge_message(report),
        "color": COLOR[report["summary"]["verdict"]],
    }
