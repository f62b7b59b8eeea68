"""Broken engines for the disagreements ``python -m tools.differential`` found (session 47).

Each is the mistake one of the two engines made, kept as a broken engine so the
requirement that now catches it stays proven.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reference.truth import intent as reading
from reference.truth import sentences
from reference.truth.intent import IntentTag, Reading
from reference.truth.text import content_terms, word_matches
from selftest.mutants.conditions import PatchedReading

COPULA = re.compile(r"\b(?:is|are|was|were) ")
"""The copula a correction's claim starts at (docs/intents.md step 5a)."""
JS_TRIMMED = "\t\n\x0b\x0c\r \xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
JS_TRIMMED += "\u2028\u2029\u202f\u205f\u3000\ufeff"
"""What JavaScript's ``String.prototype.trim`` takes: its WhiteSpace and LineTerminator,
U+FEFF included."""


def _pieces_stripping(chars: str | None) -> Callable[[str], list[tuple[str, bool]]]:
    """The reference's sentence pieces, each stripped of *chars* (None: ``str.strip()``)."""

    def pieces(text: str) -> list[tuple[str, bool]]:
        found: list[tuple[str, bool]] = []
        start = 0
        for end in sentences.SENTENCE_END.finditer(text):
            before = text[start : end.start()].split(" ")
            if end.group(0) == "." and before and before[-1] in sentences.ABBREVIATIONS:
                continue
            found.append((text[start : end.end()].strip(chars), "?" in end.group(0)))
            start = end.end()
        if text[start:].strip(chars):
            found.append((text[start:].strip(chars), False))
        return found

    return pieces


def _claim_split_stripping(chars: str | None) -> Callable[[str], Reading]:
    """The reference's claim split, the claim stripped of *chars*."""

    def claim_split(sentence: str) -> Reading:
        copula = COPULA.search(sentence)
        if copula is not None:
            claim = sentence[copula.start() :].strip(chars)
            subject = sentence[: copula.start()]
            return Reading(IntentTag.CORRECTION, (subject, claim), claim or None)
        for found in word_matches(sentence):
            if content_terms((found.group(0),)):
                claim = sentence[found.end() :].strip(" ,;:")
                subject = sentence[: found.end()]
                return Reading(IntentTag.CORRECTION, (subject, claim), claim or None)
        return Reading(IntentTag.CORRECTION, (sentence,) if sentence else ())

    return claim_split


class PythonSpaceStripped(PatchedReading):
    """Sentences and a correction's claim stripped with Python's ``str.strip()``, which
    also takes U+001C..U+001F for white space (docs/intents.md step 1: they stay); the
    reference's own mistake until session 47."""

    def patches(self) -> Sequence[tuple[object, str, object]]:
        return [
            (sentences, "_pieces", _pieces_stripping(None)),
            (reading, "_claim_split", _claim_split_stripping(None)),
        ]


class JavaScriptTrimmed(PatchedReading):
    """Sentences and a correction's claim stripped as JavaScript's ``trim()`` strips, which
    also takes U+FEFF for white space (docs/intents.md step 1: it stays); the Node port's
    mistake until session 47."""

    def patches(self) -> Sequence[tuple[object, str, object]]:
        return [
            (sentences, "_pieces", _pieces_stripping(JS_TRIMMED)),
            (reading, "_claim_split", _claim_split_stripping(JS_TRIMMED)),
        ]
