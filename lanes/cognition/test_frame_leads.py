"""Reading tries only the frames that can start with a clause's first word, and reads
every clause as the plain scan of every frame, in order, would."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanes._support.cognition import load_cases
from lanes.cognition.test_intent_forms import table_rows
from reference.runtime.probe_script import lexicon_script
from reference.truth.intent import (
    FRAMES,
    Frame,
    IntentTag,
    Reading,
    first_word,
    prepare,
    read_forms,
    reading_of,
)
from reference.truth.text import normalize

LED = [frame for frame in FRAMES if frame.lead_words is not None]


def scan_every_frame(clause: str, question: bool = False) -> Reading | None:
    """The reading by the definition: the first of all the frames whose form covers it."""
    for frame in FRAMES:
        if not frame.applies_to(question):
            continue
        slots = frame.slots(clause)
        if slots is not None:
            return reading_of(frame, slots, clause)
    return None


def corpus_clauses() -> list[str]:
    """The clause of every prompt in the table of forms, the public cases and the lexicon
    script (the holdout cases are scored in aggregate only, so they are not read here)."""
    prompts = [example for _, example, _ in table_rows()] + lexicon_script()
    prompts += [turn.prompt for case in load_cases("public") for turn in case.turns]
    return sorted({prepare(normalize(prompt)) for prompt in prompts})


def test_most_frames_show_their_lead_words():
    assert len(LED) >= 60


@pytest.mark.parametrize(
    ("source", "leads"),
    [
        (r"^what (?:does|do) (?P<a>.+?) mean$", {"what"}),
        (r"^(?:how|in what way) (?:is|are) (?P<a>.+?)$", {"how", "in"}),
        (r"^(?:is|isn't) it true (?P<a>.+?)$", {"is", "isn't"}),
        (r"^what(?:'s| is) meant by (?P<a>.+?)$", None),
        (r"^why(?: (?P<a>.+?))?$", None),
        (r"^(?:for )?what reason (?P<a>.+?)$", None),
        (r"^(?:\w+ )?(?P<a>.+?) through (?P<b>.+?)$", None),
        (r"\bhow to (?P<a>.+?)$", None),
        (r"^(?P<a>.+?) versus (?P<b>.+?)$", None),
    ],
)
def test_lead_words_are_read_only_from_plain_words_and_a_space(source, leads):
    lead_words = Frame(IntentTag.DEFINITION, source).lead_words
    assert lead_words == (frozenset(leads) if leads is not None else None)


@settings(max_examples=400)
@given(data=st.data(), frame=st.sampled_from(LED))
def test_every_clause_a_frame_covers_opens_with_one_of_its_lead_words(data, frame):
    clause = data.draw(st.from_regex(frame.pattern, fullmatch=True))
    assert first_word(clause) in frame.lead_words


@settings(max_examples=400)
@given(data=st.data(), frame=st.sampled_from(FRAMES))
def test_generated_clauses_read_as_the_scan_of_every_frame(data, frame):
    clause = data.draw(st.from_regex(frame.pattern, fullmatch=True))
    question = data.draw(st.booleans())
    assert read_forms(clause, question) == scan_every_frame(clause, question)


def test_every_corpus_clause_reads_as_the_scan_of_every_frame():
    clauses = corpus_clauses()
    assert len(clauses) > 500
    for question in (False, True):
        assert [read_forms(c, question) for c in clauses] == [
            scan_every_frame(c, question) for c in clauses
        ]
