"""Broken readers that each drop one member of a closed list of docs/intents.md steps 2 to 8
and § Cue words.

``dropped(member)`` is the reference with one member left out of the list it reads prompts
with, as a port that missed one word or one character of the list would: an end mark or a
dash (the sentence splitter), an abbreviation, a word after a colon, a belief opener or one
of its exclusions (`of`, `about`, `so`), a correction lead. ``MEMBERS`` names them all.
``swapped(member)`` does the same for the further lists: a typo target, a contraction, a
wrapper (each word of each group, each optional part, each question word it stands before),
a trailing word, a word the statement asked may not hold or open with, a cue; or it ends a
sentence where none ends (an end mark not followed by a space, a hyphen or en dash not
between spaces). ``SWAPS`` names them all. ``selftest/test_enumerations.py`` checks that
each fails ``COG-RULE-001``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import reference.truth.grammar as grammar
import reference.truth.intent as reading
import reference.truth.sentences as sentences
import reference.truth.spelling as spelling
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler

_MARKS = r"[.!?;\u2026]+"
_DASHES = r"(?<= )[\u2014\u2013-]+(?= )|\u2014"
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
        out[f"end mark {shown}"] = ("SENTENCE_END", _MARKS, _MARKS.replace(mark, "", 1))
    out["dash \u2014"] = ("SENTENCE_END", _DASHES, r"(?<= )[\u2013-]+(?= )")
    out["dash bare \u2014"] = ("SENTENCE_END", _DASHES, r"(?<= )[\u2014\u2013-]+(?= )")
    out["dash \u2013"] = ("SENTENCE_END", _DASHES, r"(?<= )[\u2014-]+(?= )|\u2014")
    out["dash -"] = ("SENTENCE_END", _DASHES, r"(?<= )[\u2014\u2013]+(?= )|\u2014")
    for name, attribute, text in (
        ("colon word", "SENTENCE_END", _COLON),
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
    module = sentences if attribute == "SENTENCE_END" else reading
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


# Further closed lists: step 2's typo targets, step 3's contractions, step 7's wrappers,
# each cue of § Cue words, and where step 6 does not end a sentence (a hyphen or en dash
# not between spaces, an end mark not followed by a space).

_WH = ",? (?=(?:what|why|how|who|whether|if|which|where|when) )"
_WRAPPER_GROUPS: tuple[tuple[str, str], ...] = (
    ("anywhere", "please |kindly "),
    ("you", "(?:can|could|would|will) (?:you|u) (?:please )?(?!say )"),
    ("someone", "(?:can|could|would|will) (?:someone|somebody|anyone|anybody) (?:please )?"),
    ("need", "(?:i|we) (?:need|want|would like|would love|wish)(?: (?:you )?to)? "),
    (
        "wonder modifier",
        "(?:have |had |do not |did not |never |really |always |still |just |often "
        "|sometimes |am |was |were |can not )*",
    ),
    (
        "wonder verb",
        "(?:know|understand|get|see|wonder|wondered|wondering|been wondering|curious|not sure"
        "|unsure|forget|forgot|remember|want to know|would like to know|need to know)(?: about)?",
    ),
    ("wh verb", "(?:know|understand|see|ask you|find out|learn),?"),
    ("tell", "(?:tell|show|explain to|teach|remind|let) (?:me|us)(?: know)?"),
    (
        "explain",
        "(?:explain|describe|clarify|sum up|summarize|break down|spell out|define)(?: to me)?",
    ),
    (
        "how would",
        "how (?:would|do|can|could|should|might) (?:you|we|one|i) (?=(?:describe|define|explain"
        "|characterize|summarize) )",
    ),
    ("know", "(?:do you know|any idea|have you any idea|do you have any idea|let me know),? "),
    (
        "belief",
        "(?:i|we) (?:think|believe|guess|suppose|reckon|bet|feel like|heard|have heard|read"
        "|was told|were told|am sure|am pretty sure|am fairly sure)(?: that)? ",
    ),
    ("reporter", "(?:someone|somebody|people|they) (?:told me|tell me|say|said)(?: that)? "),
)
"""Step 7's wrappers, as ``reference.truth.intent._WRAPPERS`` writes them: one group each."""

