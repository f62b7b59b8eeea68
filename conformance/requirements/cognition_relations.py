"""Relations that hold where the words of an answer are free: the reading is the text's.

docs/intents.md § How a prompt is read: step 1 normalises (NFC, one kind of apostrophe,
lowercase, single spaces) and every later step reads the normalised text alone, so two
prompts equal after step 1 are read alike: the same intent, subject and grounding source.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from conformance import cases as cases_
from conformance import rules
from conformance.canonical import canonical_json
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.inherited_names import PROMPT_WORDS, as_named, control
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

KEYS = ("intent", "subject", "grounding_source")
SPREAD = 5
"""Every prompt with an apostrophe, and every fifth other one-turn case of the catalogue."""

VARIANTS: dict[str, Callable[[str], str]] = {
    "upper case": str.upper,
    "spaces doubled and tabs": lambda text: text.replace(" ", " \t "),
    "typographic apostrophe": lambda text: text.replace("'", "\u2019"),
    "decomposed (NFD)": lambda text: unicodedata.normalize("NFD", text),
    "padded": lambda text: f"  {text}\n",
}
"""Rewritings that step 1 undoes: each variant of a prompt normalises to the prompt's own
normalised text."""


def variant_plan(ctx: SuiteContext) -> Plan:
    """One-turn cases of the rule catalogue (see :data:`SPREAD`), with every variant."""
    del ctx
    single = [c["turns"][0] for c in rules.catalogue()["cases"] if len(c["turns"]) == 1]
    prompts = [p for i, p in enumerate(single) if "'" in p or i % SPREAD == 0]
    classes = tuple(("variants", name) for name in VARIANTS)
    return Plan((Case(prompts, classes),), (("variants", len(VARIANTS)),))


def _reading(engine: EngineClient, text: str) -> tuple[Any, ...]:
    last = run_script(engine, None, [text])[-1]
    return tuple(last.get(key) for key in KEYS)


@requirement(
    "COG-META-001",
    "prompts equal after normalisation (case, white space, apostrophe kind, NFC) are read "
    "alike: the same intent, subject and grounding source",
    family="cognition",
    capabilities=("sessions",),
    seed="docs/intents.md § How a prompt is read, step 1 (every step reads the text alone)",
    cover=variant_plan,
)
def normalisation_equal_prompts(engine: EngineClient, prompts: list[str]) -> None:
    found = []
    for prompt in prompts:
        plain = _reading(engine, prompt)
        for name, rewrite in VARIANTS.items():
            other = _reading(engine, rewrite(prompt))
            if other != plain:
                said, plainly = (
                    dict(zip(KEYS, other, strict=True)),
                    dict(zip(KEYS, plain, strict=True)),
                )
                found.append(f"{prompt!r} ({name}): {said} vs {plainly}")
    assert not found, cases_.lines(found, f"{len(found)} variants read differently:")


WORD_SCRIPTS = (
    ("What is a {w}?",),
    ("Tell me about the {w}.",),
    ("Why do {w}s grow?",),
    ("Is a {w} a fish?",),
    ("No, a {w} is not a fish.",),
    ("Compare {w} and air.",),
    ("How is {w} connected to seed?",),
    ("Give me an example of {w}.",),
    ("Explain {w} through the lens of water.",),
    ("How do I make a {w}?",),
    ("The {w}'s light is bright.",),
    ("What is the word {w}?",),
    ("{w}",),
    ("A {w} is a river.", "What do you remember about {w}?", "Tell me more."),
    ("Light is a {w}.", "What is light?", "Is light a {w}?"),
)
"""Scripts with one word no pack holds, in each kind of place a form reads a word from,
and across turns (a claim kept, recalled, referred back to)."""

WORD_KEYS = ("intent", "subject", "grounding_source", "says")


def word_plan(ctx: SuiteContext) -> Plan:
    """Every script with every inherited name that is a word."""
    del ctx
    scripts = [list(script) for script in WORD_SCRIPTS]
    classes = tuple(("words", word) for word in PROMPT_WORDS)
    return Plan((Case(scripts, classes),), (("words", len(PROMPT_WORDS)),))


def _as_word(reading: str, word: str) -> str:
    """A reading of *word*'s control in the terms of *word*, lowercased (as step 1 reads it)
    or as typed."""
    return as_named(as_named(reading, word.lower()), word)


def _readings(engine: EngineClient, script: list[str], word: str) -> list[str]:
    turns = run_script(engine, None, [turn.format(w=word) for turn in script])
    return [canonical_json({key: turn.get(key) for key in WORD_KEYS}) for turn in turns]


@requirement(
    "COG-META-002",
    "a prompt word spelt like a name a programming language's objects inherit "
    "(constructor, prototype, length, toString, valueOf, hasOwnProperty) is read like any "
    "word no pack holds: every turn of a script gets the intent, subject, grounding source "
    "and says its control (the word one letter away) gets, the word in place",
    family="cognition",
    capabilities=("sessions",),
    seed="docs/intents.md § How a prompt is read (the steps read the text alone; closed "
    "lists); § Subjects; docs/protocol.md § Closed lists are matched exactly",
    cover=word_plan,
)
def inherited_words_read_alike(engine: EngineClient, scripts: list[list[str]]) -> None:
    found = []
    for script in scripts:
        for word in PROMPT_WORDS:
            named = _readings(engine, script, word)
            other = [_as_word(t, word) for t in _readings(engine, script, control(word))]
            for number, (got, expected) in enumerate(zip(named, other, strict=True)):
                if got != expected:
                    prompt = script[number].format(w=word)
                    found.append(f"{prompt!r} (turn {number}): {got} vs its control {expected}")
    assert not found, cases_.lines(found, f"{len(found)} turns read unlike their control:")
