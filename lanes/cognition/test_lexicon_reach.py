"""The shipped lexicon: large enough to measure, every lemma reachable and on a chain."""

from __future__ import annotations

import pytest

from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime
from reference.truth.text import STOPWORDS

LEXICON = default_lexicon()
LEMMAS = LEXICON.lemmas


def _plurals(lemma: str) -> list[str]:
    forms = [lemma + "s", lemma + "es"]
    if lemma.endswith("y"):
        forms.append(lemma[:-1] + "ies")
    return forms


def test_size_and_gloss_less_share():
    assert len(LEMMAS) >= 300
    assert sum(not entry.has_gloss for entry in LEMMAS) >= 30
    assert {entry.pack_id for entry in LEMMAS} == {pack.pack_id for pack in LEXICON.packs}


def test_every_lemma_is_reachable_as_a_pack_grounded_definition():
    runtime = ChatRuntime()
    for entry in LEMMAS:
        response = runtime.chat(f"What is {entry.lemma}?")
        assert response.intent == "DEFINITION", entry.lemma
        assert response.subject == entry.lemma, entry.lemma
        assert response.grounding_source == "pack", entry.lemma
        assert f"({entry.pack_id})" in response.surface, entry.lemma


@pytest.mark.parametrize("entry", LEMMAS, ids=lambda e: e.lemma)
def test_no_plural_form_lands_on_another_lemma(entry):
    for form in _plurals(entry.lemma):
        found = LEXICON.lookup(form)
        assert found is None or found.lemma == entry.lemma, (form, found.lemma)


def test_no_lemma_is_a_function_word():
    assert [entry.lemma for entry in LEMMAS if entry.lemma in STOPWORDS] == []


def test_teaching_chains_connect_every_lemma():
    on_a_chain = {lemma for chain in LEXICON.chains for lemma in chain.lemmas}
    assert [entry.lemma for entry in LEMMAS if entry.lemma not in on_a_chain] == []
