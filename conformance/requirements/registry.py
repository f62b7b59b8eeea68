"""Requirements: stable ids, the seed passage each comes from, a strategy and a check.

A requirement's scenario is plain JSON data drawn by its strategy; its check
runs the scenario against an engine and raises ``AssertionError`` when the
engine breaks the requirement. Because scenarios are JSON, a shrunk
counterexample is a file anyone can replay without Hypothesis.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from conformance.engines.base import EngineClient

ID_PATTERN = re.compile(r"[A-Z]+-[A-Z0-9]+-\d{3}")

StrategyFactory = Callable[["SuiteContext"], st.SearchStrategy]
Check = Callable[[EngineClient, Any], None]
CoverFactory = Callable[["SuiteContext"], Any]
"""Builds a ``conformance.coverage.Plan``: deterministic cases run before random ones."""


@dataclass(frozen=True)
class Requirement:
    """One certifiable claim about an engine."""

    id: str
    title: str
    family: str
    capabilities: tuple[str, ...]
    seed: str
    check: Check
    strategy: StrategyFactory | None = None
    max_examples: int | None = None
    scale: str | None = None
    cover: CoverFactory | None = None

    @property
    def generated(self) -> bool:
        return self.strategy is not None


REGISTRY: dict[str, Requirement] = {}


def requirement(
    req_id: str,
    title: str,
    *,
    family: str,
    capabilities: tuple[str, ...],
    seed: str,
    strategy: StrategyFactory | None = None,
    max_examples: int | None = None,
    scale: str | None = None,
    cover: CoverFactory | None = None,
) -> Callable[[Check], Check]:
    """Register the decorated check under a stable requirement id."""
    if not ID_PATTERN.fullmatch(req_id):
        raise ValueError(f"requirement id {req_id!r} does not match {ID_PATTERN.pattern}")

    def register(check: Check) -> Check:
        if req_id in REGISTRY:
            raise ValueError(f"requirement id {req_id} registered twice")
        REGISTRY[req_id] = Requirement(
            req_id, title, family, capabilities, seed, check, strategy, max_examples, scale, cover
        )
        return check

    return register


@dataclass(frozen=True)
class LexiconEntry:
    lemma: str
    pack: str
    pos: str
    has_gloss: bool


@dataclass(frozen=True)
class SuiteContext:
    """What strategies may depend on: the engine's own lexicon."""

    lexicon: tuple[LexiconEntry, ...]

    @classmethod
    def from_engine(cls, engine: EngineClient) -> SuiteContext:
        if "lexicon" not in engine.capabilities():
            return cls(())
        rows = engine.call("lexicon.list")["lemmas"]
        return cls(
            tuple(LexiconEntry(r["lemma"], r["pack"], r["pos"], r["has_gloss"]) for r in rows)
        )
