"""Figures a requirement reports beside its verdict (kills made, crash states checked...).

A check calls :func:`count` or :func:`note`; the runner brackets one requirement with
:func:`start` and :func:`finish` and puts what was reported in the result's ``details``.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any

_CURRENT: ContextVar[dict[str, Any] | None] = ContextVar("details", default=None)


def count(**figures: int) -> None:
    """Add *figures* to the running totals of the requirement being checked."""
    collected = _CURRENT.get()
    if collected is not None:
        for name, value in figures.items():
            collected[name] = collected.get(name, 0) + value


def note(**facts: Any) -> None:
    """Record *facts* (the last value of each wins) for the requirement being checked."""
    collected = _CURRENT.get()
    if collected is not None:
        collected.update(facts)


def start() -> Token[dict[str, Any] | None]:
    """Begin collecting for one requirement; pass the token to :func:`finish`."""
    return _CURRENT.set({})


def finish(token: Token[dict[str, Any] | None]) -> dict[str, Any]:
    """Stop collecting; return what the checks reported since :func:`start`."""
    collected = _CURRENT.get() or {}
    _CURRENT.reset(token)
    return collected


def combined(parts: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """The figures of one requirement run in several parts (shard windows, campaign tasks):
    integer counts are summed, any other fact keeps its last value."""
    total: dict[str, Any] = {}
    for figures in parts:
        for name, value in (figures or {}).items():
            summable = type(value) is int and type(total.get(name, 0)) is int
            total[name] = total.get(name, 0) + value if summable else value
    return total or None
