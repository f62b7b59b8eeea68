"""A failing requirement keeps looking: distinct shrunk counterexamples, root causes, coverage."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from conformance.coverage import Case, Plan
from conformance.engines import InProcessEngine
from conformance.engines.base import EngineRefused
from conformance.report.certificate import render_certificate
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.requirements import SuiteContext
from conformance.requirements.registry import Requirement
from conformance.runner import MAX_DISTINCT, PROFILES, run_requirement
from selftest.reference_engine import REFERENCE_FACTORY

CI = PROFILES["ci"]


def _two_checks(engine, n):
    assert n < 500, f"{n} is not below 500"
    assert n % 2 == 0, f"{n} is odd"


def _refuses(engine, _):
    raise EngineRefused("ENGINE_INTERNAL", "boom")


def _requirement(req_id, check, strategy=None, cover=None) -> Requirement:
    return Requirement(req_id, req_id, "harness", (), "none", check, strategy, cover=cover)


def _run(req: Requirement):
    engine = InProcessEngine(REFERENCE_FACTORY)
    return run_requirement(req, engine, SuiteContext(()), CI)


def test_distinct_checks_each_get_a_shrunk_counterexample() -> None:
    outcome = _run(_requirement("HARN-TWO-001", _two_checks, lambda ctx: st.integers(0, 1000)))
    assert outcome.verdict == "fail"
    found = {case["message"].splitlines()[0] for case in outcome.counterexamples}
    assert found == {"500 is not below 500", "1 is odd"}, found
    assert len({case["check"] for case in outcome.counterexamples}) == 2
    assert len(outcome.counterexamples) <= MAX_DISTINCT


def test_without_shrinking_a_failure_is_kept_as_found() -> None:
    req = _requirement("HARN-TWO-001", _two_checks, lambda ctx: st.integers(0, 1000))
    engine = InProcessEngine(REFERENCE_FACTORY)
    unshrunk = run_requirement(req, engine, SuiteContext(()), replace(CI, shrink=False))
    assert unshrunk.verdict == "fail"
    assert unshrunk.counterexample["scenario"] not in (500, 1), "the failure was shrunk"
    assert _run(req).counterexample["scenario"] in (500, 1)


def test_cover_cases_run_first_and_failures_there_count() -> None:
    plan = lambda ctx: Plan(  # noqa: E731
        (Case(3, (("parities", "odd"),)), Case(4, (("parities", "even"),))), (("parities", 2),)
    )
    req = _requirement("HARN-COVER-001", _two_checks, lambda ctx: st.just(0), plan)
    outcome = _run(req)
    assert outcome.verdict == "fail", "the failing cover case was forgotten"
    assert outcome.counterexample["scenario"] == 3
    assert outcome.coverage == {"parities": {"exercised": 2, "total": 2}}


def test_shared_engine_error_is_one_root_cause_with_each_verdict_kept() -> None:
    reqs = [_requirement(f"HARN-ROOT-00{i}", _refuses) for i in (1, 2)]
    pairs = [(req, _run(req)) for req in reqs]
    report = build_report(pairs, hello={}, engine="x", profile=CI, expected=ExpectedFailures.none())
    assert [r["outcome"] for r in report["results"]] == ["fail", "fail"]
    cause = "engine refused with ENGINE_INTERNAL"
    assert report["root_causes"] == [
        {"cause": cause, "requirements": ["HARN-ROOT-001", "HARN-ROOT-002"]}
    ]
    assert f"- {cause}: 2 requirements" in render_certificate(report)
