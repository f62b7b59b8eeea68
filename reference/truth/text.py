"""Input normalisation and tokenisation."""

from __future__ import annotations

import re
import unicodedata

_WHITESPACE = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

STOPWORDS = frozenset(
    """
    a an the this that these those it its it's is are was were be been being am do does did
    done can could should would will shall may might must i me my you your we our they them
    their he him his she her what what's who whom which where when why how whether if then
    than so to of in on at by for from with about into onto as and or but not nor no yes
    yeah actually correction now please tell say said says explain give show me us some any
    all kind sort type there here just also very really mean means meaning define
    describe compare comparison difference differences between versus vs like example
    examples instance remember recall true false verify confirm step steps way ways cause
    causes caused connect connected connects relate related relates link linked links terms
    talk thing things one ok okay hi hello thanks wrong incorrect right think differ
    differs different analogy analogies
    """.split()
)
"""Function words and intent trigger words: never a turn's subject."""


def normalize(text: str) -> str:
    """NFC-normalise, lowercase, collapse whitespace runs and strip."""
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFC", text)).strip().lower()


def tokenize(normalized: str) -> tuple[str, ...]:
    """Split normalised text into word tokens (letters, with inner apostrophes)."""
    return tuple(_TOKEN.findall(normalized))


def content_terms(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Tokens that are not stopwords, in order, without repeats."""
    seen: dict[str, None] = {}
    for token in tokens:
        if token not in STOPWORDS and len(token) > 1:
            seen.setdefault(token, None)
    return tuple(seen)
