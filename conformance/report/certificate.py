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


def replay_command(report: dict[str, Any], result: dict[str, Any], report_dir: str) -> str:
    """The one command that replays a result's shrunk counterexample."""
    engine = report["engine"]["command"]
    flag = (
        f'--engine-python "{engine[7:]}"'
        if engine.startswith("python:")
        else f'--engine "{engine}"'
    )
    return f"python -m conformance replay {report_dir}/{result['counterexample']} {flag}"


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


def _figures(report: dict[str, Any]) -> list[str]:
    lines = [
        f"- {r['id']}: " + ", ".join(f"{k} {v}" for k, v in sorted(r["details"].items()))
        for r in report["results"]
        if r.get("details")
    ]
    return (["", "## Figures", ""] + lines) if lines else []


def render_certificate(report: dict[str, Any], report_dir: str = "out") -> str:
    """The certificate as Markdown."""
    lines = (
        _header(report)
        + ["## Requirements", ""]
        + _table(report)
        + _figures(report)
        + _problems(report, report_dir)
    )
    return "\n".join(lines) + "\n"
