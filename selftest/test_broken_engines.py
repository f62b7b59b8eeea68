"""The suite catches every broken engine, and certifies the engines that are not broken.

Each broken engine in ``BROKEN`` must fail (or error on) every requirement in its
``catches`` under the ci profile, leaving a recorded counterexample. The reference
engine must pass every requirement; each broken engine is the reference with one
hook replaced, so every failure is the defect's doing and nothing else's.
"""

from __future__ import annotations

import pytest

from conformance.certify import certify
from conformance.engines import InProcessEngine
from conformance.report.expected import ExpectedFailures
from conformance.requirements import REGISTRY
from reference.serve import ProtocolHandler
from selftest.checks import CI, DETECT, caught, run_in_process
from selftest.engines import BROKEN, COMBINED, SEMANTIC_CHAT, UNANSWERABLE_ON_PURPOSE
from selftest.reference_engine import REFERENCE_FACTORY
from selftest.state_mutants import BROKEN_STATE

CASES = [(name, req_id) for name, broken in BROKEN.items() for req_id in broken.catches]
FAMILIES = sorted({req.family for req in REGISTRY.values()})


@pytest.mark.parametrize(("name", "req_id"), CASES, ids=[f"{n}:{r}" for n, r in CASES])
def test_broken_engine_is_caught(name: str, req_id: str) -> None:
    broken = BROKEN[name]
    caught(broken, req_id, run_in_process(broken, req_id))


@pytest.mark.long
@pytest.mark.parametrize("family", FAMILIES)
def test_reference_is_certified(family: str) -> None:
    engine = InProcessEngine(REFERENCE_FACTORY)
    requirements = [REGISTRY[i] for i in sorted(REGISTRY) if REGISTRY[i].family == family]
    report, pairs = certify(engine, requirements, CI, expected=ExpectedFailures.none())
    failed = [(o.id, o.verdict, o.message) for _, o in pairs if o.verdict in ("fail", "error")]
    assert report["summary"]["verdict"] == "partial", failed  # one family is part of the suite
    assert report["summary"]["not_claimed"] == 0, "the reference leaves a requirement unclaimed"


SEMANTIC_IDS = sorted(
    i for i in REGISTRY if i.startswith(SEMANTIC_CHAT) and i not in UNANSWERABLE_ON_PURPOSE
)


@pytest.mark.parametrize("req_id", SEMANTIC_IDS)
def test_crash_on_unknown_words_stays_in_its_domain(req_id: str) -> None:
    """A semantic chat requirement never sends text without a known word, so it passes."""
    broken = BROKEN["crashes_without_known_word"]
    outcome = run_in_process(broken, req_id)
    assert outcome.verdict == "pass", f"{req_id} fails on a crash outside its domain: {outcome}"


@pytest.mark.long
@pytest.mark.parametrize("name", COMBINED)
def test_independent_defects_reported_in_one_run(name: str) -> None:
    """One certify run of every requirement of the families its defects are in reports
    each defect under its own id.

    Under the ci profile's examples and seeds, without shrinking: a verdict is decided
    before any shrinking starts, so the verdicts are those of a default run. Families
    holding none of its defects are left out.
    """
    broken = BROKEN[name]
    engine = InProcessEngine(broken.spec, factory=broken.factory)
    families = {REGISTRY[req_id].family for req_id in broken.catches}
    requirements = [REGISTRY[i] for i in sorted(REGISTRY) if REGISTRY[i].family in families]
    report, pairs = certify(engine, requirements, DETECT, expected=ExpectedFailures.none())
    outcomes = {req.id: outcome for req, outcome in pairs}
    for req_id in broken.catches:
        outcome = outcomes[req_id]
        assert outcome.verdict in ("fail", "error"), f"{name}: {req_id} passes"
        assert outcome.counterexample and outcome.counterexample["requirement"] == req_id
    assert not report["summary"]["certified"]


def test_every_requirement_is_caught() -> None:
    tables = (*BROKEN.values(), *BROKEN_STATE.values())
    caught = set().union(*(broken.catches for broken in tables))
    assert caught <= set(REGISTRY), f"unknown ids in catches: {sorted(caught - set(REGISTRY))}"
    assert set(REGISTRY) <= caught, f"no broken engine breaks {sorted(set(REGISTRY) - caught)}"


def test_table_is_well_formed() -> None:
    factories = [broken.factory for broken in BROKEN.values()]
    assert len(set(factories)) == len(factories), "two entries share one engine"
    for name, broken in BROKEN.items():
        assert broken.name == name and broken.catches and broken.description
        assert issubclass(broken.factory, ProtocolHandler)
        assert broken.factory is not ProtocolHandler
