"""An EXAMPLE tells kinds of its subject (docs/intents.md § Answers, EXAMPLE).

Its instances come from the steps that make something a kind of the subject: ``subject
includes Y`` leading out of it, then ``Y is a form of subject`` leading into it. A step that
makes the subject a kind of something else (``Z includes subject``) is no instance of it, and
only a lemma with steps both ways tells the two apart, so every lemma of the lexicon is asked.
"""

from __future__ import annotations

from typing import Any

from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.cognition_forward import whole_lexicon
from conformance.requirements.cognition_paths import path_of
from conformance.requirements.cognition_says import CAPABILITIES, says_of
from conformance.requirements.cognition_steps import (
    KIND_INTO,
    KIND_OUT,
    Step,
    answers_in_one_session,
)
from conformance.requirements.registry import requirement

EXAMPLE = "Give me an example of {a}."
"""docs/intents.md § The table of forms: `give me an example of A`."""


def _kind_of(step: Step, subject: str) -> bool:
    """Whether *step* makes something a kind of *subject*: ``subject includes Y`` leading out
    of it, or ``Y is a form of subject`` leading into it (docs/intents.md § Answers,
    EXAMPLE)."""
    source, relation, target = step
    return (source == subject and relation == KIND_INTO) or (
        target == subject and relation == KIND_OUT
    )


def _example_judged(subject: str, result: Any) -> str | None:
    """What is wrong with the EXAMPLE of *subject* (None also when it was read as another
    intent or about another subject)."""
    if result.get("intent") != "EXAMPLE" or result.get("subject") != subject:
        return None
    steps = path_of(says_of(result))
    kinds = [step for step in steps if _kind_of(step, subject)]
    if kinds and len(kinds) != len(steps):
        others = [" ".join(s) for s in steps if s not in kinds]
        return (
            f"{EXAMPLE.format(a=subject)!r} tells steps that make something a kind of "
            f"{subject} and also {others}: the instances come from those steps alone"
        )
    out = [s for s in kinds if s[0] == subject]
    if kinds and (kinds[: len(out)] != out or out != sorted(out)):
        return (
            f"{EXAMPLE.format(a=subject)!r} tells {steps}: the steps leading out of {subject} "
            "first, each in sorted order"
        )
    return None


@requirement(
    "COG-STEP-705",
    "the EXAMPLE of every lemma that tells a step making something a kind of it (it "
    "includes Y, or Y is a form of it) tells such steps only, at most three, those leading "
    "out of it first and in sorted order: never a step making it a kind of something else "
    "(Z includes it) (whole lexicon)",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/intents.md § Answers (EXAMPLE: up to three instances from the steps that make "
    "something a kind of the subject, those leading out of it, then those leading into it, "
    "each in sorted order)",
    cover=whole_lexicon,
)
def examples_are_kinds_of_the_subject(engine: EngineClient, lemmas: list[str]) -> None:
    answers = answers_in_one_session(engine, [EXAMPLE.format(a=a) for a in lemmas])
    found = [
        wrong
        for subject, result in zip(lemmas, answers, strict=True)
        if (wrong := _example_judged(subject, result))
    ]
    counted = [
        f"{EXAMPLE.format(a=s)!r} tells {len(member(says_of(r), 'steps', 'array'))} steps"
        for s, r in zip(lemmas, answers, strict=True)
        if r.get("intent") == "EXAMPLE" and len(member(says_of(r), "steps", "array")) > 3
    ]
    assert not found + counted, "\n".join(found + counted)