_WRAPPER_WHOLE = {
    "wrapper no idea": ("(?:i have )?no idea", "(?:i have )?xno idea"),
    "wrapper i have no idea": ("(?:i have )?no idea", "no idea"),
    "wrapper help me understand": ("help me understand", "xhelp me understand"),
    "wrapper correct me if i am wrong": ("correct me if i am wrong,? (?:but )?", "xcorrect me"),
    "wrapper correct me if i am wrong but": (
        "correct me if i am wrong,? (?:but )?",
        "correct me if i am wrong,? ",
    ),
    "wrapper do you think": ("(?:do|did) you think(?: that)? ", "(?:did) you think(?: that)? "),
    "wrapper did you think": ("(?:do|did) you think(?: that)? ", "(?:do) you think(?: that)? "),
    "wrapper do you think that": ("(?:do|did) you think(?: that)? ", "(?:do|did) you think "),
    "wrapper would you say": ("would you say(?: that)? ", "xwould you say "),
    "wrapper would you say that": ("would you say(?: that)? ", "would you say "),
    "wrapper need you to": ("(?: (?:you )?to)? ", "(?: to)? "),
    "wrapper need to": ("(?: (?:you )?to)? ", "(?: you to)? "),
    "wrapper wonder about": ("need to know)(?: about)?", "need to know)"),
    "wrapper explain to me": ("(?: to me)?", ""),
    "wrapper tell me know": ("(?:me|us)(?: know)?", "(?:me|us)"),
    "wrapper belief that": ("am fairly sure)(?: that)? ", "am fairly sure) "),
    "wrapper reporter that": ("said)(?: that)? ", "said) "),
    "wrapper wonder subject i": ("(?:i|we) (?:have |had |do not ", "(?:we) (?:have |had |do not "),
    "wrapper wonder subject we": ("(?:i|we) (?:have |had |do not ", "(?:i) (?:have |had |do not "),
}
"""Wrapper members that are no plain alternative of a group: (old text, new text)."""

_GROUP_PLAIN = re.compile(r"\(\?:((?:[a-z ]+\|)+[a-z ]+)\)")


def _regex_swap(module: Any, attribute: str, old: str, new: str, count: int = 1) -> Any:
    def change(kept: re.Pattern[str]) -> re.Pattern[str]:
        assert kept.pattern.count(old) == count, (attribute, old)
        return re.compile(kept.pattern.replace(old, new))

    return (module, attribute, change)


def _wrapper_swaps() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, group in _WRAPPER_GROUPS:
        for found in _GROUP_PLAIN.finditer(group):
            members = found.group(1).split("|")
            for member in members:
                kept = "|".join(m for m in members if m != member)
                new = group[: found.start()] + f"(?:{kept})" + group[found.end() :]
                key = f"wrapper {name} {member.strip()}"
                out.setdefault(key, _regex_swap(reading, "_WRAPPERS", group, new))
        if name == "anywhere":
            for member in group.split("|"):
                new = "|".join(m for m in group.split("|") if m != member)
                out[f"wrapper {name} {member.strip()}"] = _regex_swap(
                    reading, "_WRAPPERS", "^(?:" + group + "|", "^(?:" + new + "|"
                )
    for key, (old, new) in _WRAPPER_WHOLE.items():
        out[key] = _regex_swap(reading, "_WRAPPERS", old, new)
    members = "what|why|how|who|whether|if|which|where|when".split("|")
    for member in members:
        kept = "|".join(m for m in members if m != member)
        new = f",? (?=(?:{kept}) )"
        out[f"wrapper before {member}"] = _regex_swap(reading, "_WRAPPERS", _WH, new, 6)
    return out


def _cue_swaps() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for index in range(len(reading.CUES)):
        row = f"C-{index + 1:02d}"
        source = reading.CUES[index][1].pattern
        body = source[len(r"\b(?:") : -len(r")\b")]
        for member in body.split("|") if index else ("remember", "recall"):
            for spelled, new in _cue_members(body, member):
                out[f"cue {row} {spelled}"] = (reading, "CUES", _cue_change(index, body, new))
    recall = reading.CUES[0][1].pattern
    for found in _GROUP_PLAIN.finditer(recall):
        for member in found.group(1).split("|"):
            kept = "|".join(m for m in found.group(1).split("|") if m != member)
            new = recall[: found.start()] + f"(?:{kept})" + recall[found.end() :]
            out[f"cue C-01 {member.strip()}"] = (reading, "CUES", _cue_change(0, None, new))
    return out


