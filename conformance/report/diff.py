"""Compare two reports by requirement id: what was fixed, what regressed, what moved."""

from __future__ import annotations

from typing import Any

GOOD = ("pass", "xfail", "not-claimed")


def _change(before: str | None, after: str | None) -> str:
    if before is None:
        return "added"
    if after is None:
        return "removed"
    if before == after:
        return "same"
    if before not in GOOD and after in GOOD:
        return "fixed"
    if before in GOOD and after not in GOOD:
        return "regressed"
    return "changed"


def diff_reports(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per requirement id in either report, sorted by id."""
    first = {r["id"]: r for r in a["results"]}
    second = {r["id"]: r for r in b["results"]}
    rows = []
    for req_id in sorted(set(first) | set(second)):
        before = first.get(req_id, {}).get("outcome")
        after = second.get(req_id, {}).get("outcome")
        rows.append(
            {"id": req_id, "before": before, "after": after, "change": _change(before, after)}
        )
    return rows


def render_diff(rows: list[dict[str, Any]], *, show_same: bool = False) -> str:
    lines = [
        f"{row['change']:<10} {row['id']:<18} {row['before'] or '-'} -> {row['after'] or '-'}"
        for row in rows
        if show_same or row["change"] != "same"
    ]
    counts = {
        c: sum(r["change"] == c for r in rows)
        for c in ("fixed", "regressed", "changed", "added", "removed", "same")
    }
    summary = ", ".join(f"{n} {c}" for c, n in counts.items())
    return "\n".join([*lines, summary]) + "\n"
