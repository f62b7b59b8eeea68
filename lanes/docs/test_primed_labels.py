"""The primed catalogue labels exactly the one-turn cases without a subject (COG-PRIMED-001):
a new such case fails here until the docs' words say what it reads after an earlier turn."""

from __future__ import annotations

from conformance import primed


def test_every_one_turn_case_without_a_subject_is_labeled() -> None:
    subjectless = {c["id"] for c in primed.one_turn_cases() if c["subject"] is None}
    labeled = set(primed.labels()["cases"])
    assert subjectless - labeled == set(), "one-turn cases without a subject and no label"
    assert labeled - subjectless == set(), "labels naming no one-turn case without a subject"


def test_labels_are_null_or_the_primer_with_a_reason() -> None:
    bad = {
        case: label
        for case, label in primed.labels()["cases"].items()
        if label[0] not in (None, "primer") or not label[1].strip()
    }
    assert not bad


def test_could_refer_reads_spellings_that_become_a_word_that_refers_back() -> None:
    assert primed.could_refer("Theyre zorbs?") and primed.could_refer("Is taht true?")
    assert primed.could_refer("It's a fish.") and not primed.could_refer("What is a river?")
