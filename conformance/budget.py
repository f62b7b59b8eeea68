"""Budgeted certification: every requirement checked within a wall-clock budget.

``--budget T`` is a promise about the clock: no request is sent after T (counted from
*started*; the engine's start-up aside), so the run ends within T plus the one request
running then; work that sends no request through the engine client is stopped at
T plus :data:`BACKSTOP_SHARE` of it (:mod:`conformance.backstop`). Calibration is a few
requests per op (:mod:`conformance.budget_rates`), never a coverage plan. The work is
cut into steps, handed out by expected defect-finding per second of engine time
(:mod:`conformance.budget_plan`, with the history of :mod:`conformance.case_history`);
each step runs through :func:`conformance.runner.run_requirement` within its limits, and
a requirement's steps fold into one outcome, streamed once it is final. Whatever the
deadline left unrun is cut: the report's ``scope.left_out`` names every requirement not
run or cut short with what it ran, and the run is at best PARTIAL.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance import case_history as history
from conformance.backstop import backstop
from conformance.budget_plan import TIER_NAMES, Planner, Rates, Step, Track, track_for
from conformance.budget_rates import calibrate
from conformance.case_history import Cost
from conformance.certify import describe_scope, engine_unavailable, greet
from conformance.coverage import Case, Plan
from conformance.engines import EngineClient, EngineFault
from conformance.merge import with_digest
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.requirements import Requirement, SuiteContext
from conformance.runner import Limits, Outcome, Profile, run_requirement
from conformance.stopping import Deadline, DeadlineReached

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


GRACE = 2.0
"""A step stops mid-case once it has taken this many times its estimate (or its share)."""
FLOOR_SHARE = 0.02
"""Of the budget, what a step may overrun its estimate by in any case."""
BACKSTOP_SHARE = 0.05
"""Past the budget's end, after this part of the budget, work still running is stopped
wherever it is (:mod:`conformance.backstop`), not only before its next request."""
SHRINK_SHARE = 0.02
"""Of the budget, what shrinking one failing coverage case may take."""


def examples_asked(req: Requirement, profile: Profile) -> int:
    """Generated examples (or the one fixed check) *req* asks beyond its coverage cases."""
    if req.strategy is None:
        return 1 if req.cover is None else 0
    return asked(req, profile)


SCALED_EXAMPLE_MS = 250.0
"""About what one example of a unit-scaled requirement costs (eight SIGKILLs of the kill
soak): the estimate when the history has none."""


def example_prior(req: Requirement, profile: Profile) -> Cost | None:
    """What one example of *req* costs by its own statement (a unit scale, or
    ``expected_ms`` for its whole run), for requirements the history cannot measure."""
    if req.scale is not None:
        return Cost(chat=0.0, other=0.0, ms=SCALED_EXAMPLE_MS)
    if req.expected_ms:
        return Cost(chat=0.0, other=0.0, ms=req.expected_ms / max(1, asked(req, profile)))
    return None


@dataclass
class Look:
    """What one requirement's steps gave so far."""

    outcome: Outcome
    seconds: float = 0.0
    cases: int = 0
    """Coverage cases run."""
    generated: int = 0
    """Generated examples (or the fixed check) run by the latest step that ran any."""


