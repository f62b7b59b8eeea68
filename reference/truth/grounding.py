"""The grounding decision: what evidence, if any, a turn's answer rests on."""

from __future__ import annotations

from dataclasses import dataclass

from reference.lexicon import Lemma, Lexicon
from reference.truth.answer import Answer, told, verdict
from reference.truth.intent import IntentResult, IntentTag
from reference.truth.teaching import TeachingGraph, TeachingPath
from reference.truth.vault import Vault, VaultHit

GROUNDING_SOURCES = ("vault", "pack", "teaching", "partial", "oov", "none")
RECALLED = 3
"""A RECALL without a subject repeats the latest things said about this many lemmas."""


@dataclass(frozen=True)
class Grounding:
    """The evidence for a turn: grounded lemmas, unknown terms, a teaching path, a vault hit
    (or, for a RECALL without a subject, the latest hits), a correction's claim, and what
    the answer rests on beyond them."""

    source: str
    lemmas: tuple[Lemma, ...]
    unknown: tuple[str, ...]
    path: TeachingPath | None
    vault_hit: VaultHit | None
    claim: str | None
    recalled: tuple[VaultHit, ...] = ()
    answer: Answer | None = None

    @property
    def subject_lemma(self) -> Lemma | None:
        return self.lemmas[0] if self.lemmas else None

    @property
    def hits(self) -> tuple[VaultHit, ...]:
        """The vault hits the turn's record seals."""
        return (self.vault_hit,) if self.vault_hit is not None else self.recalled


def _source(
    intent: IntentResult,
    lemmas: tuple[Lemma, ...],
    unknown: tuple[str, ...],
    path: TeachingPath | None,
    hit: VaultHit | None,
    answer: Answer | None,
) -> str:
    subject_known = bool(lemmas) and intent.subject not in unknown
    if intent.intent is IntentTag.CORRECTION and subject_known and intent.claim:
        return "vault"
    if intent.intent is IntentTag.RECALL and hit is not None:
        return "vault"
    if answer is not None and answer.by == "vault":
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
        return graph.either_way(lemmas[0].lemma, lemmas[1].lemma)
    if intent.intent is IntentTag.CAUSE and lemmas:
        joined = graph.either_way(lemmas[0].lemma, lemmas[1].lemma) if len(lemmas) > 1 else None
        return joined or graph.origin(lemmas[0].lemma)
    return None


def _answer(
    intent: IntentResult, subject: Lemma | None, hit: VaultHit | None, graph: TeachingGraph
) -> Answer | None:
    if subject is None:
        return None
    if intent.intent is IntentTag.VERIFICATION:
        statement = intent.checked or ""
        claim = hit.latest_claim if hit is not None else None
        value, by, step = verdict(statement, subject, claim, graph)
        return Answer(value, by, statement, (step,) if step is not None else ())
    if intent.intent in (IntentTag.NARRATIVE, IntentTag.EXAMPLE):
        example = intent.intent is IntentTag.EXAMPLE
        return Answer(None, None, None, told(subject, graph, example=example))
    return None


def _recall_all(intent: IntentResult, vault: Vault) -> Grounding | None:
    """A RECALL without a subject: the latest things said, or None when nothing was."""
    if intent.intent is not IntentTag.RECALL or intent.terms:
        return None
    recalled = vault.latest(RECALLED)
    if not recalled:
        return None
    return Grounding("vault", (), (), None, None, None, recalled)


def decide_grounding(
    intent: IntentResult, lexicon: Lexicon, graph: TeachingGraph, vault: Vault
) -> Grounding:
    """Decide the grounding of a classified turn against the lexicon, teaching and vault:
    the first rule of docs/spec.md § Cognition that applies."""
    everything = _recall_all(intent, vault)
    if everything is not None:
        return everything
    if not intent.terms:
        return Grounding("none", (), (), None, None, None)
    found = [(term, lexicon.lookup(term)) for term in intent.terms]
    lemmas = tuple(dict.fromkeys(entry for _, entry in found if entry is not None))
    unknown = tuple(term for term, entry in found if entry is None)
    subject = lemmas[0] if lemmas and intent.subject not in unknown else None
    hit = vault.recall(lemmas[0].lemma) if lemmas else None
    answer = _answer(intent, subject, hit, graph)
    path = _teaching_path(intent, lemmas, graph)
    if answer is not None and answer.by == "teaching":
        path = answer.told[0]
    source = _source(intent, lemmas, unknown, path, hit, answer)
    claim = intent.claim if source == "vault" and intent.intent is IntentTag.CORRECTION else None
    if path is not None and source != "teaching":
        path = None
    return Grounding(source, lemmas, unknown, path, hit, claim, (), answer)
