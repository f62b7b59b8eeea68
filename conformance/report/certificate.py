"""The Markdown certificate: what a person reads to know whether an engine conforms."""

from __future__ import annotations

import shlex
from typing import Any

MARK = {
    "pass": "pass",
    "fail": "**FAIL**",
    "error": "**ERROR**",
    "not-claimed": "not claimed",
    "xfail": "expected failure",
    "xpass": "**UNEXPECTED PASS**",
}


HEADLINE = {
    "certified": "CERTIFIED",
    "partial": "PARTIAL",
    "not-certified": "NOT CERTIFIED",
    "engine-unavailable": "ENGINE UNAVAILABLE",
}


def engine_flags(options: dict[str, Any], engine: str) -> list[str]:
    """The options that name the engine and shape every exchange, as argv words."""
    if options.get("engine") is not None:
        words = ["--engine", options["engine"]]
    elif options.get("engine_python") is not None:
        words = ["--engine-python", options["engine_python"]]
    elif engine.startswith("python:"):
        words = ["--engine-python", engine.removeprefix("python:")]
    else:
        words = ["--engine", engine]
    if options.get("timeout") is not None:
        words += ["--timeout", f"{options['timeout']:g}"]
    if options.get("strict"):
        words.append("--strict")
    return words


def replay_command(
    report: dict[str, Any], result: dict[str, Any], report_dir: str, path: str | None = None
) -> str:
    """The shell-quoted command that replays a result's shrunk counterexample (or *path*)."""
    where = f"{report_dir}/{path or result['counterexample']}"
    flags = engine_flags(report.get("options", {}), report["engine"]["command"])
    return shlex.join(["python", "-m", "conformance", "replay", where, *flags])


def headline(report: dict[str, Any]) -> str:
    """The verdict and its counts in one sentence."""
    summary = report["summary"]
    verdict = HEADLINE[summary["verdict"]]
    if report.get("engine_fault"):
        fault = report["engine_fault"]
        return f"**{verdict}** ({fault['code']}, {fault['kind']}): {fault['message']}"
    claimed = summary["total"] - summary["not_claimed"]
    suite_size = summary["total"] + len(report["scope"].get("not_run", []))
    passing = summary["passed"] + summary["xpassed"]
    counts = f"{passing} of {claimed} claimed requirements pass"
    if summary["xpassed"]:
        counts += (
            f", {summary['xpassed']} of them listed as expected failures "
            "(remove them from the expected-failures file)"
        )
    if summary["xfailed"]:
        counts += f"; {summary['xfailed']} fail as expected"
    if summary["total"] == suite_size:
        scope = f"the engine claims {claimed} of the suite's {suite_size} requirements"
    else:
        scope = (
            f"this run checked {summary['total']} of the suite's {suite_size} requirements, "
            f"{claimed} of them claimed by the engine"
        )
    return f"**{verdict}**: {counts} ({scope}; {summary['examples']} generated examples)."


def scope_lines(report: dict[str, Any]) -> list[str]:
    """What a partial run left out, as Markdown list items."""
    left_out = report.get("scope", {}).get("left_out", [])
    if not left_out or report.get("engine_fault"):
        return []
    return ["Not a certification: this run left out", "", *(f"- {item}" for item in left_out), ""]


def fault_lines(report: dict[str, Any]) -> list[str]:
    """The engine-level fault: exit status, offending bytes, the engine's last output."""
    fault = report.get("engine_fault")
    if not fault:
        return []
    lines = []
    if fault.get("exit_status") is not None:
        lines.append(f"- exit status: {fault['exit_status']}")
    if fault.get("offending") is not None:
        lines.append(f"- offending bytes (base64): `{fault['offending']['$bytes']}`")
    for stream in ("stderr", "stdout"):
        tail = fault.get(f"{stream}_tail") or []
        lines += [f"- last lines on {stream}:" if tail else f"- nothing on {stream}"]
        lines += [f"      {line}" for line in tail]
    return [*lines, ""]


def _header(report: dict[str, Any]) -> list[str]:
    hello = report["engine"]["hello"]
    name = hello.get("engine", {}).get("name")
    version = hello.get("engine", {}).get("version", "")
    title = f"{name} {version}".strip() if name else f"`{report['engine']['command']}`"
    return [
        f"# Conformance certificate: {title}",
        "",
        headline(report),
        "",
        *scope_lines(report),
        *fault_lines(report),
        f"- suite: {report['suite']['name']} {report['suite']['version']}, "
        f"protocol {hello.get('protocol', '?')}",
        f"- engine: `{report['engine']['command']}`",
        f"- language: {hello.get('engine', {}).get('language', 'not stated')}; claimed: "
        f"{', '.join(hello.get('capabilities', [])) or 'nothing'}",
        f"- profile: {report['profile']['name']} "
        f"({'derandomized' if report['profile']['derandomize'] else 'randomized'})",
        f"- verdict digest: `{report['verdict_digest']}`",
        *_budget_line(report),
        "",
    ]


