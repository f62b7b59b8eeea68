"""Certify the (mutated) reference engine in-process, one requirement per test.

mutmut runs these tests against each mutant of the reference, and only the tests
that reach the mutated function; a mutant is killed when some requirement fails on
it. No other test of the project takes part, so the score measures the suite alone.
"""

from __future__ import annotations

import pytest

from conformance.engines import InProcessEngine
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from selftest.reference_engine import REFERENCE_FACTORY

SLOW = ("STATE-KILL-001",)
"""Requirements left out: they kill engine processes, which no mutant survives anyway."""
EXAMPLES = 10
IDS = sorted(i for i in REGISTRY if i not in SLOW)


@pytest.mark.parametrize("req_id", IDS)
def test_requirement_holds(req_id: str) -> None:
    engine = InProcessEngine(REFERENCE_FACTORY)
    outcome = run_requirement(
        REGISTRY[req_id], engine, SuiteContext.from_engine(engine), PROFILES["ci"], EXAMPLES
    )
    assert outcome.verdict == "pass", f"{req_id}: {outcome.verdict}: {outcome.message}"
