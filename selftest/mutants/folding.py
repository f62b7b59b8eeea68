"""Broken word folding generated from its rules: each engine drops one rule of folding, or
moves one rule's length bound by one letter (docs/intents.md § Subjects, word folding).

``folded_without(rule_id)`` and ``folded_bound(rule_id, shift)`` are the reference with
``reference.lexicon.index.base_forms`` replaced while it chats; the rules below restate the
docs' list, in its order, so that one of them can be left out or changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import reference.lexicon.index as index
import reference.truth.intent as reading
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler


@dataclass(frozen=True)
class Fold:
    """One folding rule: words ending in *suffix*, longer than *longer_than*, fold to *forms*."""

    rule: str
    suffix: str
    longer_than: int
    forms: Callable[[str], tuple[str, ...]]
    keep: Callable[[str], bool] = lambda word: True


def _ing_doubled(word: str) -> tuple[str, ...]:
    stem = word[:-3]
    return (
        (stem[:-1],) if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiou" else ()
    )


FOLDS = (
    Fold("W-IES", "ies", 4, lambda w: (w[:-3] + "y",)),
    Fold("W-VES-F", "ves", 4, lambda w: (w[:-3] + "f",)),
    Fold("W-VES-FE", "ves", 4, lambda w: (w[:-3] + "fe",)),
    Fold("W-ES", "es", 4, lambda w: (w[:-2],)),
    Fold("W-S", "s", 3, lambda w: (w[:-1],), lambda w: not w.endswith("ss")),
    Fold("W-ING", "ing", 5, lambda w: (w[:-3],)),
    Fold("W-ING-E", "ing", 5, lambda w: (w[:-3] + "e",)),
    Fold("W-ING-DOUBLED", "ing", 5, _ing_doubled),
)
"""The folding rules of docs/intents.md, in their order."""

FOLD_IDS = tuple(fold.rule for fold in FOLDS)


def _base_forms(folds: tuple[Fold, ...]) -> Callable[[str], Iterable[str]]:
    def base_forms(word: str) -> Iterator[str]:
        yield word
        for fold in folds:
            if word.endswith(fold.suffix) and len(word) > fold.longer_than and fold.keep(word):
                yield from fold.forms(word)

    return base_forms


@contextmanager
def _folding(folds: tuple[Fold, ...]) -> Iterator[None]:
    kept = index.base_forms
    index.base_forms = _base_forms(folds)  # type: ignore[assignment]
    reading.forget_readings()
    try:
        yield
    finally:
        index.base_forms = kept
        reading.forget_readings()


def _engine(name: str, doc: str, folds: tuple[Fold, ...]) -> type[ProtocolHandler]:
    def chat(self: ProtocolHandler, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _folding(folds):
            return ProtocolHandler.chat(self, runtime, text)

    return type(name, (ProtocolHandler,), {"chat": chat, "__doc__": doc, "__module__": __name__})


@functools.cache
def folded_without(rule_id: str) -> type[ProtocolHandler]:
    """The reference without the folding rule *rule_id*."""
    folds = tuple(fold for fold in FOLDS if fold.rule != rule_id)
    name = "FoldingWithout" + rule_id.replace("-", "")
    return _engine(name, f"Word folding leaves out {rule_id}.", folds)


@functools.cache
def folded_bound(rule_id: str, shift: int) -> type[ProtocolHandler]:
    """The reference with the length bound of *rule_id* moved by *shift* letters."""
    folds = tuple(
        replace(fold, longer_than=fold.longer_than + shift) if fold.rule == rule_id else fold
        for fold in FOLDS
    )
    name = f"FoldingBound{rule_id.replace('-', '')}{'Plus' if shift > 0 else 'Minus'}"
    return _engine(name, f"Word folding moves the length bound of {rule_id} by {shift}.", folds)


@functools.cache
def folded_loose(rule_id: str) -> type[ProtocolHandler]:
    """The reference with the ending test of *rule_id* dropped: it fires on any long word."""
    folds = tuple(replace(fold, suffix="") if fold.rule == rule_id else fold for fold in FOLDS)
    name = f"FoldingLoose{rule_id.replace('-', '')}"
    return _engine(name, f"Word folding applies {rule_id} to words of any ending.", folds)


@functools.cache
def folded_any_undoubled() -> type[ProtocolHandler]:
    """The reference undoubling the last letter of every `-ing` stem, doubled or not."""
    undoubled = Fold("W-ING-DOUBLED", "ing", 5, lambda w: (w[:-4],) if len(w) > 6 else ())
    folds = tuple(undoubled if fold.rule == "W-ING-DOUBLED" else fold for fold in FOLDS)
    return _engine("FoldingAnyUndoubled", "Word folding undoubles any last letter.", folds)