def _budget_line(report: dict[str, Any]) -> list[str]:
    budget = report.get("budget")
    if not budget:
        return []
    return [
        f"- budget: {budget['seconds']:g} s, spent {budget['spent_ms'] / 1000:.1f} s "
        f"(first looks {budget['tiers_ms'].get('first look', 0) / 1000:.1f} s); "
        + (
            "what it left out is listed above"
            if budget["cut"] or budget["not_run"]
            else "it cut nothing"
        )
    ]


def _table(report: dict[str, Any]) -> list[str]:
    rows = [
        "| requirement | family | verdict | examples | ms | title |",
        "|---|---|---|---:|---:|---|",
    ]
    for r in report["results"]:
        rows.append(
            f"| {r['id']} | {r['family']} | {MARK[r['outcome']]} | {r['examples']} "
            f"| {r['duration_ms']} | {r['title']} |"
        )
    return rows


def _problems(report: dict[str, Any], report_dir: str) -> list[str]:
    lines: list[str] = []
    for r in report["results"]:
        if r["outcome"] not in ("fail", "error", "xpass"):
            continue
        lines += ["", f"### {r['id']}: {r['title']}", "", f"{MARK[r['outcome']]}: {r['message']}"]
        if r["counterexample"]:
            lines += [
                "",
                "Replay the shrunk counterexample:",
                "",
                f"    {replay_command(report, r, report_dir)}",
            ]
        lines += _more_counterexamples(report, r, report_dir)
        if r["outcome"] == "xpass":
            lines += [
                "",
                f"Listed as an expected failure ({r['expected_failure']}) but passes: "
                "remove it from the expected-failures file.",
            ]
    for stale in report["stale_expected_failures"]:
        lines += [
            "",
            f"### stale expected failure: {stale}",
            "",
            "Not a requirement this engine claims: remove it from the file.",
        ]
    return (["", "## Problems"] + lines) if lines else []


def _more_counterexamples(
    report: dict[str, Any], result: dict[str, Any], report_dir: str
) -> list[str]:
    """The distinct counterexamples after the first, each with the check it broke."""
    lines: list[str] = []
    for case in result.get("counterexamples", [])[1:]:
        lines += [
            "",
            f"Another distinct failure ({case['check']}): {case['message']}",
            "",
            f"    {replay_command(report, result, report_dir, case['path'])}",
        ]
    return lines


def _root_causes(report: dict[str, Any]) -> list[str]:
    """Engine errors shared by several failing requirements; each keeps its own verdict above."""
    lines: list[str] = []
    for group in report.get("root_causes", []):
        ids = ", ".join(group["requirements"])
        lines.append(f"- {group['cause']}: {len(group['requirements'])} requirements ({ids})")
    return ["", "## Root causes", "", *lines] if lines else []


def coverage_line(coverage: dict[str, dict[str, int]]) -> str:
    """``gloss-less lemmas 16/16, templates 13/13`` for one requirement."""
    return ", ".join(f"{name} {c['exercised']}/{c['total']}" for name, c in coverage.items())


def _coverage(report: dict[str, Any]) -> list[str]:
    """Which equivalence classes each requirement's coverage sample exercised."""
    rows = [
        f"| {r['id']} | {coverage_line(r['coverage'])} |"
        for r in report["results"]
        if r.get("coverage")
    ]
    if not rows:
        return []
    return ["", "## Coverage", "", "| requirement | classes exercised |", "|---|---|", *rows]


def _figures(report: dict[str, Any]) -> list[str]:
    lines = [
        f"- {r['id']}: " + ", ".join(f"{k} {v}" for k, v in sorted(r["details"].items()))
        for r in report["results"]
        if r.get("details")
    ]
    return (["", "## Figures", ""] + lines) if lines else []


def render_certificate(report: dict[str, Any], report_dir: str = "out") -> str:
    """The certificate as Markdown."""
    table = ["## Requirements", "", *_table(report)] if report["results"] else []
    table += _figures(report) + _coverage(report) + _root_causes(report)
    lines = _header(report) + table + _problems(report, report_dir)
    return "\n".join(lines) + "\n"