@dataclass
class BudgetRun:
    """One budgeted run on one engine: steps handed out by a :class:`Planner` against one
    deadline; each requirement's outcome is streamed once, when final."""

    engine: EngineClient
    ctx: SuiteContext
    profile: Profile
    budget_s: float
    on_result: Callable[[Requirement, Outcome], None]
    looks: dict[str, Look] = dataclasses.field(default_factory=dict)
    streamed: set[str] = dataclasses.field(default_factory=set)
    started: float = dataclasses.field(default_factory=time.monotonic)
    tiers_s: dict[str, float] = dataclasses.field(default_factory=dict)
    rates: Rates | None = None
    calibration_s: float = 0.0
    found_ms: dict[str, int] = dataclasses.field(default_factory=dict)
    """When (ms into the run) each failing requirement's failing step ended."""

    def run(self, requirements: list[Requirement]) -> None:
        """Calibrate, then run steps until none is left or the budget ends; every
        requirement that ran is streamed (on the way out too when interrupted)."""
        by_id = {req.id: req for req in requirements}
        deadline = Deadline(self.started + self.budget_s)
        plans = {req.id: _plan(req, self.ctx) for req in requirements}
        tracks = {
            req.id: track_for(
                req.id,
                cases,
                history.load(),
                examples_asked(req, self.profile),
                example_prior(req, self.profile),
            )
            for req, cases in zip(requirements, _cases(plans, requirements), strict=True)
        }
        stepping = False
        try:
            end = self.started + self.budget_s * (1 + BACKSTOP_SHARE)
            with backstop(end, lambda: stepping):
                began = time.monotonic()
                self.rates = calibrate(self.engine, self.ctx)
                self.calibration_s = time.monotonic() - began
                planner = Planner(list(tracks.values()), self.rates)
                while not deadline.passed():
                    step = planner.next_step(deadline.left())
                    if step is None:
                        break
                    req = by_id[step.track.req_id]
                    stepping = True
                    try:
                        seconds, outcome = self.run_step(
                            req, step, planner, deadline, plans[req.id]
                        )
                    except DeadlineReached:
                        break
                    finally:
                        stepping = False
                    if outcome.verdict == "pass":  # a failure's time is mostly its shrinking
                        planner.ran(step, seconds)
                    tier = TIER_NAMES[step.tier]
                    self.tiers_s[tier] = self.tiers_s.get(tier, 0.0) + seconds
                    if outcome.verdict in ("fail", "error"):
                        self.found_ms[req.id] = int((time.monotonic() - self.started) * 1000)
                    if step.track.done:
                        self.stream(req, plans[req.id], step.track)
        finally:
            for req in requirements:
                if req.id in self.looks and req.id not in self.streamed:
                    self.stream(req, plans[req.id], tracks[req.id])

    def run_step(
        self,
        req: Requirement,
        step: Step,
        planner: Planner,
        deadline: Deadline,
        plan: Plan | None = None,
    ) -> tuple[float, Outcome]:
        """Run *step* within its limits; fold its outcome into the requirement's look.
        Returns the step's seconds and outcome."""
        track = step.track
        if step.share:
            share = deadline.left() / max(1, planner.waiting())
            soft = Deadline.after(share).sooner(deadline)
            hard = Deadline.after(GRACE * share).sooner(deadline)
        else:
            soft = deadline
            overrun = GRACE * step.estimate_s + FLOOR_SHARE * self.budget_s
            hard = Deadline.after(overrun).sooner(deadline)
        limits = Limits(
            soft,
            hard=hard,
            order=step.cases,
            cover_take=None if step.share else len(step.cases),
            examples=step.examples,
            shrink_s=SHRINK_SHARE * self.budget_s,
            plan=plan,
        )
        profile, examples = (
            profile_for(req, self.profile, 1) if step.first_example else (self.profile, None)
        )
        began = time.monotonic()
        outcome = run_requirement(req, self.engine, self.ctx, profile, examples, limits)
        seconds = time.monotonic() - began
        self.fold(req, step, outcome, seconds)
        track.record(step, outcome.cases_run, outcome.cut, outcome.verdict != "pass")
        return seconds, outcome

    def fold(self, req: Requirement, step: Step, outcome: Outcome, seconds: float) -> None:
        look = self.looks.setdefault(req.id, Look(Outcome(req.id, "pass")))
        look.seconds += seconds
        look.cases += outcome.cases_run
        if step.examples and outcome.examples > outcome.cases_run:
            look.generated = outcome.examples - outcome.cases_run
        previous = look.outcome
        base = outcome if outcome.verdict != "pass" or previous.verdict == "pass" else previous
        look.outcome = dataclasses.replace(
            base,
            examples=look.cases + look.generated,
            duration_ms=previous.duration_ms + outcome.duration_ms,
            cases_run=look.cases,
            details=base.details or previous.details,
        )

    def stream(self, req: Requirement, plan: Plan | None, track: Track) -> None:
        """Hand the requirement's final outcome on: its coverage is that of the cases it
        ran, and it is cut unless everything it asks ran."""
        look = self.looks[req.id]
        coverage = look.outcome.coverage
        if plan is not None:
            ran = tuple(plan.cases[i] for i in track.ran)
            coverage = dataclasses.replace(plan, cases=ran).coverage(len(ran))
        complete = track.complete() or look.outcome.verdict != "pass"
        look.outcome = dataclasses.replace(look.outcome, coverage=coverage, cut=not complete)
        self.streamed.add(req.id)
        self.on_result(req, look.outcome)


def _plan(req: Requirement, ctx: SuiteContext) -> Plan | None:
    """*req*'s coverage plan (None without one, or when building it fails: the runner
    then meets the same failure and reports it)."""
    if req.cover is None:
        return None
    try:
        plan: Plan = req.cover(ctx)
    except Exception:  # reported by the requirement's own run
        return None
    return plan


def _cases(
    plans: dict[str, Plan | None], requirements: list[Requirement]
) -> list[tuple[Case, ...]]:
    return [plan.cases if (plan := plans[req.id]) is not None else () for req in requirements]


