"""The requirement model: what a requirement is and what its strategies may depend on.

Plain data only; this module imports nothing from the suite, so every other module
(strategies, the runner, the requirements themselves) can depend on it without a cycle.
"""

from __future__ import annotations

import math
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


class NotCheckable(Exception):
    """A requirement cannot be judged here (a tool is missing, the engine cannot run as a
    process): its result says why, and the run is PARTIAL, never certified."""


NOT_CHECKABLE = "not checkable here"
"""How a result's message begins when its requirement raised :class:`NotCheckable`."""


@dataclass(frozen=True)
class UnitScale:
    """A requirement sized in units of work rather than examples: each example does
    ``per_example`` units (say, SIGKILLs), and the profile field named ``knob`` says how
    many units a run asks for."""

    knob: str
    per_example: int

    def examples(self, units: int) -> int:
        """Examples needed for *units* units of work (at least one)."""
        return max(1, math.ceil(units / self.per_example))

    def asked(self, profile: object) -> int:
        """Units *profile* (a ``runner.Profile``) asks for."""
        units = getattr(profile, self.knob)
        if not isinstance(units, int):
            raise TypeError(f"profile field {self.knob!r} is not a number of units")
        return units

    def examples_for(self, profile: object) -> int:
        """Examples that do the units *profile* asks for."""
        return self.examples(self.asked(profile))


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
    scale: UnitScale | None = None
    """Set when examples are sized by a profile knob (units of work), not by example counts."""
    cover: CoverFactory | None = None
    expected_ms: int | None = None
    """A hint of what one run costs on any engine, for scheduling only (longest first)."""

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
