"""Smoke lane: the engine answers, classifies and grounds the basic cases."""

from __future__ import annotations

import pytest

from reference.lexicon import default_lexicon
from reference.realize.compose import REFUSAL
from reference.runtime import ChatRuntime
from reference.truth.intent import IntentTag, classify_intent
from reference.truth.text import normalize, tokenize


def classify(text: str):
    normalized = normalize(text)
    return classify_intent(normalized, tokenize(normalized), default_lexicon())


@pytest.mark.parametrize(
    ("text", "intent", "subject"),
    [
        ("What is light?", IntentTag.DEFINITION, "light"),
        ("Now tell me about memory.", IntentTag.NARRATIVE, "memory"),
        ("No, a parent is a guide.", IntentTag.CORRECTION, "parent"),
        ("Actually, water is a river.", IntentTag.CORRECTION, "water"),
        ("Compare light and darkness.", IntentTag.COMPARISON, "light"),
        ("What is the difference between fire and water?", IntentTag.COMPARISON, "fire"),
        ("How is light connected to memory?", IntentTag.TRANSITIVE_QUERY, "light"),
        ("Think of memory as a river.", IntentTag.FRAME_TRANSFER, "memory"),
        ("Why does rain fall?", IntentTag.CAUSE, "rain"),
        ("How do I plant a seed?", IntentTag.PROCEDURE, "seed"),
        ("Give me an example of a river.", IntentTag.EXAMPLE, "river"),
        ("Is water a kind of fire?", IntentTag.VERIFICATION, "water"),
        ("What did I say about light?", IntentTag.RECALL, "light"),
        ("Nothing here makes sense", IntentTag.UNKNOWN, None),
        ("hello", IntentTag.UNKNOWN, None),
        ("Knowledge matters.", IntentTag.UNKNOWN, "knowledge"),
    ],
)
def test_classify(text, intent, subject):
    result = classify(text)
    assert result.intent is intent
    if subject is not None or not result.terms:
        assert result.subject == subject


@pytest.mark.parametrize("word", ["now", "nothing", "notion", "nobody"])
def test_no_rule_is_whole_word(word):
    assert classify(f"{word} tell me about memory.").intent is IntentTag.NARRATIVE


def test_lexicon_shape():
    lexicon = default_lexicon()
    assert len(lexicon.packs) >= 3
    assert len(lexicon.lemmas) >= 80
    assert sum(not e.has_gloss for e in lexicon.lemmas) >= 15
    assert all(len(e.domains) >= 3 for e in lexicon.lemmas)


def test_glossed_surface():
    response = ChatRuntime().chat("What is light?")
    assert response.surface == (
        "Light is a source of revelation that makes things knowable. pack-grounded (en_core_v1)."
    )
    assert response.grounding_source == "pack"


def test_glossless_surface_discloses_three_domains():
    parent = default_lexicon().lookup("parent")
    response = ChatRuntime().chat("What is a parent?")
    head = "; ".join(parent.domains[:3])
    assert response.surface == (
        f"parent — pack-grounded (relations_v1): {head}. No session evidence yet."
    )


def test_refusal_and_oov():
    runtime = ChatRuntime()
    assert runtime.chat("hello").surface == REFUSAL
    oov = runtime.chat("What is a zorbleflax?")
    assert oov.grounding_source == "oov"
    assert "'zorbleflax'" in oov.surface


def test_session_evidence_changes_a_repeat():
    runtime = ChatRuntime()
    first = runtime.chat("Tell me about parent.")
    second = runtime.chat("Tell me about parent.")
    assert "No session evidence yet." in first.surface
    assert "Session evidence: 1 earlier turn(s)." in second.surface
    assert first.trace_hash != second.trace_hash


def test_correction_then_recall_is_vault_grounded():
    runtime = ChatRuntime()
    correction = runtime.chat("No, a parent is a guide.")
    assert correction.grounding_source == "vault"
    recall = runtime.chat("What did I say about parent?")
    assert recall.grounding_source == "vault"
    assert "You said it is a guide." in recall.surface


def test_teaching_chain_grounds_transitive_query():
    response = ChatRuntime().chat("How is light connected to memory?")
    assert response.grounding_source == "teaching"
    assert "light-to-memory" in response.surface


def test_partial_grounding():
    response = ChatRuntime().chat("Compare light and zorbleflax.")
    assert response.grounding_source == "partial"


def test_no_lemma_is_a_stopword():
    from reference.truth.text import STOPWORDS

    assert [e.lemma for e in default_lexicon().lemmas if e.lemma in STOPWORDS] == []
