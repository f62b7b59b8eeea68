"""Lane metrics: determinism and closure are total, truth metrics equal across registers."""

from __future__ import annotations

import pytest

from tools.cognition import REGISTERS, load_cases, measure

PUBLIC = load_cases("public")
HOLDOUT = load_cases("holdout")


def test_public_set_shape():
    intents = {t.expected_intent for case in PUBLIC for t in case.turns}
    assert len(PUBLIC) >= 60
    assert len(intents) == 12
    assert sum(len(case.turns) >= 5 for case in PUBLIC) >= 10
    assert not {c.id for c in PUBLIC} & {c.id for c in HOLDOUT}


@pytest.mark.parametrize("cases", [PUBLIC, HOLDOUT], ids=["public", "holdout"])
def test_truth_metrics_do_not_depend_on_the_register(cases):
    metrics = {register: measure(cases, register) for register in REGISTERS}
    for m in metrics.values():
        assert m.deterministic
        assert m.closure == 1.0
    assert len({m.intent_accuracy for m in metrics.values()}) == 1
    assert metrics["none"] == metrics["default_neutral_v1"]


def test_public_set_quality_floor():
    m = measure(PUBLIC, "none")
    assert m.intent_accuracy >= 0.9
    assert m.term_capture >= 0.9
    assert m.groundedness >= 0.85
