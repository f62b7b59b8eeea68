"""Budgeted certification: calibrate the engine, then plan examples per requirement to fit.

Calibration runs every requirement once with one example (its first, simplest
sample: a fixed check, or Hypothesis's minimal example) and times it. The plan then
shares the budget out fairly in time: requirements cheapest per example first, each
taking at most its fair share of what is left and at most what the profile asks.
A requirement planned at one example keeps its calibration outcome; the others run
again with their planned count. The report says what each requirement got, and the
run is PARTIAL where one got fewer examples than the profile asks.
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.certify import engine_unavailable, greet, scoped_report
from conformance.engines import EngineClient, EngineFault
from conformance.merge import with_digest
from conformance.report.expected import ExpectedFailures
from conformance.requirements import Requirement, SuiteContext
from conformance.runner import Outcome, Profile, run_requirement

_BUDGET = re.compile(r"([0-9]+(?:\.[0-9]+)?)([smh]?)")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600}


class BudgetError(ValueError):
    """A budget that is not a positive duration such as ``90s``, ``10m`` or ``1.5h``."""


def parse_budget(text: str) -> float:
    """Seconds in ``90``, ``90s``, ``10m`` or ``1.5h``."""
    match = _BUDGET.fullmatch(text.strip())
    if not match or float(match[1]) <= 0:
        raise BudgetError(f"--budget: {text!r} is not a positive duration like 90s, 10m or 1h")
    return float(match[1]) * _UNIT[match[2]]


def asked(req: Requirement, profile: Profile) -> int:
    """Examples *profile* asks of *req*."""
    if req.strategy is None:
        return 1
    if req.scale is not None:
        return req.scale.examples_for(profile)
    return req.max_examples or profile.max_examples


def profile_for(req: Requirement, profile: Profile, examples: int) -> tuple[Profile, int]:
    """The (profile, max_examples) that runs *req* with *examples* examples."""
    if req.scale is not None:
        units: dict[str, Any] = {req.scale.knob: examples * req.scale.per_example}
        return dataclasses.replace(profile, **units), examples
    return profile, examples


@dataclass(frozen=True)
class Probe:
    """One requirement's calibration: its outcome on one example, and what that cost."""

    outcome: Outcome
    seconds: float
    ops: int


def calibrate(
    engine: EngineClient, requirements: list[Requirement], ctx: SuiteContext, profile: Profile
) -> dict[str, Probe]:
    """Run each requirement with one example; return id -> Probe."""
    probes = {}
    for req in requirements:
        req_profile, limit = profile_for(req, profile, 1)
        started = time.perf_counter()
        outcome = run_requirement(req, engine, ctx, req_profile, limit)
        seconds = time.perf_counter() - started
        probes[req.id] = Probe(outcome, seconds, len(engine.transcript.exchanges))
    return probes


@dataclass
class Planner:
    """Fair shares of the time left, corrected by how far runs overshoot calibration.

    Later examples of a requirement are larger than its first, simplest one, so each
    finished run updates ``inflation``: seconds spent over seconds calibration predicted.
    """

    remaining_s: float
    spent_s: float = 0.0
    predicted_s: float = 0.0

    @property
    def inflation(self) -> float:
        return max(1.0, self.spent_s / self.predicted_s) if self.predicted_s else 1.0

    def examples(self, left: int, seconds_per_example: float, wanted: int) -> int:
        """Examples for the next of *left* requirements: 1 (keep calibration) or 2..wanted."""
        share = self.remaining_s / left
        cost = max(seconds_per_example * self.inflation, 1e-6)
        count = min(wanted, math.floor(share / cost))
        return count if count >= 2 else 1

    def record(self, seconds: float, seconds_per_example: float, count: int) -> None:
        self.remaining_s -= seconds
        self.spent_s += seconds
        self.predicted_s += seconds_per_example * count


def run_order(seconds_per_example: dict[str, float]) -> list[str]:
    """Cheapest per example first, ties by id."""
    return sorted(seconds_per_example, key=lambda i: (seconds_per_example[i], i))


def plan_examples(
    budget_s: float, seconds_per_example: dict[str, float], wanted: dict[str, int]
) -> dict[str, int]:
    """The examples each requirement gets if every run costs what calibration predicts."""
    planner, plan = Planner(budget_s), {}
    order = run_order(seconds_per_example)
    for position, req_id in enumerate(order):
        count = planner.examples(len(order) - position, seconds_per_example[req_id], wanted[req_id])
        if count > 1:
            planner.record(count * seconds_per_example[req_id], seconds_per_example[req_id], count)
        plan[req_id] = count
    return plan


