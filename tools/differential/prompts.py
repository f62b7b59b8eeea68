"""Chat prompts: sixteen kinds of text built from the material, then maybe a typo or a
Unicode variant; never a code point unassigned in Unicode 14.0 (FREE-023)."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

from tools.differential.material import Material

DEFINITIONS = (
    "What is {a}?",
    "Define {a}.",
    "What does {a} mean?",
    "Who is {a}?",
    "What are {a}s?",
)
CUED = (
    "{a} and {b}, {c}?",
    "{c} {a} {b}",
    "What is the {c} of {a}?",
    "{A} {c} {b}.",
    "Tell me {c} {a}.",
)
CORRECTIONS = (
    "{A} is {b}.",
    "No, {a} is {b}.",
    "{A} is not {b}.",
    "Actually, the {a} is a {b}.",
    "Wrong. {A} comes from {b}.",
)
RECALLS = (
    "What did I say about {a}?",
    "What have I told you so far?",
    "Remind me what I said about the {a}.",
    "What were we talking about?",
    "Do you remember {a}?",
)
CHAIN_QUESTIONS = (
    "How does {x} connect to {y}?",
    "Is {x} related to {y}?",
    "Does {x} lead to {y}?",
    "Tell me a story about {x}.",
    "Why does {y} happen?",
    "Give me an example of {x}.",
    "Is it true that {x} {r} {y}?",
)
FOLLOW_UPS = (
    "What about it?",
    "Why is that?",
    "Is that true?",
    "Tell me more about them.",
    "And this one?",
    "Really?",
    "How so?",
    "What is it?",
)
VERIFICATIONS = (
    "Is {a} a {b}?",
    "Is it true that {a} is {b}?",
    "Are {a}s {b}?",
    "{A} is {b}, right?",
    "Is the {a} not {b}?",
)
COMPARISONS = (
    "Compare {a} and {b}.",
    "How is {a} different from {b}?",
    "Use {a} to explain {b}, like a metaphor.",
    "How to {a}?",
    "Steps to find {a}.",
    "Why is {a} {b}?",
)
CHATTER = (
    "Hello!",
    "Thanks.",
    "What's up?",
    "I have a question.",
    "Hi there. What is {a}?",
    "Blorptastic zingwort?",
    "",
    " ",
    "?",
    "{a}",
)
ODD = [
    "\u0130",
    "\u03a3",
    "\u00df",
    "\u200b",
    "\ufeff",
    "\u001c",
    "\u2028",
    "\u0085",
    "\n",
    "\r\n",
    "\t",
    "\u00a0",
    "\u3000",
    "\u202f",
    "\u180e",
    "\U0001d400",
    "\u0301",
    "\u02bc",
    "\u2018",
    "\u00e9",
    "e\u0301",
    "_",
    "1",
    "\u2013",
    "\u2014",
    " - ",
    ":",
    ";",
    "'",
    '"',
    "`",
    "\u201c",
    "\u0000",
    "\x7f",
]
# every White_Space character, and characters of the categories the reading names
ODD += [chr(c) for c in (*range(0x9, 0xE), 0x1680, *range(0x2000, 0x200B), 0x2029, 0x205F)]
ODD += ["\u001d", "\u001e", "\u001f", "\u200c", "\u200d", "\u2060", "\u00ad", "\u0663"]
ODD += ["\u02b0", "\u01c5", "\u216b", "\u00b2", "\u0e01", "\u0903", "\u20dd", "\u00bd"]
ODD += ["\u2026", "\u3002", "\uff1f", "\u00bf", "\u00ab", "\u00bb", "\u2019", "?", "!", "."]
ODD += ["\u1e9e", "\u0131", "\u03c3", "\u1f88", "\ufb01", "\u0149", "\U0001f600", "\u00c5"]


def _typo(rng: random.Random, text: str) -> str:
    """*text* with one letter of a long word swapped with the next or dropped."""
    words = text.split(" ")
    long = [i for i, w in enumerate(words) if len(w) >= 4 and w.isalpha()]
    if not long:
        return text
    i = rng.choice(long)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    swapped = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    dropped = w[:j] + w[j + 1 :]
    w = swapped if rng.random() < 0.5 else dropped
    words[i] = w
    return " ".join(words)


def _unicode(rng: random.Random, text: str) -> str:
    """*text* in one of eight Unicode variants (quotes, NFD, case, spaces, ...)."""
    choice = rng.randrange(8)
    if choice == 0:
        return text.replace("'", "\u2019")
    if choice == 1:
        return unicodedata.normalize("NFD", text.replace("e", "\u00e9", 1))
    if choice == 2:
        return text.upper()
    if choice == 3:
        return text.replace(" ", rng.choice(["  ", "\t", "\u00a0", " \u3000 "]), 2)
    if choice == 4:
        return "\u201c" + text + "\u201d"
    if choice == 5:
        return text + rng.choice([" \U0001f600", "!!", "?!", "...", " \u2014 ok"])
    if choice == 6:
        return text.replace("a", "\uff41", 1)
    return " " + text.title() + " "


def _example(rng: random.Random, m: Material, a: str, b: str) -> str:
    text, subject = rng.choice(m.examples)
    if subject not in ("-", "") and subject in text and rng.random() < 0.7:
        text = text.replace(subject, a, 1)
    return text


def _definition(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(DEFINITIONS).format(a=a)


def _cued(rng: random.Random, m: Material, a: str, b: str) -> str:
    cue = rng.choice(m.cues)
    return rng.choice(CUED).format(a=a, b=b, c=cue, A=a.capitalize())


def _correction(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(CORRECTIONS).format(a=a, b=b, A=a.capitalize())


def _recall(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(RECALLS).format(a=a)


def _chain(rng: random.Random, m: Material, a: str, b: str) -> str:
    chain = rng.choice(m.chains)
    x, y = chain[0], chain[-1]
    if rng.random() < 0.3:
        x, y = y, x
    return rng.choice(CHAIN_QUESTIONS).format(
        x=x, y=y, r=rng.choice(["reveals", "feeds", "warms", "is"])
    )


def _follow_up(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(FOLLOW_UPS)


def _verification(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(VERIFICATIONS).format(a=a, b=b, A=a.capitalize())


def _comparison(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(COMPARISONS).format(a=a, b=b)


def _chatter(rng: random.Random, m: Material, a: str, b: str) -> str:
    return rng.choice(CHATTER).format(a=a)


def _joined(rng: random.Random, m: Material, a: str, b: str) -> str:
    return " ".join(prompt(rng, m) for _ in range(rng.randint(2, 3)))


def _cue_soup(rng: random.Random, m: Material, a: str, b: str) -> str:
    return f"{a} {b} {rng.choice(m.cues)} {rng.choice(m.lemmas)}?"


def _reading_words(rng: random.Random, m: Material, a: str, b: str) -> str:
    """Fixed words of the reading steps around lemmas, in a random order."""
    parts = (
        [rng.choice(m.spans) for _ in range(rng.randint(1, 3))]
        + [a] * rng.randint(0, 2)
        + [b] * rng.randint(0, 1)
    )
    rng.shuffle(parts)
    text = " ".join(parts) + rng.choice(["", "?", ".", "!", " ?", "?!", "…"])
    if rng.random() < 0.5:
        text = text[:1].upper() + text[1:]
    return text


def _reading_span(rng: random.Random, m: Material, a: str, b: str) -> str:
    span = rng.choice([s for s in m.spans if " " in s] or m.spans)
    words = span.split(" ")
    if rng.random() < 0.6:
        words[rng.randrange(len(words))] = a
    return " ".join(words)


def _odd_characters(rng: random.Random, m: Material, a: str, b: str) -> str:
    """A prompt with one to three ODD characters inserted, often next to a space."""
    text = prompt(rng, m)
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:  # next to a space, where words and sentences meet
            spaces = [i for i, c in enumerate(text) if c == " "] or [0]
            i = rng.choice(spaces) + rng.choice([0, 1])
        else:
            i = rng.randrange(len(text) + 1)
        text = text[:i] + rng.choice(ODD) + text[i:]
    return text


KINDS: list[Callable[[random.Random, Material, str, str], str]] = [
    _example,
    _definition,
    _cued,
    _correction,
    _recall,
    _chain,
    _follow_up,
    _verification,
    _comparison,
    _chatter,
    _joined,
    _cue_soup,
    _reading_words,
    _reading_words,
    _reading_span,
    _odd_characters,
]
"""The kinds of prompt, drawn uniformly; the reading's words twice as often."""


def prompt(rng: random.Random, m: Material) -> str:
    """One prompt drawn from *rng*, about two lemmas of *m*."""
    a, b = rng.choice(m.lemmas), rng.choice(m.lemmas)
    text = KINDS[rng.randrange(16)](rng, m, a, b)
    roll = rng.random()
    if roll < 0.15:
        text = _typo(rng, text)
    elif roll < 0.3:
        text = _unicode(rng, text)
    # FREE-023: a code point unassigned in Unicode 14.0 (this Python's database) may be
    # read by a later version's properties, so none is sent
    return "".join(c for c in text if unicodedata.category(c) != "Cn")
