"""The suite catches every broken persisted-state engine, and only for its defect.

Each engine in ``BROKEN_STATE`` must fail (or error on) every requirement in its
``catches``, leaving a recorded counterexample, and every ``STATE-*`` requirement must
be caught by at least one of them. The reference engine, of which each broken one
replaces one state hook, must pass that counterexample, so the failure is the
defect's doing. Broken engines run under the ci profile (200 kills for STATE-KILL-001).
"""

from __future__ import annotations

import random

import pytest

from conformance.engines import InProcessEngine
from conformance.engines.inprocess import load_factory
from conformance.requirements import REGISTRY
from conformance.runner import check_once
from reference.serve import ProtocolHandler
from selftest.checks import caught, run_in_process
from selftest.engines import BROKEN, BrokenEngine
from selftest.reference_engine import REFERENCE_FACTORY
from selftest.state_mutants import BROKEN_STATE

CASES = [(name, req_id) for name, broken in BROKEN_STATE.items() for req_id in broken.catches]
CAUGHT = sorted({req_id for broken in BROKEN_STATE.values() for req_id in broken.catches})


def detached(scenario: object) -> object:
    """*scenario* with each Hypothesis random, which dies with its example, made a seeded one."""
    if isinstance(scenario, random.Random):
        return random.Random(0)
    if isinstance(scenario, list | tuple):
        return type(scenario)(detached(item) for item in scenario)
    return scenario


def assert_conformant_passes(req_id: str, scenario: object) -> None:
    """Replay *scenario* of *req_id* on the reference engine."""
    try:
        check_once(REGISTRY[req_id], InProcessEngine(REFERENCE_FACTORY), detached(scenario))
    except AssertionError as exc:
        pytest.fail(f"the counterexample fails the conformant engine too: {exc}")


@pytest.mark.long
@pytest.mark.parametrize(("name", "req_id"), CASES, ids=[f"{n}:{r}" for n, r in CASES])
def test_broken_state_engine_is_caught(name: str, req_id: str) -> None:
    broken = BROKEN_STATE[name]
    case = caught(broken, req_id, run_in_process(broken, req_id))
    assert_conformant_passes(req_id, case["scenario"])


def test_every_state_requirement_is_caught() -> None:
    """Every STATE-* requirement fails on a broken store here, or on a broken protocol
    handler of selftest/engines.py (an op's argument checks, which need no store)."""
    state_ids = {req_id for req_id in REGISTRY if req_id.startswith("STATE-")}
    assert set(CAUGHT) <= set(REGISTRY), f"unknown ids in catches: {set(CAUGHT) - set(REGISTRY)}"
    handlers = {req_id for broken in BROKEN.values() for req_id in broken.catches}
    assert state_ids <= set(CAUGHT) | handlers, (
        f"no broken state engine breaks {sorted(state_ids - set(CAUGHT) - handlers)}"
    )


def test_table_is_well_formed() -> None:
    factories = [broken.factory for broken in BROKEN_STATE.values()]
    assert len(set(factories)) == len(factories), "two entries share one engine"
    for name, broken in BROKEN_STATE.items():
        assert isinstance(broken, BrokenEngine)
        assert broken.name == name and broken.catches and broken.description
        assert issubclass(broken.factory, ProtocolHandler)
        assert broken.factory is not ProtocolHandler
        assert load_factory(broken.spec) is broken.factory, f"{broken.spec} does not import"
