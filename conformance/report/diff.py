"""Compare two reports by requirement id: what was fixed, what regressed, what moved.

Only requirements both runs selected are compared. An id one run checked and the
other did not select (it is in that run's ``scope.not_run``) is ``unselected``: not
compared, never a regression. An id one report has and the other's suite does not
know at all is ``added`` or ``removed``.
"""

from __future__ import annotations

from typing import Any

GOOD = ("pass", "xfail", "not-claimed")
CHANGES = ("fixed", "regressed", "changed", "added", "removed", "unselected", "same")
BAD_CHANGES = ("regressed", "removed")


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


def _unselected(report: dict[str, Any]) -> set[str]:
    return set(report.get("scope", {}).get("not_run", []))


def diff_reports(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per requirement id in either report, sorted by id."""
    first = {r["id"]: r for r in a["results"]}
    second = {r["id"]: r for r in b["results"]}
    skipped = _unselected(a) | _unselected(b)
    rows = []
    for req_id in sorted(set(first) | set(second)):
        before = first.get(req_id, {}).get("outcome")
        after = second.get(req_id, {}).get("outcome")
        one_sided = before is None or after is None
        change = "unselected" if one_sided and req_id in skipped else _change(before, after)
        rows.append({"id": req_id, "before": before, "after": after, "change": change})
    return rows


def counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    """How many rows of each change, every change named."""
    return {c: sum(r["change"] == c for r in rows) for c in CHANGES}


def regressed(rows: list[dict[str, Any]]) -> bool:
    """Whether the later report is worse: a requirement regressed or disappeared."""
    return any(r["change"] in BAD_CHANGES for r in rows)


def render_diff(rows: list[dict[str, Any]], *, show_same: bool = False) -> str:
    hidden = ("same", "unselected")
    lines = [
        f"{row['change']:<10} {row['id']:<18} {row['before'] or '-'} -> {row['after'] or '-'}"
        for row in rows
        if show_same or row["change"] not in hidden
    ]
    found = counts(rows)
    summary = ", ".join(f"{found[c]} {c}" for c in CHANGES if c != "unselected")
    if found["unselected"]:
        summary += f"; {found['unselected']} not compared (selected by only one run)"
    return "\n".join([*lines, summary]) + "\n"
