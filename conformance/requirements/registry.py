"""Requirements: stable ids, the seed passage each comes from, a strategy and a check.

A requirement's scenario is plain JSON data drawn by its strategy; its check
runs the scenario against an engine and raises ``AssertionError`` when the
engine breaks the requirement. Because scenarios are JSON, a shrunk
counterexample is a file anyone can replay without Hypothesis.
"""

from __future__ import annotations

from collections.abc import Callable

from conformance.model import (
    ID_PATTERN,
    Check,
    CoverFactory,
    LexiconEntry,
    Requirement,
    StrategyFactory,
    SuiteContext,
    UnitScale,
)

__all__ = ["ID_PATTERN", "REGISTRY", "LexiconEntry", "Requirement", "SuiteContext", "requirement"]

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
    scale: UnitScale | None = None,
    cover: CoverFactory | None = None,
    expected_ms: int | None = None,
) -> Callable[[Check], Check]:
    """Register the decorated check under a stable requirement id."""
    if not ID_PATTERN.fullmatch(req_id):
        raise ValueError(f"requirement id {req_id!r} does not match {ID_PATTERN.pattern}")

    def register(check: Check) -> Check:
        if req_id in REGISTRY:
            raise ValueError(f"requirement id {req_id} registered twice")
        REGISTRY[req_id] = Requirement(
            req_id,
            title,
            family,
            capabilities,
            seed,
            check,
            strategy,
            max_examples,
            scale,
            cover,
            expected_ms,
        )
        return check

    return register
