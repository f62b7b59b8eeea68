"""Broken engines for the disagreements ``python -m tools.differential`` found (session 47).

Each is the mistake one of the two engines made, kept as a broken engine so the
requirement that now catches it stays proven.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference.truth import intent as reading
from reference.truth import sentences
from reference.truth.intent import IntentTag, Reading
from reference.truth.text import content_terms, word_matches
from selftest.mutants.conditions import PatchedReading


def _pieces_python_strip(text: str) -> list[tuple[str, bool]]:
    pieces: list[tuple[str, bool]] = []
    start = 0
    for end in sentences.SENTENCE_END.finditer(text):
        before = text[start : end.start()].split(" ")
        if end.group(0) == "." and before and before[-1] in sentences.ABBREVIATIONS:
            continue
        pieces.append((text[start : end.end()].strip(), "?" in end.group(0)))
        start = end.end()
    if text[start:].strip():
        pieces.append((text[start:].strip(), False))
    return pieces


def _claim_split_python_strip(sentence: str) -> Reading:
    copula = reading._COPULA.search(sentence)
    if copula is not None:
        claim = sentence[copula.start() :].strip()
        return Reading(IntentTag.CORRECTION, (sentence[: copula.start()], claim), claim or None)
    for found in word_matches(sentence):
        if content_terms((found.group(0),)):
            claim = sentence[found.end() :].strip(" ,;:")
            return Reading(IntentTag.CORRECTION, (sentence[: found.end()], claim), claim or None)
    return Reading(IntentTag.CORRECTION, (sentence,) if sentence else ())


class PythonSpaceStripped(PatchedReading):
    """docs/intents.md step 1 broken after step 1: a sentence and a correction's claim are
    stripped with Python's ``str.strip()``, which also takes U+001C..U+001F for white
    space (``\\x1cIs bark a picture?`` then opens with an auxiliary). The reference's own
    mistake until session 47."""

    def patches(self) -> Sequence[tuple[object, str, object]]:
        return [
            (sentences, "_pieces", _pieces_python_strip),
            (reading, "_claim_split", _claim_split_python_strip),
        ]
