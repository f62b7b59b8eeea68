"""No suite exception on engine output: every requirement, run on the reference with its
answers perturbed (members dropped, renamed, retyped, replaced, added; schema-valid and
not), ends in PASS or FAIL, or in ERROR only for an engine fault (a broken envelope),
never in the suite's own exception (docs/conformance.md § Verdicts).

Cheap by design: two examples per requirement, unshrunk, the first two cases of its
coverage plan, two perturbation plans each.
Requirements that start engine processes of their own (kills, strace) see no perturbed
answers from those processes; their in-process part is perturbed like any other.
"""

from __future__ import annotations

import base64
import dataclasses
import json

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from conformance.coverage import Plan
from conformance.engines.base import shape_of
from conformance.engines.view import view
from conformance.jsontypes import EncodableObject
from conformance.model import Requirement
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from lanes._support.perturb import Perturbation, PerturbingEngine, plans
from selftest.reference_engine import REFERENCE_FACTORY

FUZZ = dataclasses.replace(PROFILES["ci"], name="fuzz", max_examples=2, shrink=False)
_CONTEXT: list[SuiteContext] = []


COVER_CASES = 2
"""Coverage cases kept per requirement: a perturbation lands in the first answers of each
case, so later cases add time, not new ways for the suite to meet odd output."""


def _cheap(req: Requirement) -> Requirement:
    """*req* with its coverage plan cut to its first :data:`COVER_CASES` cases."""
    cover = req.cover
    if cover is None:
        return req

    def first_cases(ctx: SuiteContext) -> Plan:
        plan = cover(ctx)
        return Plan(plan.cases[:COVER_CASES], plan.universe)

    return dataclasses.replace(req, cover=first_cases)


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
    req = _cheap(REGISTRY[req_id])
    engine = PerturbingEngine(REFERENCE_FACTORY, plan)
    outcome = run_requirement(req, engine, _context(), FUZZ, max_examples=2)
    assert outcome.verdict != "error" or outcome.fault is not None, (
        f"{req_id} raised the suite's own exception on perturbed answers {plan}: {outcome.message}"
    )


class _RenamedMethods(PerturbingEngine):
    """Ratifies as the reference does, but its sealed report names ``methods`` otherwise."""

    def _exchange(self, request: EncodableObject) -> object:
        response = super()._exchange(request)
        if request.get("op") != "register.ratify" or not isinstance(response, dict):
            return response
        files = response.get("result", {}).get("files", {})
        for name, data in files.items():
            if name.endswith(".mastery_report.json"):
                report = json.loads(base64.b64decode(data))
                report["ratification_methods"] = report.pop("methods")
                files[name] = base64.b64encode(json.dumps(report).encode()).decode()
        return response


def test_a_report_naming_methods_otherwise_fails_with_the_member() -> None:
    engine = _RenamedMethods(REFERENCE_FACTORY, [])
    outcome = run_requirement(REGISTRY["LOAD-SEAL-003"], engine, _context(), FUZZ, max_examples=1)
    assert outcome.verdict == "fail", outcome.message
    assert ".methods: missing" in outcome.message and "ratification_methods" in outcome.message


def test_a_view_has_the_shape_of_what_it_wraps() -> None:
    raw = {"responses": [{"id": 1, "ok": True, "result": {"index": -1, "entry": "x"}}]}
    assert shape_of(view(raw)) == shape_of(raw)
    assert shape_of(view(raw)["responses"][0]) == shape_of(raw["responses"][0])
