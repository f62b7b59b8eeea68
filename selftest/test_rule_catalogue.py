"""The rule catalogue names every rule, and leaving out any one entry of forms.json, or any
rule of word folding, or moving a folding rule's length bound by one letter, is caught.

One broken engine per entry of forms.json (``selftest/mutants/rule_deletions.py``): each
must fail ``COG-RULE-001``, except the entries in ``OVERLAPPED``, which another form reads
the same way on every prompt tried (each with the case that shows it).
"""

from __future__ import annotations

import pytest

from conformance import rules
from selftest.checks import caught, run_in_process
from selftest.engines import broken_engine
from selftest.mutants.folding import FOLD_IDS, folded_bound, folded_without
from selftest.mutants.function_words import missing_function_word
from selftest.mutants.rule_deletions import form_ids, without

OVERLAPPED = {
    "F-008": "`you remember A` (F-009) reads `do you remember what I said about A` alike",
    "F-013": "`recall A` (F-014) reads `recall what I said about A` alike",
    "F-035": "`explain A as B` (F-020) covers `explain A using B as an image` first",
    "F-047": "`A differs from B` (F-051) reads `how A differs from B` alike",
    "F-056": "`which ...: A or B` (F-061) reads `which lasts longer, A or B` alike",
    "F-059": "`which ...: A or B` (F-061) reads `which is older: A or B` alike",
    "F-128": "the EXAMPLE cue reads `some samples of A` alike",
    "F-148": "`is this true: A` is read alike by the yes/no question form (F-151)",
    "F-149": "`do you agree that A` is read alike by the yes/no question form (F-151)",
    "F-159": "the NARRATIVE cue reads `a tale of A` alike",
    "F-171": "`recount/summarise A` (F-154) covers `summarise the tale of A` first",
}
"""Entries whose loss no prompt tried shows: another entry reads the same prompts alike."""

IDS = form_ids()


def test_the_catalogue_names_every_entry_of_forms_json() -> None:
    named = set(rules.rule_ids())
    assert set(IDS) <= named, f"not in the catalogue: {sorted(set(IDS) - named)}"
    assert len(named) == len(rules.rule_ids()), "a rule id is named twice"


def test_every_case_names_known_rules() -> None:
    named = set(rules.rule_ids())
    for case in rules.catalogue()["cases"]:
        assert case["rules"] and set(case["rules"]) <= named, case["id"]


@pytest.mark.parametrize("rule_id", [i for i in IDS if i not in OVERLAPPED])
def test_leaving_out_an_entry_is_caught(rule_id: str) -> None:
    broken = broken_engine(f"without_{rule_id}", without(rule_id), "COG-RULE-001")
    caught(broken, "COG-RULE-001", run_in_process(broken, "COG-RULE-001"))


@pytest.mark.parametrize("rule_id", sorted(OVERLAPPED))
def test_an_overlapped_entry_is_still_overlapped(rule_id: str) -> None:
    """When a case starts catching an overlapped entry, it leaves OVERLAPPED."""
    broken = broken_engine(f"without_{rule_id}", without(rule_id), "COG-RULE-001")
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"


UNSEEN_BOUNDS = {
    ("W-IES", -1): "a 4-letter -ies word folds to a 2-letter form: no lemma has fewer than 3",
    ("W-VES-F", 1): "no shipped lemma of 3 letters ends in -f (elf), so no 5-letter -ves word",
    ("W-VES-F", -1): "a 4-letter -ves word folds to a 2-letter form",
    ("W-VES-FE", -1): "a 4-letter -ves word folds to a 3-letter -fe form of 1 letter's stem",
    ("W-ES", -1): "a 4-letter -es word folds to a 2-letter form",
    ("W-S", -1): "a 3-letter -s word folds to a 2-letter form",
    ("W-ING", -1): "a 5-letter -ing word folds to a 2-letter form",
    ("W-ING-DOUBLED", 1): "a 6-letter doubled -ing word folds to a 2-letter form",
    ("W-ING-DOUBLED", -1): "a 5-letter doubled -ing word folds to a 1-letter form",
}
"""Bounds moved by one letter that no lexicon of lemmas of 3 or more letters can show."""

BOUNDS = [(rule, shift) for rule in FOLD_IDS for shift in (1, -1)]


@pytest.mark.parametrize("rule_id", FOLD_IDS)
def test_leaving_out_a_folding_rule_is_caught(rule_id: str) -> None:
    broken = broken_engine(f"folding_without_{rule_id}", folded_without(rule_id), "COG-RULE-001")
    caught(broken, "COG-RULE-001", run_in_process(broken, "COG-RULE-001"))


@pytest.mark.parametrize(("rule_id", "shift"), BOUNDS)
def test_a_folding_bound_off_by_one_is_caught(rule_id: str, shift: int) -> None:
    broken = broken_engine(f"bound_{rule_id}_{shift}", folded_bound(rule_id, shift), "COG-RULE-001")
    outcome = run_in_process(broken, "COG-RULE-001")
    if (rule_id, shift) in UNSEEN_BOUNDS:
        assert outcome.verdict == "pass", "a case now shows this bound: drop it from UNSEEN_BOUNDS"
    else:
        caught(broken, "COG-RULE-001", outcome)


MASKED_WORDS = {
    "a": "one letter: never a content word (S-LENGTH)",
    "i": "one letter: never a content word (S-LENGTH)",
    "whats": "spelt out `what is` by step 3 before any word is read (K-BARE)",
    "were": "the reference cleans it out of every slot it could stand in before reading words",
    "though": "the reference cleans it out of every slot it could stand in before reading words",
    "three": "the reference cleans it out of every slot it could stand in before reading words",
}
"""Function words whose loss from the list another rule hides on every prompt tried."""


@pytest.mark.parametrize("word", [w for w in rules.function_words() if w not in MASKED_WORDS])
def test_a_missing_function_word_is_caught(word: str) -> None:
    broken = broken_engine(f"missing_{word}", missing_function_word(word), "COG-RULE-002")
    caught(broken, "COG-RULE-002", run_in_process(broken, "COG-RULE-002"))
