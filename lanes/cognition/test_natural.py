"""Prompts as people write them: the sealed natural holdout in aggregate, the public
development set case by case, and the strictness of "says something about the subject".

The natural holdout is never printed case by case (docs/golden.md § The natural holdout):
its assertions report the aggregate figures only.
"""

from __future__ import annotations

import pytest

from lanes._support.cognition import REGISTERS
from lanes._support.natural import (
    NaturalCase,
    NaturalTurn,
    lemma_of,
    load_natural,
    measure_natural,
    says_something,
)
from reference.lexicon import default_lexicon
from reference.runtime import ChatResponse, ChatRuntime

HOLDOUT_FLOOR = 0.9
HOLDOUT_SAYS_NOTHING_CEILING = 0.1
DEV_FLOOR = 0.95
DEV_SAYS_NOTHING_CEILING = 0.05
LEXICON = default_lexicon()


@pytest.mark.parametrize("register", REGISTERS)
def test_natural_holdout_meets_the_targets_under_every_register(register):
    score = measure_natural(load_natural(), register)
    figures = (
        f"{register}: intent {score.intent_accuracy:.1%}, subject {score.subject_accuracy:.1%}, "
        f"says nothing {score.says_nothing_share:.1%} over {score.turns} turns"
    )
    assert score.intent_accuracy >= HOLDOUT_FLOOR, figures
    assert score.subject_accuracy >= HOLDOUT_FLOOR, figures
    assert score.says_nothing_share <= HOLDOUT_SAYS_NOTHING_CEILING, figures


def _misses(case: NaturalCase) -> list[str]:
    runtime = ChatRuntime()
    misses = []
    for index, turn in enumerate(case.turns):
        response = runtime.chat(turn.prompt)
        subject = lemma_of(response.subject, LEXICON)
        earlier = [t.prompt for t in case.turns[:index]]
        nothing = turn.subject is not None and not says_something(turn, response, earlier, LEXICON)
        if response.intent != turn.intent or subject != lemma_of(turn.subject, LEXICON) or nothing:
            misses.append(f"{case.id} {turn.prompt!r}: {response.intent}/{response.subject}")
    return misses


def test_public_development_set_is_read_and_answered():
    cases = load_natural("natural_dev")
    score = measure_natural(cases, "none")
    misses = [miss for case in cases for miss in _misses(case)]
    assert score.intent_accuracy >= DEV_FLOOR, misses
    assert score.subject_accuracy >= DEV_FLOOR, misses
    assert score.says_nothing_share <= DEV_SAYS_NOTHING_CEILING, misses


def _response(surface: str, source: str = "pack") -> ChatResponse:
    return ChatResponse(surface, surface, "0" * 64, source, "DEFINITION", "x", 0, 0.0, None, "")


def _turn(subject: str, *must: str) -> NaturalTurn:
    return NaturalTurn("a prompt", "DEFINITION", subject, must)


@pytest.mark.parametrize(
    ("surface", "source", "says"),
    [
        ("River is a large stream of water flowing toward the sea. pack-grounded", "pack", True),
        ("Partly grounded: river pack-grounded; nothing grounds 'x'.", "partial", False),
        ("I don't know 'river' yet — not in any language pack.", "oov", False),
        ("Nothing grounds 'river': a large stream of water flowing toward the sea.", "pack", False),
        ("Yes: a river is wet.", "pack", True),
        ("Not known: river.", "pack", False),
        ("Rain fills river; river flows into ocean.", "teaching", True),
        ("A large stream of water flowing toward the sea.", "pack", False),
    ],
)
def test_saying_something_about_the_subject_is_strict(surface, source, says):
    assert says_something(_turn("river"), _response(surface, source), [], LEXICON) is says


def test_a_gloss_less_lemma_is_spoken_of_by_its_domains():
    surface = "cousin — pack-grounded (relations_v1): kinship; family. No session evidence yet."
    assert says_something(_turn("cousin"), _response(surface), [], LEXICON)


def test_every_must_mention_word_is_needed():
    surface = "You said river is a road. River is a large stream of water flowing toward the sea."
    assert says_something(_turn("river", "road"), _response(surface), [], LEXICON)
    assert not says_something(_turn("river", "road", "boat"), _response(surface), [], LEXICON)


def test_what_the_user_said_counts_only_from_an_earlier_prompt_naming_the_subject():
    surface = "In turn 1 you said the river was a road."
    assert says_something(_turn("river"), _response(surface), ["The river is a road."], LEXICON)
    assert not says_something(_turn("river"), _response(surface), ["A road."], LEXICON)
