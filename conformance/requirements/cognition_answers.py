"""What an answer must say, where its words are free: a VERIFICATION says a verdict, and
a RECALL where nothing was said says so.

docs/intents.md § Answers: a VERIFICATION answer says a verdict (yes, no or not known) and
then what the pack says of its subject; a DEFINITION says only what the pack says. So in
the same state (a fresh session, no register) the two surfaces are never the same text.
A RECALL of a subject nothing was said about says so first, so it is never that subject's
DEFINITION; a RECALL without a subject in a fresh session says nothing was said, so it is
never the answer a prompt without a subject gets. "Saying that nothing was said has one
fixed part: the word `said`, letter case aside, as a whole word. With a subject it comes
before what the pack says of the subject (the answer says so *first*). Every register
keeps it": so under each of the four registers the surface says ``said``, and with a
subject before the gloss as the pack words it.
"""

from __future__ import annotations

import re
from typing import Any

from conformance import cases as cases_
from conformance.coverage import GLOSSED_SPREAD, Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.model import SuiteContext
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.cognition_pack import packs
from conformance.requirements.registry import requirement
from conformance.surface_items import plain

DEFINITION = "What is {a}?"
VERIFICATION = "Is {a} a kind of {b}?"
RECALL = "What did I say about {a}?"
RECALL_ALL = "What did I say?"
NO_SUBJECT = ("Why?", "What is it?", "Tell me more.")
"""Prompts with no content word and, in a fresh session, nothing to refer back to."""


def _spread(items: list[str], count: int) -> list[str]:
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def verdict_plan(ctx: SuiteContext) -> Plan:
    """Every gloss-less lemma and a spread of glossed ones, each asked about another lemma."""
    lemmas = sorted({e.lemma for e in ctx.lexicon})
    glossless = sorted({e.lemma for e in ctx.lexicon if not e.has_gloss})
    glossed = _spread(sorted({e.lemma for e in ctx.lexicon if e.has_gloss}), GLOSSED_SPREAD)
    pairs = []
    for lemma in [*glossless, *glossed]:
        other = lemmas[(lemmas.index(lemma) + 1) % len(lemmas)]
        kind = "gloss-less lemmas" if lemma in glossless else "glossed lemmas"
        pairs.append(Case([lemma, other], ((kind, lemma),)))
    universe = (("gloss-less lemmas", len(glossless)), ("glossed lemmas", len(glossed)))
    return Plan(tuple(pairs), universe)


def _worded_as_definition(engine: EngineClient, asked: str, intent: str, lemma: str) -> str | None:
    """The surface *asked* gets in a fresh session when it is read as *intent* about *lemma*
    and is word for word the DEFINITION of *lemma* in a fresh session; else ``None``."""
    (answer,) = run_script(engine, None, [asked])
    if answer.get("intent") != intent or answer.get("subject") != lemma:
        return None
    (defined,) = run_script(engine, None, [DEFINITION.format(a=lemma)])
    surface = answer.get("surface")
    return surface if surface == defined.get("surface") else None


@requirement(
    "COG-VERDICT-001",
    "a VERIFICATION of a known subject says a verdict: its surface is never the surface the "
    "DEFINITION of that subject gets in the same state (gloss-less lemmas included)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Answers (VERIFICATION: a verdict, yes, no or not known)",
    cover=verdict_plan,
)
def verification_says_a_verdict(engine: EngineClient, pair: list[Any]) -> None:
    lemma, other = pair
    asked = VERIFICATION.format(a=lemma, b=other)
    surface = _worded_as_definition(engine, asked, "VERIFICATION", lemma)
    assert surface is None, (
        f"{asked!r} is answered {surface!r}, word for word the DEFINITION of {lemma}: it "
        "says no verdict (yes, no or not known)"
    )


SAID = re.compile(r"(?<!\w)said(?!\w)")
"""The fixed part of saying that nothing was said: the whole word ``said``, letter case
aside (matched in the surface put in lower case)."""


