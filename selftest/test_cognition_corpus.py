"""The cognition corpus is well formed, covers what it must, and is the ratified version."""

from __future__ import annotations

from conformance import corpus
from conformance.oracle import GROUNDING_SOURCES, INTENT_NAMES
from conformance.requirements import SuiteContext
from conformance.requirements.registry import LexiconEntry

CASES = corpus.load_corpus()
LEXICON = SuiteContext(
    (
        LexiconEntry("river", "core", "noun", True),
        LexiconEntry("stone", "core", "noun", True),
        LexiconEntry("ember", "core", "noun", False),
    )
)


def test_corpus_is_the_last_ratified_version() -> None:
    ledger = corpus.ratifications()
    assert ledger, "RATIFICATIONS.jsonl is empty"
    assert ledger[-1]["corpus_sha256"] == corpus.corpus_digest(), (
        "the corpus changed without a ratification entry"
    )
    assert ledger[-1]["cases"] == len(CASES)
    assert all(entry["reason"] and entry["ratified_by"] for entry in ledger)


def test_corpus_covers_every_intent_and_grounding_source() -> None:
    assert {c.intent for c in CASES} == set(INTENT_NAMES)
    assert {c.grounding_source for c in CASES} == set(GROUNDING_SOURCES)
    assert any(len(c.turns) > 1 and c.turns[-1].startswith("Now ") for c in CASES)


def test_case_ids_are_unique_and_labels_are_names() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case.turns and case.form, case.id
        assert case.intent in INTENT_NAMES and case.grounding_source in GROUNDING_SOURCES


def test_slots_fill_from_any_lexicon() -> None:
    cases = corpus.instantiate(LEXICON)
    assert not any("{" in t for c in cases for t in c["turns"]), "an unfilled slot"
    fillers = corpus.slot_fillers(LEXICON)
    assert fillers["glossless"] == "ember"
    assert {fillers["glossed"], fillers["other"]} == {"river", "stone"}
    assert fillers["madeup"] not in {"river", "stone", "ember"}
