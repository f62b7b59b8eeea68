"""No suite exception on engine output: every requirement, run on the reference with its
answers perturbed (members dropped, renamed, retyped, replaced, added; schema-valid and
not), ends in PASS or FAIL, or in ERROR only for an engine fault (a broken envelope),
never in the suite's own exception (docs/conformance.md § Verdicts).

Cheap by design: two examples per requirement, unshrunk, two perturbation plans each.
Requirements that start engine processes of their own (kills, strace) see no perturbed
answers from those processes; their in-process part is perturbed like any other.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from lanes._support.perturb import Perturbation, PerturbingEngine, plans
from selftest.reference_engine import REFERENCE_FACTORY

FUZZ = dataclasses.replace(PROFILES["ci"], name="fuzz", max_examples=2, shrink=False)
_CONTEXT: list[SuiteContext] = []


def _context() -> SuiteContext:
    if not _CONTEXT:
        _CONTEXT.append(SuiteContext.from_engine(PerturbingEngine(REFERENCE_FACTORY, [])))
    return _CONTEXT[0]


@pytest.mark.parametrize("req_id", sorted(REGISTRY))
@settings(
    max_examples=2,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.nested_given, HealthCheck.too_slow],
)
@given(plan=plans())
def test_no_suite_error_on_perturbed_answers(req_id: str, plan: list[Perturbation]) -> None:
    req = REGISTRY[req_id]
    engine = PerturbingEngine(REFERENCE_FACTORY, plan)
    outcome = run_requirement(req, engine, _context(), FUZZ, max_examples=2)
    assert outcome.verdict != "error" or outcome.fault is not None, (
        f"{req_id} raised the suite's own exception on perturbed answers {plan}: {outcome.message}"
    )
