"""Lane metrics: determinism and closure are total, truth metrics equal across registers.

The holdout sets are asserted on in aggregate only: no per-case result is printed.
"""

from __future__ import annotations

import pytest

from lanes._support.cognition import HOLDOUTS, REGISTERS, load_cases, measure

PUBLIC = load_cases("public")
SEALED = {name: load_cases(name) for name in HOLDOUTS}
HOLDOUT_INTENT_FLOOR = 0.9
SETS = {"public": PUBLIC, **SEALED}


def test_public_set_shape():
    intents = {t.expected_intent for case in PUBLIC for t in case.turns}
    assert len(PUBLIC) >= 60
    assert len(intents) == 12
    assert sum(len(case.turns) >= 5 for case in PUBLIC) >= 10
    ids = [case.id for cases in SETS.values() for case in cases]
    assert len(ids) == len(set(ids))


def test_second_holdout_is_large_enough():
    assert sum(len(case.turns) for case in SEALED["holdout2"]) >= 60
    assert len({t.expected_intent for case in SEALED["holdout2"] for t in case.turns}) == 12


@pytest.mark.parametrize("name", sorted(SETS))
def test_truth_metrics_do_not_depend_on_the_register(name):
    metrics = {register: measure(SETS[name], register) for register in REGISTERS}
    for m in metrics.values():
        assert m.deterministic
        assert m.closure == 1.0
    assert len({m.intent_accuracy for m in metrics.values()}) == 1
    assert metrics["none"] == metrics["default_neutral_v1"]


@pytest.mark.parametrize("name", HOLDOUTS)
def test_holdout_intent_accuracy_floor_under_every_register(name):
    for register in REGISTERS:
        accuracy = measure(SEALED[name], register).intent_accuracy
        assert accuracy >= HOLDOUT_INTENT_FLOOR, f"{name} under {register}: {accuracy:.1%}"


def test_public_set_quality_floor():
    m = measure(PUBLIC, "none")
    assert m.intent_accuracy >= 0.9
    assert m.term_capture >= 0.9
    assert m.groundedness >= 0.85
