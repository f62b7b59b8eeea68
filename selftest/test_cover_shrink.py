"""A coverage-plan failure is shrunk like a generated one: turns dropped, then words of
prompts; a one-turn defect replays as one turn (conformance/shrink.py; issue 27 § 4)."""

from __future__ import annotations

from conformance.engines import InProcessEngine
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from conformance.shrink import shrink
from selftest.engines import BROKEN


def test_shrink_drops_turns_then_words_keeping_the_failure() -> None:
    script = [f"What is w{i}?" for i in range(12)]
    seen: list[object] = []

    def fails(candidate: list[str]) -> bool:
        seen.append(candidate)
        return any("w7" in turn for turn in candidate)

    smallest, runs = shrink(script, fails)
    assert smallest == ["w7?"] and runs == len(seen) <= 64


def test_shrink_stops_at_its_budget() -> None:
    smallest, runs = shrink(list(range(100)), lambda c: len(c) > 0, max_runs=5)
    assert runs == 5 and len(smallest) < 100


def test_a_one_turn_defect_found_by_the_coverage_plan_replays_as_one_turn() -> None:
    broken = BROKEN["terse_hash_slip"]
    engine = InProcessEngine(broken.spec, factory=broken.factory)
    req = REGISTRY["REG-INV-003"]
    outcome = run_requirement(req, engine, SuiteContext.from_engine(engine), PROFILES["ci"])
    assert outcome.verdict == "fail"
    case = outcome.counterexample
    assert case is not None and len(case["scenario"]) == 1, case and case["scenario"]
    assert (outcome.details or {}).get("shrink_runs", 0) > 0


def test_a_labeled_case_is_dropped_or_kept_whole_never_cut() -> None:
    cases = [{"id": f"RC-{i}", "turns": [f"No, it is {i}."], "subject": None} for i in range(8)]

    def fails(candidate: list[dict[str, object]]) -> bool:
        return any(case["id"] == "RC-5" for case in candidate)

    smallest, _ = shrink(cases, fails)
    assert smallest == [cases[5]]
