"""Run one requirement on a broken engine, and check that the suite caught its defect."""

from __future__ import annotations

import dataclasses
from typing import Any

from conformance.coverage import Case, Plan
from conformance.engines import InProcessEngine
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, Outcome, Profile, run_requirement
from selftest.engines import BrokenEngine

CI = PROFILES["ci"]
DETECT = dataclasses.replace(CI, shrink=False)
"""The ci profile's examples and seeds without shrinking: it finds what ci finds, and keeps
each failure as found. Shrinking is the harness's own behaviour, tested once
(``selftest/test_discrimination.py``), not again for every broken engine."""


def run_in_process(broken: BrokenEngine, req_id: str, profile: Profile = DETECT) -> Outcome:
    """Run requirement *req_id* against a fresh in-process *broken* engine under *profile*."""
    engine = InProcessEngine(broken.spec, factory=broken.factory)
    return run_requirement(REGISTRY[req_id], engine, SuiteContext.from_engine(engine), profile)


def run_on_scenario(
    broken: BrokenEngine, req_id: str, scenario: Any, profile: Profile = DETECT
) -> Outcome:
    """Run requirement *req_id* against a fresh in-process *broken* engine on *scenario*
    alone, in place of the cases its cover plans (a requirement without a strategy takes
    its scenario from its cover)."""
    only = Plan((Case(scenario, ()),), ())
    requirement = dataclasses.replace(REGISTRY[req_id], cover=lambda ctx: only)
    engine = InProcessEngine(broken.spec, factory=broken.factory)
    return run_requirement(requirement, engine, SuiteContext.from_engine(engine), profile)


def caught(broken: BrokenEngine, req_id: str, outcome: Outcome) -> dict[str, Any]:
    """The counterexample of *outcome*, asserting that it fails *req_id* with a record of why."""
    assert outcome.verdict in ("fail", "error"), (
        f"{broken.name} ({broken.description}) passes {req_id}"
    )
    case = outcome.counterexample
    assert isinstance(case, dict) and case["requirement"] == req_id
    assert case["message"] and case["transcript"], "the counterexample records no exchange"
    if REGISTRY[req_id].generated:
        assert case["scenario"] is not None, "a generated requirement records its scenario"
    return case
