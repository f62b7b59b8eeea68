"""Build report.json from outcomes: verdicts, expected failures, summary and digests."""

from __future__ import annotations

from typing import Any

from conformance import SUITE_NAME, SUITE_VERSION
from conformance.canonical import digest
from conformance.model import Requirement
from conformance.report.expected import ExpectedFailures
from conformance.report.plain import to_plain
from conformance.runner import Outcome, Profile

REPORT_FORMAT = "core-conformance-report/1"
BAD_OUTCOMES = ("fail", "error", "xpass")
VERDICTS = ("certified", "not-certified", "partial", "engine-unavailable")
"""The run's verdict: ``certified`` only for a complete, clean run (see docs/conformance.md)."""
COMPLETE = {"complete": True, "left_out": [], "not_run": []}


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
        **({"details": outcome.details} if outcome.details else {}),
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


def root_causes(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
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


def stale_entries(results: list[dict[str, Any]], expected: ExpectedFailures) -> list[str]:
    """Expected failures naming no requirement, or one the engine does not claim."""
    outcomes = {r["id"]: r["outcome"] for r in results}
    return sorted(i for i in expected.reasons if outcomes.get(i, "not-claimed") == "not-claimed")


def with_unchecked(scope: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    """*scope*, incomplete when a requirement could not be checked here (its result's
    ``details.not_checkable`` says why): such a run is PARTIAL, never certified."""
    unchecked = sorted(r["id"] for r in results if "not_checkable" in (r.get("details") or {}))
    if not unchecked:
        return scope
    said = f"{len(unchecked)} requirements could not be checked here: {', '.join(unchecked)}"
    return {**scope, "complete": False, "left_out": [*scope["left_out"], said]}


def run_verdict(clean: bool, scope: dict[str, Any], engine_fault: dict[str, Any] | None) -> str:
    """One of VERDICTS: a fault or a failure outranks a partial run."""
    if engine_fault is not None:
        return "engine-unavailable"
    if not clean:
        return "not-certified"
    return "certified" if scope["complete"] else "partial"


def summarize(
    results: list[dict[str, Any]],
    stale: list[str],
    scope: dict[str, Any] = COMPLETE,
    engine_fault: dict[str, Any] | None = None,
) -> dict[str, Any]:
    count = {
        name: sum(r["outcome"] == name for r in results)
        for name in ("pass", "fail", "error", "not-claimed", "xfail", "xpass")
    }
    clean = not stale and not any(count[name] for name in BAD_OUTCOMES)
    verdict = run_verdict(clean, scope, engine_fault)
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
        "verdict": verdict,
        "certified": verdict == "certified",
    }


def build_report(
    pairs: list[tuple[Requirement, Outcome]],
    *,
    hello: dict[str, Any],
    engine: str,
    profile: Profile,
    expected: ExpectedFailures,
    scope: dict[str, Any] = COMPLETE,
    engine_fault: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The full report; ``digest`` covers everything else, ``verdict_digest`` only verdicts.

    *scope* says whether the run covered the whole suite at the ci floor (and what it
    left out); *engine_fault* is the engine-level fault that ended the run, if any;
    *options* are the command-line options that shaped it (for replay commands).
    """
    results = [_result(req, outcome, expected) for req, outcome in pairs]
    scope = with_unchecked(scope, results)
    stale = stale_entries(results, expected)
    report = {
        "format": REPORT_FORMAT,
        "suite": {"name": SUITE_NAME, "version": SUITE_VERSION},
        "engine": {"command": engine, "hello": hello},
        "options": options or {},
        "scope": scope,
        "engine_fault": engine_fault,
        "profile": {
            "name": profile.name,
            "derandomize": profile.derandomize,
            "max_examples": profile.max_examples,
        },
        "results": results,
        "stale_expected_failures": stale,
        "root_causes": root_causes(results),
        "summary": summarize(results, stale, scope, engine_fault),
        "verdict_digest": digest([[r["id"], r["outcome"], r["examples"]] for r in results]),
    }
    report = to_plain(report)
    return {**report, "digest": digest(report)}
