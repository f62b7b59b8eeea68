"""Budgeted certification: every requirement checked within a wall-clock budget.

``--budget T`` is a promise about the clock: the run ends within T plus the one case or
example that is running when it ends (and the engine's start-up). There is no
calibration pass that runs whole plans. The first pass gives every requirement one
look (its most valuable coverage cases, :mod:`conformance.case_value`, then its first
generated example) within a fair share of half the budget, cheapest requirements
first; a requirement whose look failed, or that ran everything it asks for, is done.
The second pass resumes the others (their remaining coverage cases, then the examples
the profile asks) cheapest per example first, each within a fair share of the time
left. Whatever the deadline stopped is cut: the report's ``scope.left_out`` names every
requirement not run or cut short with what it ran, and the run is at best PARTIAL.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.certify import describe_scope, engine_unavailable, greet
from conformance.engines import EngineClient, EngineFault
from conformance.merge import with_digest
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.requirements import Requirement, SuiteContext
from conformance.runner import Limits, Outcome, Profile, run_requirement
from conformance.stopping import Deadline

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


FIRST_PASS_SHARE = 0.5
"""The part of the budget the first pass (one look at every requirement) is shared out
of; the second pass shares whatever is left of the whole budget."""
GRACE = 2.0
"""A run stops mid-case once it has taken this many times its share."""


@dataclass
class Look:
    """What one requirement's runs gave so far."""

    outcome: Outcome
    seconds: float
    cases: int
    """Coverage cases run, in value order (a second run resumes after them)."""

    @property
    def seconds_per_body(self) -> float:
        return self.seconds / max(1, self.outcome.examples)


def first_order(requirements: list[Requirement], profile: Profile) -> list[Requirement]:
    """The first pass's order: requirements expected to be cheap first (a unit-scaled one,
    such as the kill soak, or one stating a long ``expected_ms``, last), then by id."""

    def cost(req: Requirement) -> int:
        if req.scale is not None:
            return req.scale.examples_for(profile) * 250
        return req.expected_ms or 0

    return sorted(requirements, key=lambda req: (cost(req), req.id))


def settled(req: Requirement, outcome: Outcome, profile: Profile) -> bool:
    """Whether a first look is the requirement's final outcome: a failure, error or
    not-claimed needs nothing more, nor a pass that ran all it asks for."""
    if outcome.verdict != "pass":
        return True
    return not outcome.cut and (req.strategy is None or asked(req, profile) <= 1)


def merged(first: Look, second: Outcome) -> Outcome:
    """The second run's outcome counted with the first run's coverage cases (its one
    generated example runs again in the second run, so it is not added)."""
    return dataclasses.replace(
        second,
        examples=first.cases + second.examples,
        duration_ms=first.outcome.duration_ms + second.duration_ms,
        cases_run=first.cases + second.cases_run,
    )


@dataclass
class BudgetRun:
    """One budgeted run on one engine: two passes against one deadline."""

    engine: EngineClient
    ctx: SuiteContext
    profile: Profile
    budget_s: float
    on_result: Callable[[Requirement, Outcome], None]
    looks: dict[str, Look] = dataclasses.field(default_factory=dict)
    streamed: set[str] = dataclasses.field(default_factory=set)
    first_pass_s: float = 0.0
    started: float = dataclasses.field(default_factory=time.monotonic)

    def run(self, requirements: list[Requirement]) -> None:
        """Both passes; every outcome is streamed once, when final (and on the way out
        when interrupted)."""
        started = self.started
        deadline = Deadline(started + self.budget_s)
        try:
            deeper = self.first_pass(
                requirements, deadline, Deadline(started + self.budget_s * FIRST_PASS_SHARE)
            )
            self.first_pass_s = time.monotonic() - started
            self.second_pass(deeper, deadline)
        finally:
            for req in requirements:
                if req.id in self.looks and req.id not in self.streamed:
                    self.stream(req)

    def stream(self, req: Requirement) -> None:
        self.streamed.add(req.id)
        self.on_result(req, self.looks[req.id].outcome)

    def first_pass(
        self, requirements: list[Requirement], deadline: Deadline, first_end: Deadline
    ) -> list[Requirement]:
        """One look at each requirement (its most valuable coverage cases and its first
        example) within a fair share of the first pass; returns those that want more.

        A look may overrun its share by one share at most: then it stops mid-case (and
        is resumed in the second pass). A family whose look overran is slow on this
        engine: its other requirements move to the end of the pass, so the cheap
        families are all looked at first."""
        queue, deeper, slow = deque(first_order(requirements, self.profile)), [], set()
        while queue:
            req = queue.popleft()
            if deadline.passed():
                queue.appendleft(req)
                break
            share = first_end.left() / (len(queue) + 1)
            hard = Deadline.after(GRACE * share).sooner(deadline)
            limits = Limits(Deadline.after(share).sooner(deadline), hard=hard)
            started = time.monotonic()
            outcome = run_requirement(
                req, self.engine, self.ctx, *profile_for(req, self.profile, 1), limits
            )
            seconds = time.monotonic() - started
            self.looks[req.id] = Look(outcome, seconds, outcome.cases_run)
            if settled(req, outcome, self.profile):
                self.stream(req)
            else:
                deeper.append(req)
            if seconds > share and req.family not in slow:
                slow.add(req.family)
                same = [r for r in queue if r.family == req.family]
                queue = deque([r for r in queue if r.family != req.family] + same)
        return deeper

    def second_pass(self, deeper: list[Requirement], deadline: Deadline) -> None:
        """The rest of each unsettled requirement (its remaining coverage cases, then the
        examples the profile asks), cheapest per example first, each within a fair share
        of the time left (stopping mid-case at twice it); what the deadline leaves unrun
        is marked cut."""
        order = sorted(deeper, key=lambda req: (self.looks[req.id].seconds_per_body, req.id))
        for position, req in enumerate(order):
            look = self.looks[req.id]
            if deadline.passed():
                look.outcome = dataclasses.replace(look.outcome, cut=True)
                self.stream(req)
                continue
            share = deadline.left() / (len(order) - position)
            hard = Deadline.after(GRACE * share).sooner(deadline)
            limits = Limits(
                Deadline.after(share).sooner(deadline), cover_skip=look.cases, hard=hard
            )
            started = time.monotonic()
            second = run_requirement(req, self.engine, self.ctx, self.profile, None, limits)
            look.outcome = merged(look, second)
            look.seconds += time.monotonic() - started
            look.cases = look.outcome.cases_run
            self.stream(req)


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
        "first_pass_ms": int(run.first_pass_s * 1000),
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
