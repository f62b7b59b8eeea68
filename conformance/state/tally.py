"""The life a session on a store must have persisted, modelled from what its turns answered
(docs/state.md § The life; docs/intents.md § Answers, RECALL; docs/spec.md § Cognition).

Each turn whose subject the lexicon knows (as written or folded, docs/intents.md § Word
folding: `rivers` names *river*) is one observation of that lemma: the vault tally
counts it, and notes its turn as the first and the latest; what it said (its normalised
input, cut at 160 code points, and a correction's claim) joins the latest three things said,
unless the turn is a RECALL, which is not something the user said about its subject. The
latest subject is the subject of the latest turn that had one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.folding import lemma_named

SAID_CHARS = 160
SAID_KEPT = 3


def normalised(text: str) -> str:
    """docs/trace-hash.md's normalised input: NFC, lowercase, whitespace runs collapsed to
    one space, stripped."""
    return " ".join(unicodedata.normalize("NFC", text).lower().split())


@dataclass
class Tally:
    """What the vault record of one lemma must hold."""

    lemma: str
    count: int = 0
    first_turn: int = 0
    last_turn: int = 0
    corrections: list[int] = field(default_factory=list)
    said: list[dict[str, Any]] = field(default_factory=list)
    """The latest things said, the latest first: ``{"turn_idx", "text", "corrected"}``."""


@dataclass
class Lived:
    """The life after every turn answered so far."""

    turns: int = 0
    context: str | None = None
    tallies: dict[str, Tally] = field(default_factory=dict)


def live(lived: Lived, text: str, result: Mapping[str, Any], lemmas: Collection[str]) -> None:
    """Add one answered turn (*text* as sent, *result* as ``session.chat`` answered it)."""
    turn, subject = result["turn_idx"], result.get("subject")
    if subject is not None:
        lived.context = subject
    lemma = lemma_named(subject, lemmas) if isinstance(subject, str) else None
    if lemma is not None:
        tally = lived.tallies.get(lemma)
        if tally is None:
            tally = lived.tallies[lemma] = Tally(lemma, first_turn=turn)
        tally.count += 1
        tally.last_turn = turn
        corrected = (
            result.get("intent") == "CORRECTION" and result.get("grounding_source") == "vault"
        )
        if corrected:
            tally.corrections.append(turn)
        if result.get("intent") != "RECALL":
            said = {"turn_idx": turn, "text": normalised(text)[:SAID_CHARS], "corrected": corrected}
            tally.said = [said, *tally.said][:SAID_KEPT]
    lived.turns = turn + 1


def lived_from(
    texts: Sequence[str], results: Sequence[Mapping[str, Any]], lemmas: Collection[str]
) -> Lived:
    """The life after *texts* answered as *results*."""
    lived = Lived()
    for text, result in zip(texts, results, strict=True):
        live(lived, text, result, lemmas)
    return lived
