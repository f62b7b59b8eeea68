"""What an answer must say, where its words are free: a VERIFICATION says a verdict.

docs/intents.md § Answers: a VERIFICATION answer says a verdict (yes, no or not known) and
then what the pack says of its subject; a DEFINITION says only what the pack says. So in
the same state (a fresh session, no register) the two surfaces are never the same text.
"""

from __future__ import annotations

from typing import Any

from conformance.coverage import GLOSSED_SPREAD, Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

DEFINITION = "What is {a}?"
VERIFICATION = "Is {a} a kind of {b}?"


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
    (verified,) = run_script(engine, None, [asked])
    if verified.get("intent") != "VERIFICATION" or verified.get("subject") != lemma:
        return
    (defined,) = run_script(engine, None, [DEFINITION.format(a=lemma)])
    assert verified.get("surface") != defined.get("surface"), (
        f"{asked!r} is answered {verified.get('surface')!r}, word for word the DEFINITION of "
        f"{lemma}: it says no verdict (yes, no or not known)"
    )
