"""Each numbered rule of docs/intents.md § How a prompt is read, and each rule of § Subjects,
held to examples of its own."""

from __future__ import annotations

import pytest

from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime
from reference.truth.intent import classify_intent, read
from reference.truth.sentences import split_sentences
from reference.truth.spelling import expand, mend, mend_stem, one_edit, reading_text
from reference.truth.text import normalize, tokenize

LEXICON = default_lexicon()


def known(word: str) -> bool:
    return LEXICON.lookup(word) is not None


def reading(prompt: str, context: str | None = None) -> tuple[str, str | None]:
    normalized = normalize(prompt)
    result = classify_intent(normalized, tokenize(normalized), LEXICON, context)
    return result.intent.name, result.subject


@pytest.mark.parametrize(
    ("word", "mended"),
    [
        ("waht", "what"),
        ("teh", "the"),
        ("wat", "what"),
        ("diffrence", "difference"),
        ("exmaple", "example"),
        ("hwo", "hwo"),
        ("doe", "doe"),
        ("wheat", "wheat"),
        ("cold", "cold"),
        ("form", "form"),
        ("relates", "relates"),
        ("ab", "ab"),
    ],
)
def test_step_2_mends_a_word_one_edit_from_exactly_one_target(word, mended):
    assert mend(word, known) == mended


def test_step_2_edits_are_a_swap_or_an_inner_letter_left_out():
    assert one_edit("abotu", "about") and one_edit("abut", "about")
    assert not one_edit("bout", "about") and not one_edit("abou", "about")
    assert not one_edit("aboutt", "about") and not one_edit("abxut", "about")


@pytest.mark.parametrize(
    ("text", "spelt"),
    [
        ("what's", "what is"),
        ("isn't", "is not"),
        ("can't", "can not"),
        ("won't", "will not"),
        ("river's", "river's"),
        ("i'd", "i would"),
        ("whats", "what is"),
        ("dont", "do not"),
        ("u", "you"),
        ("its", "its"),
    ],
)
def test_step_3_spells_out_the_closed_list_of_contractions(text, spelt):
    assert expand(text) == spelt


def test_step_3_mends_a_contraction_stem_first():
    assert reading_text("wht's a lake", lambda word: mend_stem(word, known)) == "what is a lake"


@pytest.mark.parametrize(
    ("prompt", "intent", "subject"),
    [
        ("No, a whale isn't a fish.", "CORRECTION", "whale"),
        ("That's not right. The moon is made of rock.", "CORRECTION", "moon"),
        ("Wrong. Honey comes from bees.", "CORRECTION", "honey"),
        ("You've got it backwards: the moon pulls the tide.", "CORRECTION", "moon"),
        ("Actually, what is light?", "DEFINITION", "light"),
        ("No, that's wrong.", "CORRECTION", None),
    ],
)
def test_step_5_correction_leads_and_their_claims(prompt, intent, subject):
    assert reading(prompt) == (intent, subject)


def test_step_5a_the_claim_keeps_its_verb():
    assert read(normalize("No, a whale isn't a fish."), LEXICON).claim == "is not a fish"
    assert read(normalize("Wrong. Honey comes from bees."), LEXICON).claim == "comes from bees"


@pytest.mark.parametrize(
    ("text", "clauses", "questions"),
    [
        ("the sky is dark. why?", ["the sky is dark", "why"], [False, True]),
        ("rain vs. snow", ["rain vs. snow"], [False]),
        ("honor — what is it?", ["honor", "what is it"], [False, True]),
        ("quick question: what is a comet?", ["quick question", "what is a comet"], [False, True]),
        ("mist and fog: the same", ["mist and fog: the same"], [False]),
        ("i think owls hunt at night.", ["owls hunt at night"], [True]),
    ],
)
def test_step_6_sentences_and_questions(text, clauses, questions):
    from reference.truth.intent import prepare, puts_belief

    sentences = split_sentences(text, prepare, puts_belief)
    assert [s.clause for s in sentences] == clauses
    assert [s.question for s in sentences] == questions


@pytest.mark.parametrize(
    ("prompt", "intent", "subject"),
    [
        ("Could you tell me what a cousin is?", "DEFINITION", "cousin"),
        ("I've always wondered why stars shine.", "CAUSE", "stars"),
        ("Tell me if whales are fish.", "VERIFICATION", "whales"),
        ("Remind me, what did I say about trees?", "RECALL", "trees"),
        ("Can someone tell me what dusk is", "DEFINITION", "dusk"),
        ("Define patience for me.", "DEFINITION", "patience"),
    ],
)
def test_step_7_unwraps_wrappers_and_interjections(prompt, intent, subject):
    assert reading(prompt) == (intent, subject)


@pytest.mark.parametrize(
    ("prompt", "intent", "subject"),
    [
        ("Use a river to explain hope, like a metaphor.", "FRAME_TRANSFER", "river"),
        ("Lake and pond, similar?", "COMPARISON", "lake"),
        ("Any shortcut to baking bread.", "UNKNOWN", "bread"),
        ("So bees make honey?", "VERIFICATION", "bees"),
        ("Bees make honey.", "UNKNOWN", "bees"),
        ("Rivers and mountains?", "UNKNOWN", "rivers"),
    ],
)
def test_step_8_cue_words_then_a_statement_asked(prompt, intent, subject):
    assert reading(prompt) == (intent, subject)


@pytest.mark.parametrize(
    ("prompt", "intent", "subject"),
    [
        ("I have a question. What is a comet?", "DEFINITION", "comet"),
        ("What is a comet? I've never heard the word.", "DEFINITION", "comet"),
        ("I heard that owls are wise. Is that true?", "VERIFICATION", "owls"),
        ("The sky gets dark at night. Why?", "CAUSE", "sky"),
        ("Earlier I told you something about wolves. What was it?", "RECALL", "wolves"),
        ("Balance. What does that word mean?", "DEFINITION", "balance"),
    ],
)
def test_step_9_the_sentence_that_decides_and_its_referent(prompt, intent, subject):
    assert reading(prompt) == (intent, subject)


@pytest.mark.parametrize(
    ("prompt", "subject"),
    [
        ("How do I grow a garden?", "garden"),
        ("I love rainbows!", "rainbows"),
        ("Why do we dream at night?", "dream"),
        ("Why do people feel anger?", "anger"),
        ("What is a river delta?", "river"),
        ("Teach me to listen.", "listen"),
    ],
)
def test_subjects_verbs_by_position_go_last_and_known_lemmas_first(prompt, subject):
    assert reading(prompt)[1] == subject


def test_subjects_a_word_that_refers_back_takes_the_latest_subject():
    assert reading("Tell me more about it.", context="moon") == ("NARRATIVE", "moon")
    assert reading("Tell me more about it.") == ("NARRATIVE", None)
    assert reading("Why do they hunt at night?", context="owls")[1] == "owls"
    assert reading("Why does it rain?", context="moon")[1] == "rain"


def test_the_latest_subject_of_a_session_is_what_it_refers_to():
    runtime = ChatRuntime()
    runtime.chat("What's a river?")
    assert runtime.chat("Does it flow into the sea?").subject == "river"


@pytest.mark.parametrize(
    ("word", "lemma"),
    [("listening", "listen"), ("forgiving", "forgive"), ("trees", "tree"), ("wolves", "wolf")],
)
def test_word_folding(word, lemma):
    entry = LEXICON.lookup(word)
    assert entry is not None and entry.lemma == lemma
