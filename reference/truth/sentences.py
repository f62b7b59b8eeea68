"""A prompt's sentences: where one ends, and whether it asks a question."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

ABBREVIATIONS = frozenset({"vs", "e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "st"})
"""Words whose full stop does not end a sentence (``rain vs. snow``)."""

SENTENCE_END = re.compile(
    r"[.!?;\u2026]+(?= |$)|(?<= )[\u2014\u2013-]+(?= )|\u2014"
    r"|:(?= +(?:what|why|how|who|which|where|when|is|are|was|were|does|do|did|can|could|will"
    r"|would|should|has|have|had|must|may|am)\b)"
)
"""Where a sentence ends: end marks before a space or the end, a dash between spaces, an em
dash, a colon before a question word or an auxiliary."""


@dataclass(frozen=True)
class Sentence:
    """One sentence's clause (as the reading prepares it) and whether it ends with ``?``."""

    clause: str
    question: bool


def _pieces(text: str) -> list[tuple[str, bool]]:
    pieces: list[tuple[str, bool]] = []
    start = 0
    for end in SENTENCE_END.finditer(text):
        before = text[start : end.start()].split(" ")
        if end.group(0) == "." and before and before[-1] in ABBREVIATIONS:
            continue
        pieces.append((text[start : end.end()].strip(" "), "?" in end.group(0)))
        start = end.end()
    if text[start:].strip(" "):
        pieces.append((text[start:].strip(" "), False))
    return pieces


def split_sentences(
    text: str, prepare: Callable[[str], str], asks: Callable[[str], bool] | None = None
) -> list[Sentence]:
    """The sentences of *text*: it ends one at ``.``, ``!``, ``?``, ``;`` or ``…`` followed by
    a space or the end (not the full stop of an abbreviation), at a dash (``—``, or
    ``–``/``-`` between spaces), and at a colon before a question word or an auxiliary of
    the docs' ``AUX`` (``quick question: what is a comet``); each clause is *prepare*d, and a
    sentence whose clause is empty is left out. A sentence *asks* says is a question counts as
    one too (a belief put forward: ``I think owls hunt at night``)."""
    sentences = [
        Sentence(prepare(piece), question or (asks is not None and asks(piece)))
        for piece, question in _pieces(text)
    ]
    return [s for s in sentences if s.clause]