def certify_within(
    engine: EngineClient,
    requirements: list[Requirement],
    profile: Profile,
    budget_s: float,
    *,
    expected: ExpectedFailures,
    on_result: Callable[[Requirement, Outcome], None] = lambda req, outcome: None,
    options: dict[str, Any] | None = None,
    started: float | None = None,
) -> tuple[dict[str, Any], list[tuple[Requirement, Outcome]]]:
    """Certify *requirements* within *budget_s* seconds of wall-clock time from *started*
    (a moment on the monotonic clock; default now), plus at most the one request
    running when it ends."""
    started = time.monotonic() if started is None else started
    try:
        hello, ctx = greet(engine)
    except EngineFault as fault:
        report = engine_unavailable(
            engine, fault, requirements, profile=profile, expected=expected, options=options
        )
        return report, []
    started_ops = getattr(engine, "_next_id", 0)
    run = BudgetRun(engine, ctx, profile, budget_s, on_result, started=started)
    run.run(requirements)
    spent_s = time.monotonic() - started
    pairs = [(req, run.looks[req.id].outcome) for req in requirements if req.id in run.looks]
    rows = budget_rows(requirements, run.looks, profile, ctx)
    scope = budget_scope(requirements, rows, [req.id for req, _ in pairs])
    report = build_report(
        pairs,
        hello=hello,
        engine=engine.description,
        profile=profile,
        expected=expected,
        scope=scope,
        options=options,
    )
    ops = getattr(engine, "_next_id", 0) - started_ops
    budget = {
        "seconds": budget_s,
        "spent_ms": int(spent_s * 1000),
        "tiers_ms": {tier: int(seconds * 1000) for tier, seconds in run.tiers_s.items()},
        "calibration_ms": int(run.calibration_s * 1000),
        "found_ms": run.found_ms,
        "rates_ms": run.rates
        and {
            "chat": round(run.rates.chat * 1000, 3),
            "other": round(run.rates.other * 1000, 3),
        },
        "cost_per_op_ms": round(1000 * spent_s / ops, 3) if ops > 0 else None,
        "requirements": rows,
        "cut": [row["id"] for row in rows if row["cut"] and row["ran"]],
        "not_run": [row["id"] for row in rows if not row["ran"]],
    }
    return with_digest({**report, "budget": budget}), pairs


def coverage_total(req: Requirement, ctx: SuiteContext) -> int:
    """How many cases *req*'s coverage plan holds."""
    return len(req.cover(ctx).cases) if req.cover is not None else 0


def budget_rows(
    requirements: list[Requirement],
    looks: dict[str, Look],
    profile: Profile,
    ctx: SuiteContext,
) -> list[dict[str, Any]]:
    """Per requirement: examples asked and got, coverage cases run of the plan's, whether
    it ran and whether the budget cut it."""
    rows = []
    for req in requirements:
        look = looks.get(req.id)
        rows.append(
            {
                "id": req.id,
                "ran": look is not None,
                "asked": asked(req, profile),
                "examples": look.outcome.examples if look else 0,
                "coverage_cases": look.cases if look else 0,
                "coverage_total": coverage_total(req, ctx),
                "cut": look is None or look.outcome.cut,
                "ms": int(look.seconds * 1000) if look else 0,
            }
        )
    return rows


def budget_scope(
    requirements: list[Requirement], rows: list[dict[str, Any]], run: list[str]
) -> dict[str, Any]:
    """The run's scope: what the selection left out, then every requirement the budget
    left unrun or cut short (with what it ran), under ``left_out``; ``ended`` is
    ``budget`` when the budget cut anything."""
    scope = describe_scope(len(requirements), 0, [], run)
    not_run = [row["id"] for row in rows if not row["ran"]]
    cut = [row for row in rows if row["ran"] and row["cut"]]
    left_out = list(scope["left_out"])
    if not_run:
        left_out.append(
            f"the budget ended before {len(not_run)} requirements ran: {', '.join(not_run)}"
        )
    if cut:
        said = ", ".join(f"{row['id']} ({_cut_figures(row)})" for row in cut)
        left_out.append(f"the budget cut {len(cut)} requirements short: {said}")
    return {
        **scope,
        "complete": not left_out,
        "left_out": left_out,
        "thin": [row["id"] for row in cut],
        "ended": "budget" if not_run or cut else "finished",
    }


def _cut_figures(row: dict[str, Any]) -> str:
    parts = []
    if row["coverage_total"]:
        parts.append(f"coverage cases {row['coverage_cases']} of {row['coverage_total']}")
    generated = row["examples"] - row["coverage_cases"]
    parts.append(f"examples {max(0, generated)} of {row['asked']}")
    return ", ".join(parts)
