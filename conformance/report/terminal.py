"""The certificate's short form for a terminal: the verdict, the counts, the problems.

:func:`render_summary` is plain text (for logs and pipes); :func:`print_summary` draws
the same with rich on a terminal. The full Markdown certificate is in the report
directory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance.cases import readable
from conformance.report.certificate import (
    MARK,
    fault_lines,
    headline,
    replay_command,
    scope_lines,
)

STYLE = {
    "certified": "bold green",
    "partial": "bold yellow",
    "not-certified": "bold red",
    "engine-unavailable": "bold red",
}
COUNTS = (
    ("passed", "pass"),
    ("failed", "fail"),
    ("errors", "error"),
    ("xfailed", "xfail"),
    ("xpassed", "xpass"),
    ("not_claimed", "not claimed"),
    ("examples", "examples"),
)

if TYPE_CHECKING:
    from rich.console import Console


def problems(report: dict[str, Any], report_dir: str) -> list[tuple[str, str, str | None]]:
    """(label, message, replay command or None) for every result that blocks certification."""
    rows = []
    for r in report["results"]:
        if r["outcome"] in ("fail", "error", "xpass"):
            label = f"{MARK[r['outcome']].strip('*').upper()} {r['id']}"
            replay = replay_command(report, r, report_dir) if r["counterexample"] else None
            rows.append((label, readable(r["message"]), replay))
    for stale in report["stale_expected_failures"]:
        rows.append((f"STALE {stale}", "expected failure names no claimed requirement", None))
    return rows


def render_summary(report: dict[str, Any], report_dir: str) -> str:
    """The summary as plain text."""
    lines = [headline(report).replace("**", ""), ""]
    lines += scope_lines(report) + fault_lines(report)
    for label, message, replay in problems(report, report_dir):
        lines.append(f"{label}: {message}")
        if replay:
            lines.append(f"    replay: {replay}")
    return "\n".join(lines).rstrip("\n") + "\n"


def print_summary(report: dict[str, Any], report_dir: str, console: Console) -> None:
    """Draw the summary with rich: the verdict, a table of counts, then the problems."""
    from rich.markup import escape
    from rich.table import Table

    summary = report["summary"]
    console.print(escape(headline(report).replace("**", "")), style=STYLE[summary["verdict"]])
    for line in scope_lines(report) + fault_lines(report):
        console.print(escape(line))
    if report["results"]:
        table = Table(show_header=True, header_style="bold")
        for _, title in COUNTS:
            table.add_column(title, justify="right")
        table.add_row(*(str(summary[key]) for key, _ in COUNTS))
        console.print(table)
    for label, message, replay in problems(report, report_dir):
        console.print(f"[bold red]{escape(label)}[/]: {escape(message)}")
        if replay:
            console.print(f"    replay: {escape(replay)}", soft_wrap=True)
