"""The requirement model: what a requirement is and what its strategies may depend on.

Plain data only; this module imports nothing from the suite, so every other module
(strategies, the runner, the requirements themselves) can depend on it without a cycle.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

if TYPE_CHECKING:
    from conformance.engines.base import EngineClient

ID_PATTERN = re.compile(r"[A-Z]+-[A-Z0-9]+-\d{3}")

StrategyFactory = Callable[["SuiteContext"], st.SearchStrategy]
Check = Callable[["EngineClient", Any], None]
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