def _cue_members(body: str, member: str) -> list[tuple[str, str]]:
    """Each spelling a cue alternative stands for, with the row body that drops it alone."""
    if "(" in member or ")" in member:
        return []
    parts = body.split("|")
    if member.endswith("s?"):
        stem = member[:-2]
        return [
            (stem, "|".join(f"{stem}s" if p == member else p for p in parts)),
            (f"{stem}s", "|".join(stem if p == member else p for p in parts)),
        ]
    if member.startswith("leads? "):
        rest = member[len("leads? ") :]
        return [
            (f"lead {rest}", "|".join(f"leads {rest}" if p == member else p for p in parts)),
            (f"leads {rest}", "|".join(f"lead {rest}" if p == member else p for p in parts)),
        ]
    if member.startswith("comes? "):
        rest = member[len("comes? ") :]
        return [
            (f"come {rest}", "|".join(f"comes {rest}" if p == member else p for p in parts)),
            (f"comes {rest}", "|".join(f"come {rest}" if p == member else p for p in parts)),
        ]
    if member.startswith("ways? "):
        rest = member[len("ways? ") :]
        return [
            (f"way {rest}", "|".join(f"ways {rest}" if p == member else p for p in parts)),
            (f"ways {rest}", "|".join(f"way {rest}" if p == member else p for p in parts)),
        ]
    return [(member, "|".join(p for p in parts if p != member))]


def _cue_change(index: int, body: str | None, new: str) -> Any:
    def change(kept: tuple[Any, ...]) -> tuple[Any, ...]:
        intent, pattern, question = kept[index]
        source = new if body is None else r"\b(?:" + new + r")\b"
        assert source != pattern.pattern
        return (*kept[:index], (intent, re.compile(source), question), *kept[index + 1 :])

    return change


def _spelling_swaps() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in spelling.CONTRACTIONS:
        out[f"contraction {key}"] = (
            spelling,
            "CONTRACTIONS",
            lambda kept, key=key: {k: v for k, v in kept.items() if k != key},
        )
    for word in sorted(spelling.IS_BEFORE_S):
        out[f"contraction {word}'s"] = (spelling, "IS_BEFORE_S", lambda kept, w=word: kept - {w})
    for clitic in spelling.CLITICS:
        out[f"contraction '{clitic}"] = (
            spelling,
            "CLITICS",
            lambda kept, c=clitic: {k: v for k, v in kept.items() if k != c},
        )
    out["contraction n't"] = (spelling, "_expand_word", _without_not)
    for target in spelling.TYPO_TARGETS:
        out[f"typo {target}"] = (
            spelling,
            "TYPO_TARGETS",
            lambda kept, t=target: tuple(x for x in kept if x != t),
        )
    return out


def _without_not(kept: Any) -> Any:
    def expand_word(word: str) -> str:
        if word.endswith("n't") and word not in spelling.CONTRACTIONS:
            return word
        return str(kept(word))

    return expand_word


def _sentence_swaps() -> dict[str, Any]:
    end = sentences.SENTENCE_END.pattern
    marks = r"[.!?;\u2026]+(?= |$)"
    out: dict[str, Any] = {}
    for mark in (".", "!", "?", ";", "\\u2026"):
        shown = "\u2026" if mark == "\\u2026" else mark
        glued = rf"{re.escape(shown)}+|" + marks
        out[f"end mark {shown} glued"] = _regex_swap(sentences, "SENTENCE_END", marks, glued)
    dashes = r"(?<= )[\u2014\u2013-]+(?= )"
    for dash, shown in (("-", "-"), ("\\u2013", "\u2013")):
        for side, new in (
            ("bare", rf"{dash}|{dashes}"),
            ("before", rf"(?<= ){dash}|{dashes}"),
            ("after", rf"{dash}(?= )|{dashes}"),
        ):
            out[f"dash {shown} {side}"] = _regex_swap(sentences, "SENTENCE_END", dashes, new)
    assert end.count(marks) == 1 and end.count(dashes) == 1
    return out


