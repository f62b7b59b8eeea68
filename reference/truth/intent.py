"""Intent classification by ordered whole-word rules, and subject extraction."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from reference.lexicon import Lexicon
from reference.truth.text import content_terms, tokenize


class IntentTag(enum.Enum):
    """What a turn asks for."""

    DEFINITION = "definition"
    CAUSE = "cause"
    PROCEDURE = "procedure"
    COMPARISON = "comparison"
    CORRECTION = "correction"
    RECALL = "recall"
    VERIFICATION = "verification"
    TRANSITIVE_QUERY = "transitive_query"
    FRAME_TRANSFER = "frame_transfer"
    NARRATIVE = "narrative"
    EXAMPLE = "example"
    UNKNOWN = "unknown"


def _rule(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


RULES: tuple[tuple[IntentTag, re.Pattern[str]], ...] = (
    (
        IntentTag.CORRECTION,
        _rule(r"^(?:no|nope|actually|correction)\b", r"\bthat(?:'s| is) (?:wrong|incorrect)\b"),
    ),
    (IntentTag.RECALL, _rule(r"\bwhat did i (?:say|tell you)\b", r"\b(?:remember|recall)\b")),
    (
        IntentTag.COMPARISON,
        _rule(r"\bcompare\b", r"\bdifference between\b", r"\b(?:versus|vs)\b", r"\bdiffer\b"),
    ),
    (
        IntentTag.TRANSITIVE_QUERY,
        _rule(
            r"\b(?:connected|related|linked) to\b",
            r"\bhow (?:is|are) .+ (?:connected|related|linked)\b",
            r"\bwhat (?:connects|links)\b",
            r"\bpath from\b",
            r"\blead to\b",
        ),
    ),
    (
        IntentTag.FRAME_TRANSFER,
        _rule(
            r"\bin terms of\b",
            r"\bthink of (?:\S+ ){1,3}as\b",
            r"\banalogy\b",
            r"\b(?:is|are) like\b",
        ),
    ),
    (
        IntentTag.CAUSE,
        _rule(r"^why\b", r"\bwhat causes\b", r"\bcause of\b", r"\bwhy (?:do|does|is)\b"),
    ),
    (
        IntentTag.PROCEDURE,
        _rule(
            r"^how (?:do|can|should|would) (?:i|you|we|one)\b",
            r"\bhow to\b",
            r"\bsteps (?:to|for)\b",
        ),
    ),
    (IntentTag.EXAMPLE, _rule(r"\b(?:example|examples)\b", r"\bfor instance\b")),
    (
        IntentTag.VERIFICATION,
        _rule(
            r"\bis it true\b",
            r"\btrue or false\b",
            r"\b(?:verify|confirm)\b",
            r"^(?:is|are|does|do|can) \S+ .*\?$",
        ),
    ),
    (
        IntentTag.NARRATIVE,
        _rule(
            r"\btell me (?:about|a story)\b",
            r"\bdescribe\b",
            r"\btalk about\b",
            r"\bstory (?:of|about)\b",
        ),
    ),
    (
        IntentTag.DEFINITION,
        _rule(
            r"^(?:what|who) (?:is|are)\b",
            r"^what's\b",
            r"\bwhat does \S+ mean\b",
            r"\bdefine\b",
            r"\bmeaning of\b",
            r"^explain\b",
        ),
    ),
)

_STORY_FRAME = re.compile(r"\b(?:a )?stor(?:y|ies) (?:about|of)\b")
"""A narrative frame whose own noun is not the subject ("a story about the moon")."""

_CLAIM = re.compile(r"\b(?:is|are) (?P<claim>[^.!?]+?)[.!?]*$")


@dataclass(frozen=True)
class IntentResult:
    """The classified intent, the subject (if any), other content terms, and a claim."""

    intent: IntentTag
    subject: str | None
    terms: tuple[str, ...]
    claim: str | None


def match_intent(normalized: str) -> IntentTag:
    """The first rule whose whole-word pattern matches; UNKNOWN if none does."""
    for tag, pattern in RULES:
        if pattern.search(normalized):
            return tag
    return IntentTag.UNKNOWN


def _order_by_lexicon(terms: tuple[str, ...], lexicon: Lexicon | None) -> tuple[str, ...]:
    if lexicon is None:
        return terms
    known = tuple(t for t in terms if lexicon.lookup(t) is not None)
    return known + tuple(t for t in terms if t not in known)


def classify_intent(
    normalized: str, tokens: tuple[str, ...], lexicon: Lexicon | None = None
) -> IntentResult:
    """Classify a normalised turn; the subject is the first lexicon term, else the first term."""
    intent = match_intent(normalized)
    framed = _STORY_FRAME.sub(" ", normalized) if intent is IntentTag.NARRATIVE else None
    focus = tokenize(framed) if framed is not None else tokens
    terms = _order_by_lexicon(content_terms(focus), lexicon)
    subject = terms[0] if terms else None
    claim = None
    if intent is IntentTag.CORRECTION:
        found = _CLAIM.search(normalized)
        claim = found.group("claim").strip() if found else None
    return IntentResult(intent, subject, terms, claim)
