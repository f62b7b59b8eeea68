"""The words a prompt's form is read from: contractions spelled out, misspelt form words mended.

Both rules are closed and normative (docs/intents.md § How a prompt is read, steps 2
and 3): a contraction is spelled out only from :data:`CONTRACTIONS` and the rules of
:func:`expand`, and a word is mended only into one of :data:`TYPO_TARGETS` by the edit
rule of :func:`mend`. The normalised input and its tokens, which the trace record
seals, are never changed: only the reading sees these words.
"""

from __future__ import annotations

from collections.abc import Callable

from reference.truth.text import STOPWORDS, sub_words

CONTRACTIONS: dict[str, str] = {
    "can't": "can not",
    "won't": "will not",
    "shan't": "shall not",
    "ain't": "is not",
    "let's": "let us",
    "whats": "what is",
    "thats": "that is",
    "wheres": "where is",
    "whos": "who is",
    "hows": "how is",
    "whys": "why is",
    "theres": "there is",
    "dont": "do not",
    "doesnt": "does not",
    "didnt": "did not",
    "isnt": "is not",
    "arent": "are not",
    "wasnt": "was not",
    "werent": "were not",
    "cant": "can not",
    "couldnt": "could not",
    "wouldnt": "would not",
    "shouldnt": "should not",
    "hasnt": "has not",
    "havent": "have not",
    "im": "i am",
    "ive": "i have",
    "youre": "you are",
    "theyre": "they are",
    "u": "you",
    "r": "are",
    "ur": "your",
    "pls": "please",
    "plz": "please",
    "thx": "thanks",
    "cuz": "because",
    "coz": "because",
}
"""Whole-word contractions, with and without their apostrophe, and chat shorthand."""

IS_BEFORE_S = frozenset("it that what where who how why when there here he she this which".split())
"""Words whose ``'s`` is ``is`` (``what's``); on any other word ``'s`` is a possessive."""

CLITICS = {"re": "are", "m": "am", "ve": "have", "ll": "will", "d": "would"}
"""``'re``, ``'m``, ``'ve``, ``'ll`` and ``'d`` after any word."""

TYPO_TARGETS = tuple(
    """what when where which why how who does the are can could would should about between
    and for this that with tell give
    please because there your you example explain describe define definition meaning
    remember remind compare connected related difference different similar through
    without""".split()
)
"""The form words a misspelling is mended into (the closed list of docs/intents.md)."""


def _expand_word(word: str) -> str:
    if word in CONTRACTIONS:
        return CONTRACTIONS[word]
    if "'" not in word:
        return word
    stem, clitic = word.split("'", 1)
    if clitic == "t" and stem.endswith("n"):
        return f"{stem[:-1]} not"
    if clitic == "s" and stem in IS_BEFORE_S:
        return f"{stem} is"
    if clitic in CLITICS:
        return f"{stem} {CLITICS[clitic]}"
    return word


def expand(text: str) -> str:
    """*text* with every contraction of the closed list spelled out (``what's`` -> ``what is``,
    ``isn't`` -> ``is not``, ``dont`` -> ``do not``); a possessive ``'s`` stays."""
    return sub_words(text, _expand_word)


def _transposed(word: str, target: str) -> bool:
    if len(word) != len(target) or word == target:
        return False
    diffs = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
    return (
        len(diffs) == 2
        and diffs[1] == diffs[0] + 1
        and word[diffs[0]] == target[diffs[1]]
        and word[diffs[1]] == target[diffs[0]]
    )


def _one_left_out(short: str, long: str) -> bool:
    """Whether *short* is *long* with one of its inner letters left out."""
    if len(long) != len(short) + 1:
        return False
    return any(long[:i] + long[i + 1 :] == short for i in range(1, len(long) - 1))


def one_edit(word: str, target: str) -> bool:
    """The edit rule: *word* is *target* with two adjacent letters swapped, or with one of
    its inner letters (not the first or the last) left out."""
    return _transposed(word, target) or _one_left_out(word, target)


def mend(word: str, known: Callable[[str], bool]) -> str:
    """The target *word* is a misspelling of, or *word* itself.

    Only a word of three or more letters that is neither a function word nor *known*
    (held by the lexicon) is mended, and only when exactly one target is one edit away.
    """
    if len(word) < 3 or "'" in word or word in STOPWORDS or known(word):
        return word
    found = [target for target in TYPO_TARGETS if one_edit(word, target)]
    return found[0] if len(found) == 1 else word


def mend_stem(word: str, known: Callable[[str], bool]) -> str:
    """*word* with its stem (all of it, or what goes before its apostrophe) mended."""
    stem, apostrophe, clitic = word.partition("'")
    return mend(stem, known) + apostrophe + clitic


def reading_text(normalized: str, mended: Callable[[str], str]) -> str:
    """The text a prompt's form is read from: each word as *mended* gives it (misspellings
    of the form words mended, a contraction's stem too: ``wht's``; see :func:`mend_stem`),
    then contractions spelled out."""
    return expand(sub_words(normalized, mended))
