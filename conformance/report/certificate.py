"""The Markdown certificate: what a person reads to know whether an engine conforms."""

from __future__ import annotations

from typing import Any

MARK = {
    "pass": "pass",
    "fail": "**FAIL**",
    "error": "**ERROR**",
    "not-claimed": "not claimed",
    "xfail": "expected failure",
    "xpass": "**UNEXPECTED PASS**",
}


def engine_flag(report: dict[str, Any]) -> str:
    """The command-line flag that names the certified engine again."""
    engine = report["engine"]["command"]
    if engine.startswith("python:"):
        return f'--engine-python "{engine[7:]}"'
    return f'--engine "{engine}"'


def replay_command(report: dict[str, Any], result: dict[str, Any], report_dir: str) -> str:
    """The one command that replays a result's shrunk counterexample."""
    path = f"{report_dir}/{result['counterexample']}"
    return f"python -m conformance replay {path} {engine_flag(report)}"


def _header(report: dict[str, Any]) -> list[str]:
    hello, summary = report["engine"]["hello"], report["summary"]
    name = hello.get("engine", {}).get("name", "engine")
    version = hello.get("engine", {}).get("version", "?")
    verdict = "CERTIFIED" if summary["certified"] else "NOT CERTIFIED"
    claimed = summary["total"] - summary["not_claimed"]
    return [
        f"# Conformance certificate: {name} {version}",
        "",
        f"**{verdict}**: {summary['passed']} of {claimed} claimed requirements pass "
        f"({summary['total']} in the suite, {summary['not_claimed']} not claimed, "
        f"{summary['xfailed']} expected failures, {summary['examples']} generated examples).",
        "",
        f"- suite: {report['suite']['name']} {report['suite']['version']}, "
        f"protocol {hello.get('protocol', '?')}",
        f"- engine: `{report['engine']['command']}`",
        f"- profile: {report['profile']['name']} "
        f"({'derandomized' if report['profile']['derandomize'] else 'randomized'})",
        f"- verdict digest: `{report['verdict_digest']}`",
        "",
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
    flag = engine_flag(report)
    lines: list[str] = []
    for case in result.get("counterexamples", [])[1:]:
        lines += [
            "",
            f"Another distinct failure ({case['check']}): {case['message']}",
            "",
            f"    python -m conformance replay {report_dir}/{case['path']} {flag}",
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


def render_certificate(report: dict[str, Any], report_dir: str = "out") -> str:
    """The certificate as Markdown."""
    lines = (
        _header(report)
        + ["## Requirements", ""]
        + _table(report)
        + _coverage(report)
        + _root_causes(report)
        + _problems(report, report_dir)
    )
    return "\n".join(lines) + "\n"
