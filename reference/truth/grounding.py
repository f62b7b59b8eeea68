"""The grounding decision: what evidence, if any, a turn's answer rests on."""

from __future__ import annotations

from dataclasses import dataclass

from reference.lexicon import Lemma, Lexicon
from reference.truth.intent import IntentResult, IntentTag
from reference.truth.teaching import TeachingGraph, TeachingPath
from reference.truth.vault import Vault, VaultHit

GROUNDING_SOURCES = ("vault", "pack", "teaching", "partial", "oov", "none")


@dataclass(frozen=True)
class Grounding:
    """The evidence for a turn: grounded lemmas, unknown terms, a teaching path, a vault hit."""

    source: str
    lemmas: tuple[Lemma, ...]
    unknown: tuple[str, ...]
    path: TeachingPath | None
    vault_hit: VaultHit | None
    claim: str | None

    @property
    def subject_lemma(self) -> Lemma | None:
        return self.lemmas[0] if self.lemmas else None


def _source(
    intent: IntentResult,
    lemmas: tuple[Lemma, ...],
    unknown: tuple[str, ...],
    path: TeachingPath | None,
    hit: VaultHit | None,
) -> str:
    if not intent.terms:
        return "none"
    subject_known = bool(lemmas) and intent.subject not in unknown
    if intent.intent is IntentTag.CORRECTION and subject_known and intent.claim:
        return "vault"
    if intent.intent is IntentTag.RECALL and hit is not None:
        return "vault"
    if path is not None:
        return "teaching"
    if not lemmas:
        return "oov"
    return "partial" if unknown else "pack"


def _teaching_path(
    intent: IntentResult, lemmas: tuple[Lemma, ...], graph: TeachingGraph
) -> TeachingPath | None:
    if intent.intent is IntentTag.TRANSITIVE_QUERY and len(lemmas) >= 2:
        return graph.path(lemmas[0].lemma, lemmas[1].lemma)
    if intent.intent is IntentTag.CAUSE and lemmas:
        return graph.origin(lemmas[0].lemma)
    return None


def decide_grounding(
    intent: IntentResult, lexicon: Lexicon, graph: TeachingGraph, vault: Vault
) -> Grounding:
    """Decide the grounding of a classified turn against the lexicon, teaching and vault."""
    found = [(term, lexicon.lookup(term)) for term in intent.terms]
    lemmas = tuple(dict.fromkeys(entry for _, entry in found if entry is not None))
    unknown = tuple(term for term, entry in found if entry is None)
    hit = vault.recall(lemmas[0].lemma) if lemmas else None
    path = _teaching_path(intent, lemmas, graph)
    source = _source(intent, lemmas, unknown, path, hit)
    claim = intent.claim if source == "vault" and intent.intent is IntentTag.CORRECTION else None
    return Grounding(source, lemmas, unknown, path, hit, claim)