def _first_of_gloss(lemma: str, text: str) -> int | None:
    """Where in *text* (in lower case, white space runs as one space) *lemma*'s gloss, as
    the pack words it, first occurs; ``None`` when the lemma is no lemma of the shipped
    packs, has no gloss, or the text does not say it (COG-ANSWER-006 judges that). A
    gloss-less lemma's domains are single words a correct nothing-said sentence may hold
    before ``said``, so only a gloss places what the pack says."""
    entry = packs().get(lemma)
    if entry is None or entry["gloss"] is None:
        return None
    found = text.find(plain(entry["gloss"]))
    return found if found >= 0 else None


def nothing_said_unsaid(surface: str, lemma: str | None) -> str | None:
    """What a nothing-said RECALL's *surface* gets wrong of its fixed part, or ``None``."""
    text = plain(surface)
    said = SAID.search(text)
    if said is None:
        return "it does not say the word 'said' (letter case aside, as a whole word)"
    pack = _first_of_gloss(lemma, text) if lemma is not None else None
    if pack is not None and pack < said.start():
        return (
            f"it says what the pack says of {lemma} before the word 'said': the answer "
            "says first that nothing was said"
        )
    return None


@requirement(
    "COG-RECALL-001",
    "a RECALL of a known subject nothing was said about says so first: its surface in a "
    "fresh session is never the DEFINITION's of that subject in the same state, and under "
    "every register says the whole word 'said' (letter case aside) before what the pack "
    "says of the subject (its gloss)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Answers (RECALL: says plainly that nothing was said, first; "
    "saying that nothing was said has one fixed part: the word `said`)",
    cover=verdict_plan,
)
def recall_of_unsaid_subject_says_so(engine: EngineClient, pair: list[Any]) -> None:
    lemma = pair[0]
    asked = RECALL.format(a=lemma)
    surface = _worded_as_definition(engine, asked, "RECALL", lemma)
    assert surface is None, (
        f"{asked!r} in a fresh session is answered {surface!r}, word for word the "
        f"DEFINITION of {lemma}: it does not say that nothing was said about it"
    )
    found = []
    for register in FOUR_REGISTERS:
        (answer,) = run_script(engine, register, [asked])
        if answer.get("intent") != "RECALL" or answer.get("subject") != lemma:
            continue
        wrong = nothing_said_unsaid(str(answer.get("surface")), lemma)
        if wrong:
            found.append(
                cases_.Disagreement(
                    f"{asked!r} in a fresh session under {register!r}",
                    wrong,
                    repr(answer.get("surface")),
                )
            )
    assert not found, cases_.listing(
        f"{len(found)} answers do not say that nothing was said about {lemma}:", found
    )


@requirement(
    "COG-RECALL-002",
    "a RECALL without a subject where nothing was said says so: its surface in a fresh "
    "session says the whole word 'said' (letter case aside) under every register, and is "
    "never the surface a prompt without a subject that is no RECALL gets in the same state",
    family="cognition",
    capabilities=("sessions",),
    seed="docs/intents.md § Answers (RECALL: says plainly that nothing was said; saying "
    "that nothing was said has one fixed part: the word `said`)",
)
def recall_of_nothing_says_so(engine: EngineClient, _: object) -> None:
    for register in FOUR_REGISTERS:
        (answer,) = run_script(engine, register, [RECALL_ALL])
        if answer.get("intent") != "RECALL" or answer.get("subject") is not None:
            continue
        wrong = nothing_said_unsaid(str(answer.get("surface")), None)
        assert wrong is None, (
            f"{RECALL_ALL!r} in a fresh session under {register!r} is answered "
            f"{answer.get('surface')!r}: {wrong}, so it does not say that nothing was said"
        )
    (whole,) = run_script(engine, None, [RECALL_ALL])
    if whole.get("intent") != "RECALL":
        return
    for prompt in NO_SUBJECT:
        (other,) = run_script(engine, None, [prompt])
        if other.get("intent") == "RECALL" or other.get("subject") is not None:
            continue
        assert whole.get("surface") != other.get("surface"), (
            f"{RECALL_ALL!r} in a fresh session is answered {whole.get('surface')!r}, word "
            f"for word the answer to {prompt!r}: it does not say that nothing was said"
        )
