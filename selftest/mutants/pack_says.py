"""Broken surfaces: each class words one kind of answer without an item docs/intents.md
§ Answers says it must name (what the pack says of a subject, a step, an unknown word)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reference.lexicon import Lemma, default_lexicon
from reference.realize import compose
from reference.realize.depth import DISCLOSURE_KEY
from reference.runtime import ChatRuntime, TurnRuntime
from reference.serve import ProtocolHandler
from reference.truth.intent import IntentTag
from reference.truth.record import TruthRecord


@contextmanager
def _patched(name: str, value: object) -> Iterator[None]:
    kept = getattr(compose, name)
    setattr(compose, name, value)
    try:
        yield
    finally:
        setattr(compose, name, kept)


def _depth(handler: ProtocolHandler, runtime: TurnRuntime, record: TruthRecord) -> int:
    overrides = runtime.register.realizer_overrides
    return int(handler.resolve_overrides(overrides, record.intent.name))


class DepthOnlyInPackSurface(ProtocolHandler):
    """The disclosure depth shortens only a pack-grounded answer's own disclosure; every other
    answer tells a gloss-less lemma's first three domains whatever the register."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        about = compose.about
        with _patched("about", lambda entry, depth: about(entry, 3)):
            return super().chat(runtime, text)


class VerdictAboutSecondSubject(ProtocolHandler):
    """A VERIFICATION a teaching step decides says what the pack says of the statement's
    second subject instead of its first."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        lemmas = record.grounding.lemmas
        teaching = record.grounding.source == "teaching"
        if record.intent is IntentTag.VERIFICATION and teaching and len(lemmas) > 1:
            depth = _depth(self, runtime, record)
            return compose.verification_surface(lemmas[1], record, {DISCLOSURE_KEY: depth})
        return super().realize_turn(runtime, record)


class GlossVerdictWithoutGloss(ProtocolHandler):
    """A VERIFICATION its subject's gloss decides says its verdict and that the gloss decided
    it, but not the gloss."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        answer = record.grounding.answer
        if answer is not None and answer.by == "gloss" and record.grounding.lemmas:
            entry = record.grounding.lemmas[0]
            word = "Yes" if answer.verdict == "yes" else "No"
            return f"{word}: the pack's gloss of {entry.lemma} says so. ({entry.pack_id})."
        return super().realize_turn(runtime, record)


class GlossJoinedToNextWord(ProtocolHandler):
    """The sentence that ends with a gloss loses its full stop and space, so the next word
    is joined to the gloss's last one (``surrounded by landpack-grounded``), as parts joined
    with no separator would be."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        surface = super().realize_turn(runtime, record)
        for lemma in default_lexicon().lemmas:
            if lemma.gloss:
                surface = surface.replace(f"{lemma.gloss}. ", lemma.gloss, 1)
        return surface


class NarrativeStepsWithoutDomains(ProtocolHandler):
    """A NARRATIVE of a glossed subject that tells teaching steps leaves out its domains."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        narrate = compose.narrative_surface

        def narrative(entry: Lemma, record: TruthRecord, overrides: Any) -> str:
            answer = record.grounding.answer
            if entry.gloss is None or answer is None or not answer.told:
                return narrate(entry, record, overrides)
            steps = "; ".join(
                f"{s.source} {s.relation} {s.target}" for path in answer.told for s in path.steps
            )
            return f"{entry.lemma} is {entry.gloss}. In the teaching chains, {steps}."

        with _patched("narrative_surface", narrative), _singles("narrative_surface"):
            return super().chat(runtime, text)


@contextmanager
def _singles(name: str) -> Iterator[None]:
    """The composer table of single-subject intents, pointing at the patched *name*."""
    kept = dict(compose.SINGLE)
    for intent, composer in kept.items():
        if composer.__name__ == name:
            compose.SINGLE[intent] = getattr(compose, name)
    try:
        yield
    finally:
        compose.SINGLE.clear()
        compose.SINGLE.update(kept)


class OovWordedAsRefusal(ProtocolHandler):
    """A turn whose every word is in no pack gets the refusal, which names none of them."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        if record.grounding.source == "oov":
            return compose.REFUSAL
        return super().realize_turn(runtime, record)


class TeachingVerdictWithoutStep(ProtocolHandler):
    """A VERIFICATION a teaching step decides says its verdict and what the pack says of the
    subject, but not the step."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        answer = record.grounding.answer
        if answer is not None and answer.by == "teaching" and record.grounding.lemmas:
            entry = record.grounding.lemmas[0]
            depth = _depth(self, runtime, record)
            word = "Yes" if answer.verdict == "yes" else "No"
            held = compose.about(entry, depth)
            return f"{word}, as the teaching chains say. {held} pack-grounded ({entry.pack_id})."
        return super().realize_turn(runtime, record)


class ProcedureVerbNotNamed(ProtocolHandler):
    """A PROCEDURE never names the request's verb, even when the lexicon holds it."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        surface = super().realize_turn(runtime, record)
        if record.intent is not IntentTag.PROCEDURE or not record.grounding.lemmas:
            return surface
        verbs = [e.lemma for e in record.grounding.lemmas[1:] if e.pos == "verb"]
        return surface.replace(f"To {verbs[0]} ", "To work with ", 1) if verbs else surface


class GlossFlagAlwaysSet(ProtocolHandler):
    """lexicon.list says every lemma has a gloss: the flag is read from the pack's schema
    (where ``gloss`` is a field) rather than from the lemma."""

    def op_lexicon_list(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_lexicon_list(args)
        return {"lemmas": [{**row, "has_gloss": True} for row in result["lemmas"]]}


class RecallTellsEveryDomain(ProtocolHandler):
    """A RECALL that quotes turns and no claim, and so need not say what the pack says of its
    subject, tells every domain of a gloss-less subject whatever the register's depth."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        recall = compose.recall_surface

        def every_domain(hit: Any, entry: Lemma | None, depth: int) -> str:
            return recall(hit, entry, len(entry.domains) if entry is not None else depth)

        with _patched("recall_surface", every_domain):
            return super().chat(runtime, text)


class RecallSaysLatestClaimOnly(ProtocolHandler):
    """The surface of a RECALL about a subject says its latest claim and the turns without a
    claim, never an older claim its ``says`` quotes."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        recall = compose.recall_surface

        def latest_claim_only(hit: Any, entry: Lemma | None, depth: int) -> str:
            claims = [s for s in hit.said if s.claim is not None][:1]
            kept = tuple(s for s in hit.said if s.claim is None or s in claims)
            return recall(dataclasses.replace(hit, said=kept), entry, depth)

        with _patched("recall_surface", latest_claim_only):
            return super().chat(runtime, text)
