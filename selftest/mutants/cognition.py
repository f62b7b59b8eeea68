"""Broken readers of prompts: each class changes one rule of how a prompt is understood."""

from __future__ import annotations

import unicodedata
from typing import Any

from reference.realize.depth import DISCLOSURE_KEY
from reference.runtime import ChatRuntime, TurnRuntime
from reference.serve import ProtocolHandler
from reference.truth import teaching, vault
from reference.truth.intent import IntentTag
from reference.truth.record import TruthRecord


def _lead(text: str) -> str:
    words = text.strip().split()
    return words[0].strip(",.!?").lower() if words else ""


class NowIsCorrection(ProtocolHandler):
    """A prompt that opens with "Now" is classified as a CORRECTION."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        return {**response, "intent": "CORRECTION"} if _lead(text) == "now" else response


class RecallNeverFromVault(ProtocolHandler):
    """A RECALL turn never reports the vault as its grounding source."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        if response["intent"] == "RECALL" and response["grounding_source"] == "vault":
            return {**response, "grounding_source": "pack"}
        return response


class SubjectFromLastSlot(ProtocolHandler):
    """A COMPARISON reports the last word of the prompt as its subject, not the first slot's."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        if response["intent"] != "COMPARISON":
            return response
        last = text.strip().rstrip(".?!").split()[-1]
        return {**response, "subject": last}


class CompatibilityNormalised(ProtocolHandler):
    """Prompts are normalised with NFKC, so a fullwidth or ligature word folds to ASCII."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        return super().chat(runtime, unicodedata.normalize("NFKC", text))


class TypographicApostropheKept(ProtocolHandler):
    """A typographic apostrophe is not unified with ``'``: it separates words."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        return super().chat(runtime, text.replace("\u2019", " "))


class VerdictDropped(ProtocolHandler):
    """A pack-grounded VERIFICATION is worded as the DEFINITION of its subject: no verdict."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        from reference.realize.compose import pack_surface

        grounding = record.grounding
        if record.intent is IntentTag.VERIFICATION and grounding.source == "pack":
            depth = self.resolve_overrides(runtime.register.realizer_overrides, "VERIFICATION")
            return pack_surface(grounding.lemmas[0], record, {DISCLOSURE_KEY: depth})
        return super().realize_turn(runtime, record)


class FirstClaimKept(ProtocolHandler):
    """A subject's first claim is kept: a later claim about it never replaces it."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        stored = vault.Vault.store

        def store(
            self: vault.Vault,
            lemma: str,
            turn_idx: int,
            claim: str | None = None,
            said: str | None = None,
        ) -> vault.VaultEntry:
            earlier = self.recall(lemma)
            if earlier is not None and earlier.latest_claim is not None:
                claim = None
            return stored(self, lemma, turn_idx, claim, said)

        vault.Vault.store = store  # type: ignore[method-assign]
        try:
            return super().chat(runtime, text)
        finally:
            vault.Vault.store = stored  # type: ignore[method-assign]


class TeachingOneWay(ProtocolHandler):
    """A teaching path is looked for from the first subject to the second only, never back."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        either = teaching.TeachingGraph.either_way

        def one_way(
            self: teaching.TeachingGraph, first: str, second: str
        ) -> teaching.TeachingPath | None:
            return self.path(first, second)

        teaching.TeachingGraph.either_way = one_way  # type: ignore[method-assign]
        try:
            return super().chat(runtime, text)
        finally:
            teaching.TeachingGraph.either_way = either  # type: ignore[method-assign]


class RecallOfAnyKnownLemmaFromVault(ProtocolHandler):
    """A RECALL of a known lemma grounds in the vault even when no turn had it as subject."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        if response["intent"] == "RECALL" and response["grounding_source"] == "pack":
            return {**response, "grounding_source": "vault"}
        return response
