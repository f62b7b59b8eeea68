"""The suite catches every broken persisted-state engine, and only for its defect.

Each engine in ``BROKEN_STATE`` must fail (or error on) every requirement in its
``catches``, leaving a recorded counterexample, and every ``STATE-*`` requirement must
be caught by at least one of them. :class:`StateHandler`, the engine each broken one
changes one part of, must pass that counterexample, so the failure is the defect's
doing; and it must answer every one of those requirements as the reference does.
Broken engines run under the ci profile (200 kills for STATE-KILL-001); the conformant
one's answers are compared with the reference's on fewer kills.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from conformance.engines import REFERENCE_FACTORY, InProcessEngine
from conformance.engines.inprocess import load_factory
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, Outcome, Profile, check_once, run_requirement
from conformance.selftest.engines import BrokenEngine
from conformance.selftest.state_handler import StateHandler
from conformance.selftest.state_mutants import BROKEN_STATE

CI = PROFILES["ci"]
CONFORMANT = "conformance.selftest.state_handler:factory"
CONFORMANT_KILLS = 20
CASES = [(name, req_id) for name, broken in BROKEN_STATE.items() for req_id in broken.catches]
CAUGHT = sorted({req_id for broken in BROKEN_STATE.values() for req_id in broken.catches})


def run_in_process(spec: str, req_id: str, profile: Profile) -> Outcome:
    """Run one requirement against a fresh in-process engine under *profile*."""
    engine = InProcessEngine(spec)
    return run_requirement(REGISTRY[req_id], engine, SuiteContext.from_engine(engine), profile)


def detached(scenario: object) -> object:
    """*scenario* with each Hypothesis random, which dies with its example, made a seeded one."""
    if isinstance(scenario, random.Random):
        return random.Random(0)
    if isinstance(scenario, list | tuple):
        return type(scenario)(detached(item) for item in scenario)
    return scenario


def assert_conformant_passes(req_id: str, scenario: object) -> None:
    """Replay *scenario* of *req_id* on the conformant :class:`StateHandler`."""
    try:
        check_once(REGISTRY[req_id], InProcessEngine(CONFORMANT), detached(scenario))
    except AssertionError as exc:
        pytest.fail(f"the counterexample fails the conformant engine too: {exc}")


@pytest.mark.long
@pytest.mark.parametrize(("name", "req_id"), CASES, ids=[f"{n}:{r}" for n, r in CASES])
def test_broken_state_engine_is_caught(name: str, req_id: str) -> None:
    broken = BROKEN_STATE[name]
    outcome = run_in_process(broken.spec, req_id, CI)
    assert outcome.verdict in ("fail", "error"), f"{name} ({broken.description}) passes {req_id}"
    case = outcome.counterexample
    assert isinstance(case, dict) and case["requirement"] == req_id
    assert case["message"] and case["transcript"], "the counterexample records no exchange"
    if REGISTRY[req_id].generated:
        assert case["scenario"] is not None, "a generated requirement records its scenario"
    assert_conformant_passes(req_id, case["scenario"])


@pytest.mark.long
@pytest.mark.parametrize("req_id", CAUGHT)
def test_state_handler_answers_as_the_reference(req_id: str) -> None:
    profile = dataclasses.replace(CI, kills=CONFORMANT_KILLS)
    ours = run_in_process(CONFORMANT, req_id, profile)
    reference = run_in_process(REFERENCE_FACTORY, req_id, profile)
    assert ours.verdict == reference.verdict, f"{ours.verdict} ({ours.message})"


def test_every_state_requirement_is_caught() -> None:
    state_ids = {req_id for req_id in REGISTRY if req_id.startswith("STATE-")}
    assert set(CAUGHT) <= set(REGISTRY), f"unknown ids in catches: {set(CAUGHT) - set(REGISTRY)}"
    assert state_ids <= set(CAUGHT), (
        f"no broken state engine breaks {sorted(state_ids - set(CAUGHT))}"
    )


def test_table_is_well_formed() -> None:
    factories = [broken.factory for broken in BROKEN_STATE.values()]
    assert len(set(factories)) == len(factories), "two entries share one engine"
    for name, broken in BROKEN_STATE.items():
        assert isinstance(broken, BrokenEngine)
        assert broken.name == name and broken.catches and broken.description
        assert issubclass(broken.factory, StateHandler) and broken.factory is not StateHandler
        assert load_factory(broken.spec) is broken.factory, f"{broken.spec} does not import"
