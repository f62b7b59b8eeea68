"""Which words of a slot are its subjects, in order: verbs by position after nouns, known
lemmas first, and whether the slot's subject is a pronoun that refers back."""

from __future__ import annotations

from reference.lexicon import Lexicon
from reference.truth.text import STOPWORDS, tokenize, word_base

GENERIC_AGENTS = frozenset("people person someone somebody anyone everyone humans".split())
"""Words for whoever does something: they go after a slot's other words, like verbs."""

VERB_MARKERS = frozenset("i we you they it to".split()) | GENERIC_AGENTS
"""The word after one of these (past :data:`SKIPPED` words) is a verb by position."""

SKIPPED = frozenset(
    """ever never always often really just also still sometimes usually actually even do does
    did not can could would will should might must may all both""".split()
)
"""Words between a verb marker and its verb (``you ever seen``, ``we can protect``), passed
over whether or not they are content words (``people often love``: `often` is one)."""

AUXILIARIES = frozenset(
    """do does did is are was were can could will would should has have had must may might
    am not""".split()
)
SUBJECT_PRONOUNS = frozenset("it they he she".split())
"""A slot whose subject (its first word past auxiliaries) is one of these refers back."""


def _content(token: str) -> str | None:
    base = word_base(token)
    if base is None or base in STOPWORDS or len(base) < 2:
        return None
    return base


def slot_terms(
    text: str, lexicon: Lexicon | None, *, action: bool, verbs_move: bool = True
) -> tuple[str, ...]:
    """The content words of a slot, once each: the words that are not verbs by position
    (nor :data:`GENERIC_AGENTS`) first, then those that are; within each, as written; then
    known lemmas before unknown words (a stable reordering).

    A content word is a verb by position when the word before it (past :data:`SKIPPED`
    words) is in :data:`VERB_MARKERS` (unless *verbs_move* is False: in a CAUSE the verb is
    what happens), or, in an *action* slot, when it is the slot's first word.
    """
    others: list[str] = []
    verbs: list[str] = []
    previous: str | None = None
    for position, token in enumerate(tokenize(text)):
        base = _content(token)
        if base is None:
            if token not in SKIPPED:
                previous = token
            continue
        by_position = previous in VERB_MARKERS and verbs_move
        verb = by_position or (action and position == 0) or base in GENERIC_AGENTS
        (verbs if verb else others).append(base)
        if token not in SKIPPED:
            previous = base
    ordered = tuple(dict.fromkeys(others + verbs))
    if lexicon is None:
        return ordered
    known = tuple(t for t in ordered if lexicon.lookup(t) is not None)
    return known + tuple(t for t in ordered if t not in known)


def subject_pronoun(text: str, lexicon: Lexicon | None) -> bool:
    """Whether the slot's subject is a pronoun that refers back: its first word past
    :data:`AUXILIARIES` is in :data:`SUBJECT_PRONOUNS`, except ``it`` directly before a
    noun the lexicon holds (``does it rain``: an empty subject)."""
    tokens = tokenize(text)
    index = next((i for i, t in enumerate(tokens) if t not in AUXILIARIES), None)
    if index is None or tokens[index] not in SUBJECT_PRONOUNS:
        return False
    if tokens[index] != "it" or index + 1 >= len(tokens) or lexicon is None:
        return True
    entry = lexicon.lookup(tokens[index + 1])
    return entry is None or entry.pos != "noun"
