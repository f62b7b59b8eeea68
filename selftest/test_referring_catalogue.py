"""The catalogue files of the words that refer back (``rules_referring.json``,
``answers_referring.json``) are well formed and named in docs/intents.md § Rule ids, and
leaving any one word out of the words that refer back is caught by ``COG-RULE-001``.

The broken engines of ``selftest/mutants/referring.py`` are in ``selftest/engines.py`` and
checked with the others by ``selftest/test_broken_engines.py``.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from conformance import answer_rules, rules
from reference.truth import intent
from selftest.checks import caught, run_in_process
from selftest.engines import BROKEN, broken_engine
from selftest.mutants.referring import REFERRING_MUTANTS, missing_referring_word

DOC = Path(__file__).resolve().parent.parent / "docs" / "intents.md"

MASKED = {
    "they": "a slot whose first word past auxiliaries is `they` refers back by the grammatical "
    "subject rule, and every slot that holds `they` and no content word opens with it",
}
"""Words that refer back whose loss from the list another rule hides on every prompt tried."""


def _extra(module: object) -> list[dict[str, object]]:
    files = resources.files("conformance.data.cognition")
    return [json.loads(files.joinpath(name).read_text("utf-8")) for name in module.EXTRA]  # type: ignore[attr-defined]


def test_extra_rules_are_named_in_the_docs_and_exercised() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## Rule ids") :]
    for module in (rules, answer_rules):
        for data in _extra(module):
            ids = [rule["id"] for rule in data["rules"]]
            used = {r for case in data["cases"] for r in case["rules"]}
            assert set(ids) <= used, sorted(set(ids) - used)
            for rule in data["rules"]:
                assert rule["rule"].startswith("docs/"), rule["id"]
                if module is rules:
                    assert f"`{rule['id']}`" in section, rule["id"]
    named = [r["id"] for r in rules.catalogue()["rules"]]
    assert len(named) == len(set(named)), "a rule id is named twice"
    cases = [c["id"] for c in rules.catalogue()["cases"]]
    assert len(cases) == len(set(cases)), "a case id is used twice"


def test_every_referring_mutant_is_in_the_table() -> None:
    for name, _, req_id in REFERRING_MUTANTS:
        assert BROKEN[name].catches == (req_id,), name


@pytest.mark.parametrize("word", sorted(intent.REFERRING - set(MASKED)))
def test_a_missing_referring_word_is_caught(word: str) -> None:
    broken = broken_engine(
        f"referring_missing_{word}", missing_referring_word(word), "COG-RULE-001"
    )
    caught(broken, "COG-RULE-001", run_in_process(broken, "COG-RULE-001"))


@pytest.mark.parametrize("word", sorted(MASKED))
def test_a_masked_referring_word_is_still_masked(word: str) -> None:
    """When a case starts catching a masked word, it leaves MASKED."""
    broken = broken_engine(
        f"referring_missing_{word}", missing_referring_word(word), "COG-RULE-001"
    )
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"