def certify_within(
    engine: EngineClient,
    requirements: list[Requirement],
    profile: Profile,
    budget_s: float,
    *,
    expected: ExpectedFailures,
    on_result: Callable[[Requirement, Outcome], None] = lambda req, outcome: None,
    options: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[tuple[Requirement, Outcome]]]:
    """Certify *requirements* in about *budget_s* seconds after a calibration pass."""
    try:
        hello, ctx = greet(engine)
    except EngineFault as fault:
        report = engine_unavailable(
            engine, fault, requirements, profile=profile, expected=expected, options=options
        )
        return report, []
    started = time.perf_counter()
    probes = calibrate(engine, requirements, ctx, profile)
    calibration_s = time.perf_counter() - started
    outcomes = {req_id: probe.outcome for req_id, probe in probes.items()}
    planned = _run_planned(engine, ctx, requirements, profile, budget_s, probes, outcomes)
    pairs = [(req, outcomes[req.id]) for req in requirements]
    for req, outcome in pairs:
        on_result(req, outcome)
    report = scoped_report(
        engine, hello, requirements, pairs, profile=profile, expected=expected, options=options
    )
    return (
        annotate(report, requirements, profile, budget_s, probes, planned, calibration_s, ctx),
        pairs,
    )


def _run_planned(
    engine: EngineClient,
    ctx: SuiteContext,
    requirements: list[Requirement],
    profile: Profile,
    budget_s: float,
    probes: dict[str, Probe],
    outcomes: dict[str, Outcome],
) -> dict[str, int]:
    """Rerun requirements whose share of the budget pays for 2+ examples; id -> planned."""
    by_id = {r.id: r for r in requirements}
    wanted = {
        r.id: asked(r, profile)
        for r in requirements
        if r.generated and probes[r.id].outcome.verdict == "pass"
    }
    cost = {i: probes[i].seconds for i in wanted}
    planner, planned = Planner(budget_s), {}
    order = run_order(cost)
    for position, req_id in enumerate(order):
        planned[req_id] = planner.examples(len(order) - position, cost[req_id], wanted[req_id])
        if planned[req_id] == 1:
            continue
        started = time.perf_counter()
        req = by_id[req_id]
        outcomes[req_id] = run_requirement(
            req, engine, ctx, *profile_for(req, profile, planned[req_id])
        )
        planner.record(time.perf_counter() - started, cost[req_id], planned[req_id])
    return planned


def coverage_cases(req: Requirement, ctx: SuiteContext) -> int:
    """How many coverage-plan cases *req* runs before its planned examples (always all)."""
    return len(req.cover(ctx).cases) if req.cover is not None else 0


def annotate(
    report: dict[str, Any],
    requirements: list[Requirement],
    profile: Profile,
    budget_s: float,
    probes: dict[str, Probe],
    planned: dict[str, int],
    calibration_s: float,
    ctx: SuiteContext,
) -> dict[str, Any]:
    """*report* with its ``budget`` block; PARTIAL (not certified) where the plan gave a
    passing requirement fewer examples than the profile asks (a strategy that runs out
    of distinct examples sooner does so in a full run too). A requirement's coverage
    cases always run, before its planned examples, and are counted apart."""
    examples = {r["id"]: r["examples"] for r in report["results"]}
    verdicts = {r["id"]: r["verdict"] for r in report["results"]}
    rows = [
        {
            "id": req.id,
            "asked": asked(req, profile),
            "planned": planned.get(req.id, 1),
            "coverage_cases": coverage_cases(req, ctx),
            "examples": examples[req.id],
            "calibration_ms": int(probes[req.id].seconds * 1000),
        }
        for req in requirements
    ]
    partial = [
        row["id"] for row in rows if verdicts[row["id"]] == "pass" and row["planned"] < row["asked"]
    ]
    ops = sum(p.ops for p in probes.values())
    seconds = sum(p.seconds for p in probes.values())
    summary = dict(report["summary"])
    summary["partial"] = bool(partial)
    if partial and summary.get("verdict") == "certified":
        summary["verdict"] = "partial"
    summary["certified"] = summary["certified"] and not partial
    budget = {
        "seconds": budget_s,
        "calibration_ms": int(calibration_s * 1000),
        "cost_per_op_ms": round(1000 * seconds / ops, 3) if ops else None,
        "requirements": rows,
        "partial": partial,
    }
    return with_digest({**report, "summary": summary, "budget": budget})