def _asked_change(field: str, word: str) -> Any:
    def change(kept: Any) -> Any:
        words = getattr(kept, field)
        assert word in words, (field, word)
        return dataclasses.replace(kept, **{field: words - {word}})

    return change


def _step_8_swaps() -> dict[str, Any]:
    out: dict[str, Any] = {
        "trailing please": _regex_swap(reading, "_TRAILING", r"|\bplease\b", ""),
        "trailing for me": _regex_swap(reading, "_TRAILING", "for (?:me|us)", "for (?:us)"),
        "trailing for us": _regex_swap(reading, "_TRAILING", "for (?:me|us)", "for (?:me)"),
        "asked and": (reading, "ASKED_STATEMENT", _asked_change("not_words", "and")),
        "asked or": (reading, "ASKED_STATEMENT", _asked_change("not_words", "or")),
    }
    words = "what|why|how|who|whom|which|where|when|whose"
    for word in words.split("|"):
        out[f"asked opening {word}"] = (
            reading,
            "ASKED_STATEMENT",
            _asked_change("not_first", word),
        )
    return out


def _subject_swaps() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for word in sorted(grammar.SKIPPED):
        out[f"passed over {word}"] = (grammar, "SKIPPED", lambda kept, w=word: kept - {w})
    for word in ("i", "we", "you", "they", "it", "to"):
        out[f"verb marker {word}"] = (grammar, "VERB_MARKERS", lambda kept, w=word: kept - {w})
    for word in sorted(grammar.GENERIC_AGENTS):
        out[f"generic agent {word}"] = (grammar, "GENERIC_AGENTS", lambda kept, w=word: kept - {w})
        out[f"generic agent marker {word}"] = (
            grammar,
            "VERB_MARKERS",
            lambda kept, w=word: kept - {w},
        )
    return out


def _alternatives(source: str) -> list[str]:
    """The top-level alternatives of ``^(?:a|b|...)$``."""
    body, depth, start, out = source[4:-2], 0, 0, []
    for index, char in enumerate(body):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            out.append(body[start:index])
            start = index + 1
    return [*out, body[start:]]


def _small_talk_swaps() -> dict[str, Any]:
    """Each alternative of the small-talk form (the UNKNOWN row of § The table of forms)
    left out, and a slot with no word that refers back taken to refer back all the same."""
    frame = reading.FRAMES[0]
    alternatives = _alternatives(frame.source)
    out: dict[str, Any] = {}
    for dropped_one in alternatives:
        rest = "^(?:" + "|".join(a for a in alternatives if a != dropped_one) + ")$"
        out[f"small talk {dropped_one}"] = (
            reading,
            "FRAMES",
            lambda kept, r=rest: (dataclasses.replace(kept[0], source=r), *kept[1:]),
        )
    out["slot without a referring word refers back"] = (
        reading,
        "refers_back",
        lambda kept: lambda slot: True,
    )
    return out


SWAPS: dict[str, Any] = {
    **_spelling_swaps(),
    **_wrapper_swaps(),
    **_cue_swaps(),
    **_sentence_swaps(),
    **_step_8_swaps(),
    **_subject_swaps(),
    **_small_talk_swaps(),
}
"""Every further member a broken reader drops or mishandles: (module, attribute, change),
where *change* maps the attribute's value to the broken one."""


@contextmanager
def _swapping(member: str) -> Iterator[None]:
    module, attribute, change = SWAPS[member]
    kept = getattr(module, attribute)
    setattr(module, attribute, change(kept))
    reading.forget_readings()
    try:
        yield
    finally:
        setattr(module, attribute, kept)
        reading.forget_readings()


@functools.cache
def swapped(member: str) -> type[ProtocolHandler]:
    """The reference reading prompts with *member* (a key of ``SWAPS``) dropped or
    mishandled."""

    def chat(self: ProtocolHandler, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _swapping(member):
            return ProtocolHandler.chat(self, runtime, text)

    name = "Swapped" + re.sub(r"\W+", "_", member.title())
    doc = f"The reader drops or mishandles {member!r}."
    return type(name, (ProtocolHandler,), {"chat": chat, "__doc__": doc, "__module__": __name__})
