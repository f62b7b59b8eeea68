"""Build report.json from outcomes: verdicts, expected failures, summary and digests."""

from __future__ import annotations

from typing import Any

from conformance import SUITE_VERSION
from conformance.canonical import digest
from conformance.report.expected import ExpectedFailures
from conformance.requirements.registry import Requirement
from conformance.runner import Outcome, Profile

REPORT_FORMAT = "core-conformance-report/1"
BAD_OUTCOMES = ("fail", "error", "xpass")


def final_outcome(outcome: Outcome, expected: ExpectedFailures) -> str:
    """pass, fail, error, not-claimed, or xfail / xpass for an expected failure."""
    if outcome.id not in expected.reasons or outcome.verdict == "not-claimed":
        return outcome.verdict
    return "xpass" if outcome.verdict == "pass" else "xfail"


def _result(req: Requirement, outcome: Outcome, expected: ExpectedFailures) -> dict[str, Any]:
    failed = outcome.counterexample is not None
    return {
        "id": req.id,
        "title": req.title,
        "family": req.family,
        "seed": req.seed,
        "capabilities": list(req.capabilities),
        "generated": req.generated,
        "verdict": outcome.verdict,
        "outcome": final_outcome(outcome, expected),
        "expected_failure": expected.reasons.get(req.id),
        "examples": outcome.examples,
        "duration_ms": outcome.duration_ms,
        "message": outcome.message,
        "fault": outcome.fault,
        "counterexample": f"counterexamples/{req.id}.json" if failed else None,
        **_discrimination(req, outcome),
    }


def counterexample_path(req_id: str, index: int) -> str:
    """Where the *index*-th (0-based) distinct counterexample of a requirement is written."""
    return (
        f"counterexamples/{req_id}.json"
        if index == 0
        else f"counterexamples/{req_id}.{index + 1}.json"
    )


def _discrimination(req: Requirement, outcome: Outcome) -> dict[str, Any]:
    """Each distinct counterexample (with the check it broke), the root cause, the coverage."""
    return {
        "counterexamples": [
            {
                "check": case.get("check"),
                "message": case["message"],
                "path": counterexample_path(req.id, i),
            }
            for i, case in enumerate(outcome.counterexamples)
        ],
        "cause": outcome.cause,
        "coverage": outcome.coverage,
    }


def root_causes(results: list[dict]) -> list[dict[str, Any]]:
    """Engine errors shared by two or more failing requirements, each with the ids it fails."""
    groups: dict[str, list[str]] = {}
    for r in results:
        if r["outcome"] in BAD_OUTCOMES and r.get("cause"):
            groups.setdefault(r["cause"], []).append(r["id"])
    return [
        {"cause": cause, "requirements": sorted(ids)}
        for cause, ids in sorted(groups.items())
        if len(ids) > 1
    ]


def stale_entries(results: list[dict], expected: ExpectedFailures) -> list[str]:
    """Expected failures naming no requirement, or one the engine does not claim."""
    outcomes = {r["id"]: r["outcome"] for r in results}
    return sorted(i for i in expected.reasons if outcomes.get(i, "not-claimed") == "not-claimed")


def summarize(results: list[dict], stale: list[str]) -> dict[str, Any]:
    count = {
        name: sum(r["outcome"] == name for r in results)
        for name in ("pass", "fail", "error", "not-claimed", "xfail", "xpass")
    }
    certified = not stale and not any(count[name] for name in BAD_OUTCOMES)
    return {
        "total": len(results),
        "passed": count["pass"],
        "failed": count["fail"],
        "errors": count["error"],
        "not_claimed": count["not-claimed"],
        "xfailed": count["xfail"],
        "xpassed": count["xpass"],
        "stale_expected_failures": len(stale),
        "examples": sum(r["examples"] for r in results),
        "certified": certified,
    }


def build_report(
    pairs: list[tuple[Requirement, Outcome]],
    *,
    hello: dict[str, Any],
    engine: str,
    profile: Profile,
    expected: ExpectedFailures,
) -> dict[str, Any]:
    """The full report; ``digest`` covers everything else, ``verdict_digest`` only verdicts."""
    results = [_result(req, outcome, expected) for req, outcome in pairs]
    stale = stale_entries(results, expected)
    report = {
        "format": REPORT_FORMAT,
        "suite": {"name": "core-conformance", "version": SUITE_VERSION},
        "engine": {"command": engine, "hello": hello},
        "profile": {
            "name": profile.name,
            "derandomize": profile.derandomize,
            "max_examples": profile.max_examples,
        },
        "results": results,
        "stale_expected_failures": stale,
        "root_causes": root_causes(results),
        "summary": summarize(results, stale),
        "verdict_digest": digest([[r["id"], r["outcome"], r["examples"]] for r in results]),
    }
    return {**report, "digest": digest(report)}
