"""Broken readers that each drop one member of a closed list of docs/intents.md steps 5 and 6.

``dropped(member)`` is the reference with one member left out of the list it reads prompts
with, as a port that missed one word or one character of the list would: an end mark or a
dash (the sentence splitter), an abbreviation, a word after a colon, a belief opener or one
of its exclusions (`of`, `about`, `so`), a correction lead. ``MEMBERS`` names them all;
``selftest/test_enumerations.py`` checks that each fails ``COG-RULE-001``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import reference.truth.intent as reading
import reference.truth.sentences as sentences
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler

_MARKS = r"[.!?;\u2026]+"
_DASHES = r"(?<=\s)[\u2014\u2013-]+(?=\s)|\u2014"
_COLON = (
    "what|why|how|who|which|where|when|is|are|was|were|does|do|did|can|could|will|would|should"
    "|has|have|had|must|may|am"
)
_BELIEVERS = "(?:i|we) (?:think|"
_OPENERS = (
    "think|believe|guess|suppose|reckon|bet|feel like|heard|have heard|read|was told"
    "|were told|am sure|am pretty sure|am fairly sure"
)
_REPORTERS = "someone|somebody|people|they"
_REPORTS = "told me|tell me|say|said"
_NOT_BELIEF = r"(?! of\b| about\b| so\b)"
_LEADS = (
    "no way|no|nope|nah|wrong|incorrect|not quite|not really|not so|not true|not exactly|false"
    "|untrue|actually|correction|in fact|i disagree|i beg to differ|nonsense|rubbish"
)
_LEAD_SUBJECTS = "(?:that|this|it|you|that answer) (?:is|"
_LEAD_COPULAS = "is|are|was|were"
_LEAD_VERDICTS = (
    "wrong|incorrect|not right|not correct|mistaken|not true|false|not it|a myth|not so|nonsense"
)
_GOT = "(?:got|have|had|are getting) (?:it|that|this) (?:all )?(?:wrong|backwards|mixed up)"
_THINK_YOU = "i think you (?:are|were) (?:wrong|mistaken)"
_NOT_THINK = "i do not think (?:so|that is (?:right|true|correct)|you are right)"
_CORRECT_YOU = "(?:let me|i have to|i must|allow me to) correct you"


def _singles() -> dict[str, tuple[str, str, str]]:
    """Members of groups whose text is not a plain alternation: (attribute, old, new)."""
    out: dict[str, tuple[str, str, str]] = {}
    for mark in (".", "!", "?", ";", "\\u2026"):
        shown = "\u2026" if mark == "\\u2026" else mark
        out[f"end mark {shown}"] = ("_END", _MARKS, _MARKS.replace(mark, "", 1))
    out["dash \u2014"] = ("_END", _DASHES, r"(?<=\s)[\u2013-]+(?=\s)")
    out["dash bare \u2014"] = ("_END", _DASHES, r"(?<=\s)[\u2014\u2013-]+(?=\s)")
    out["dash \u2013"] = ("_END", _DASHES, r"(?<=\s)[\u2014-]+(?=\s)|\u2014")
    out["dash -"] = ("_END", _DASHES, r"(?<=\s)[\u2014\u2013]+(?=\s)|\u2014")
    for name, attribute, text in (
        ("colon word", "_END", _COLON),
        ("belief verb", "_BELIEF", _OPENERS),
        ("belief reporter", "_BELIEF", _REPORTERS),
        ("belief report", "_BELIEF", _REPORTS),
        ("lead", "_CORRECTION_LEAD", _LEADS),
        ("lead verdict", "_CORRECTION_LEAD", _LEAD_VERDICTS),
    ):
        for member in text.split("|"):
            kept = "|".join(m for m in text.split("|") if m != member)
            out[f"{name} {member}"] = (attribute, text, kept)
    for member in reading.INTERJECTIONS.split("|"):
        kept = "|".join(m for m in reading.INTERJECTIONS.split("|") if m != member)
        out[f"interjection {member}"] = ("_LEADS", reading.INTERJECTIONS, kept)
    out["belief correct me if"] = ("_BELIEF", r"|correct me if\b", "")
    for member in ("i", "we"):
        kept = "we" if member == "i" else "i"
        out[f"belief subject {member}"] = ("_BELIEF", _BELIEVERS, f"(?:{kept}) (?:think|")
    for member in ("of", "about", "so"):
        kept = "|".join(f" {m}\\b" for m in ("of", "about", "so") if m != member)
        out[f"belief exclusion {member}"] = ("_BELIEF", _NOT_BELIEF, f"(?!{kept})")
    for member in ("that", "this", "it", "you", "that answer"):
        kept = "|".join(m for m in ("that", "this", "it", "you", "that answer") if m != member)
        out[f"lead subject {member}"] = ("_CORRECTION_LEAD", _LEAD_SUBJECTS, f"(?:{kept}) (?:is|")
    for member in _LEAD_COPULAS.split("|"):
        kept = "|".join(m for m in _LEAD_COPULAS.split("|") if m != member)
        old = f"(?:{_LEAD_COPULAS}) (?:wrong"
        out[f"lead copula {member}"] = ("_CORRECTION_LEAD", old, f"(?:{kept}) (?:wrong")
    for name, text in (("got", _GOT), ("think you", _THINK_YOU), ("not think", _NOT_THINK)):
        for member in re.findall(r"[a-z][a-z ]*[a-z]", text):
            if member in ("i think you", "i do not think", "that is", "all"):
                continue
            out.setdefault(f"lead {name} {member}", ("_CORRECTION_LEAD", text, _drop(text, member)))
    for member in ("you", "i think you"):
        kept = "i think you" if member == "you" else "you"
        out[f"lead got subject {member}"] = (
            "_CORRECTION_LEAD",
            "(?:you|i think you) (?:have )?",
            f"(?:{kept}) (?:have )?",
        )
    out["lead i do not agree"] = ("_CORRECTION_LEAD", r"|i do not agree\b", "")
    for member in ("let me", "i have to", "i must", "allow me to"):
        out[f"lead correct you {member}"] = (
            "_CORRECTION_LEAD",
            _CORRECT_YOU,
            _drop(_CORRECT_YOU, member),
        )
    return out


def _drop(text: str, member: str) -> str:
    """*text* with the alternative *member* taken out of its group (``(?:a|member|b)``)."""
    pattern = re.compile(rf"(?<=[(|:]){re.escape(member)}(?=[|)])")
    found = pattern.search(text)
    assert found, (text, member)
    start, end = found.span()
    if text[end] == "|":
        return text[:start] + text[end + 1 :]
    return text[: start - 1] + text[end:]


MEMBERS: dict[str, tuple[str, str, str]] = _singles()
"""Every member a broken reader drops: its name and (attribute, old text, new text)."""


@contextmanager
def _dropping(member: str) -> Iterator[None]:
    attribute, old, new = MEMBERS[member]
    module = sentences if attribute == "_END" else reading
    kept = getattr(module, attribute)
    assert kept.pattern.count(old) == 1, (member, old)
    setattr(module, attribute, re.compile(kept.pattern.replace(old, new)))
    reading.forget_readings()
    try:
        yield
    finally:
        setattr(module, attribute, kept)
        reading.forget_readings()


@contextmanager
def _abbreviation(word: str) -> Iterator[None]:
    kept = sentences.ABBREVIATIONS
    sentences.ABBREVIATIONS = kept - {word}
    reading.forget_readings()
    try:
        yield
    finally:
        sentences.ABBREVIATIONS = kept
        reading.forget_readings()


ABBREVIATIONS = tuple(sorted(sentences.ABBREVIATIONS))
"""Every abbreviation a broken reader drops."""


@functools.cache
def dropped(member: str) -> type[ProtocolHandler]:
    """The reference reading prompts without *member* (a key of ``MEMBERS``, or
    ``abbreviation <word>``)."""
    kind, _, word = member.partition(" ")

    def chat(self: ProtocolHandler, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        context = _abbreviation(word) if kind == "abbreviation" else _dropping(member)
        with context:
            return ProtocolHandler.chat(self, runtime, text)

    name = "Dropped" + re.sub(r"\W+", "_", member.title())
    doc = f"The reader drops the {member!r} from its list."
    return type(name, (ProtocolHandler,), {"chat": chat, "__doc__": doc, "__module__": __name__})
