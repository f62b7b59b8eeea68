"""Broken readers for the survivors of the Node engine's mutation run of its reading (issue
26): each breaks one sentence of docs/intents.md as the Node engine did or a mutant of it
does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import reference.truth.intent as reading
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler

FIXED_WORD_PATTERNS = (
    "_LEADS",
    "_BELIEF",
    "_TRAILING",
    "_QUOTES",
    "_CORRECTION_LEAD",
    "_COPULA",
    "_REFERRING_PHRASE",
    "_SLOT_NOISE",
)
"""The reading's own patterns of fixed words (leads, interjections, belief openers, trailing
words, quoting quotes, copulas, `the word`, `a kind of`), by their names in the module."""


@contextmanager
def _ascii_patterns(names: tuple[str, ...]) -> Iterator[None]:
    with ExitStack() as stack:
        for name in names:
            kept = getattr(reading, name)
            setattr(reading, name, re.compile(kept.pattern, re.ASCII))
            stack.callback(setattr, reading, name, kept)
        reading.forget_readings()
        stack.callback(reading.forget_readings)
        yield


class AsciiWordBoundaries(ProtocolHandler):
    """The fixed words of the reading are bounded by ASCII's word characters: a letter outside
    ASCII next to one leaves it a word of its own (`Ohé` opens with the interjection `oh`)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _ascii_patterns(FIXED_WORD_PATTERNS):
            return super().chat(runtime, text)


def _joined_slot(text: str) -> str:
    noise = getattr(reading, "_SLOT_NOISE")  # noqa: B009
    phrase = getattr(reading, "_REFERRING_PHRASE")  # noqa: B009
    return str(noise.sub("", phrase.sub("it", text)))


class SlotNoiseJoins(ProtocolHandler):
    """`the word`, `the term` and `a kind of` are taken out of a slot without a space in their
    place: an apostrophe before one joins what follows (`l'the word zorb` reads `l'zorb`)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = reading.clean_slot
        reading.clean_slot = _joined_slot
        reading.forget_readings()
        try:
            return super().chat(runtime, text)
        finally:
            reading.clean_slot = kept
            reading.forget_readings()
