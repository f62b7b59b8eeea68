"""Plain data for language packs: lemmas and the packs that hold them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lemma:
    """One lexicon entry; ``domains`` are ordered most salient first."""

    lemma: str
    pos: str
    domains: tuple[str, ...]
    gloss: str | None
    pack_id: str

    @property
    def has_gloss(self) -> bool:
        return self.gloss is not None


@dataclass(frozen=True)
class LanguagePack:
    """A validated language pack."""

    pack_id: str
    language: str
    version: str
    lemmas: tuple[Lemma, ...]


@dataclass(frozen=True)
class TeachingStep:
    source: str
    relation: str
    target: str


@dataclass(frozen=True)
class TeachingChain:
    """A short curated chain of relations between lemmas."""

    chain_id: str
    steps: tuple[TeachingStep, ...]

    @property
    def lemmas(self) -> tuple[str, ...]:
        return (self.steps[0].source, *(step.target for step in self.steps))
