"""docs/intents.md is normative: every example in its table of forms classifies as stated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lanes._support.cognition import load_cases
from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime
from reference.truth.intent import IntentTag, classify_intent
from reference.truth.text import STOPWORDS, normalize, tokenize, word_base

DOC = Path(__file__).resolve().parents[2] / "docs" / "intents.md"
ROW = re.compile(r"^\| (?P<intent>[A-Z_]+) \| .+ \| `(?P<example>[^`]+)` \| (?P<subject>[^|]+) \|$")


def table_rows() -> list[tuple[str, str, str | None]]:
    """(intent, example prompt, subject or None) for each row of the table of forms."""
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            subject = found["subject"].strip()
            rows.append((found["intent"], found["example"], None if subject == "-" else subject))
    return rows


def classify(text: str):
    normalized = normalize(text)
    return classify_intent(normalized, tokenize(normalized), default_lexicon())


def test_the_table_covers_every_intent():
    rows = table_rows()
    assert len(rows) >= 80
    assert {intent for intent, _, _ in rows} == {tag.name for tag in IntentTag}


@pytest.mark.parametrize(("intent", "example", "subject"), table_rows())
def test_each_example_has_the_documented_intent_and_subject(intent, example, subject):
    result = classify(example)
    assert (result.intent.name, result.subject) == (intent, subject)


@pytest.mark.parametrize(
    ("prompt", "intent"),
    [
        ("Compare memory and recall.", IntentTag.COMPARISON),
        ("Does memory require recall?", IntentTag.VERIFICATION),
        ("How do I compare two terms?", IntentTag.PROCEDURE),
        ("What is recall?", IntentTag.DEFINITION),
        ("What is a correction?", IntentTag.DEFINITION),
        ("What is an example?", IntentTag.DEFINITION),
        ("Define compare.", IntentTag.DEFINITION),
        ("Tell me about recall.", IntentTag.NARRATIVE),
        ("Give me an example of an example.", IntentTag.EXAMPLE),
        ("Why is recall hard?", IntentTag.CAUSE),
    ],
)
def test_a_lemma_named_like_a_form_word_does_not_capture_the_intent(prompt, intent):
    assert classify(prompt).intent is intent


@pytest.mark.parametrize(
    "prompt",
    ["No, that's wrong", "That's it.", "It's what's there.", "That's it, isn't it?", "Don't."],
)
def test_a_contraction_is_never_the_subject(prompt):
    result = classify(prompt)
    assert result.subject is None
    assert ChatRuntime().chat(prompt).subject is None


def test_subjects_of_the_public_cases_are_content_words():
    for case in load_cases("public"):
        for turn in case.turns:
            for term in classify(turn.prompt).terms:
                assert term not in STOPWORDS and "'" not in term, (turn.prompt, term)
                assert word_base(term) == term


@pytest.mark.parametrize("word", ["meaning", "terms", "example", "recall", "cause", "compare"])
def test_content_words_are_not_stopwords(word):
    assert word not in STOPWORDS
    result = classify(f"What is {word}?")
    assert (result.intent, result.subject) == (IntentTag.DEFINITION, word)


def test_what_is_meaning_names_its_subject():
    response = ChatRuntime().chat("What is meaning?")
    assert (response.subject, response.grounding_source) == ("meaning", "pack")


@pytest.mark.parametrize(
    "prompt",
    [
        "Compare reason and cause.",
        "What is the difference between reason and a zorbleflax?",
        "Think of reason as a zorbleflax.",
        "How is reason connected to a zorbleflax?",
        "What connects a zorbleflax and trust?",
        "Tell me about the zorbleflax and the moon.",
    ],
)
def test_an_unknown_subject_among_several_is_partial_and_named(prompt):
    response = ChatRuntime().chat(prompt)
    assert response.grounding_source == "partial"
    unknown = "'cause'" if "cause" in prompt else "'zorbleflax'"
    assert unknown in response.surface
