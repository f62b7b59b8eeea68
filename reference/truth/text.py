"""Input normalisation, tokenisation, and the function words that are never a subject."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator

WHITE_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""White space (docs/intents.md step 1): the characters of Unicode's White_Space property,
nothing else (not U+001C..U+001F, which ``str.isspace`` also takes, nor U+FEFF or U+200B)."""
_WHITESPACE = re.compile(f"[{WHITE_SPACE}]+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_CLITICS = ("s", "re", "d", "ll", "ve", "m")

STOPWORDS = frozenset(
    """
    a an the this that these those some any each every all both either neither no such
    another other own same few many much more most several enough
    i me my mine myself you your yours yourself yourselves we us our ours ourselves
    he him his himself she her hers herself it its itself they them their theirs themselves
    one ones someone somebody something anyone anybody anything everyone everybody
    everything nobody nothing none
    what whats who whom whose which where when why how whether whatever whichever
    is are was were be been being am do does did done doing have has had having
    can could should would will shall may might must ought
    to of in on at by for from with about into onto upon over under through between among
    across after before during within without against toward towards via per
    as and or but nor so yet if then than because while though although unless until
    not never yes yeah yep no nope nah ok okay hi hello hey thanks thank please oh ah um uh hmm
    there here now just also very really quite rather too even still again already ever
    exactly actually maybe perhaps anyway basically simply only
    like unlike up down out off away back two three
    """.split()
)
"""Function words: determiners, pronouns, auxiliaries, prepositions, conjunctions,
question words, interjections and discourse particles. Never a turn's subject."""


def normalize(text: str) -> str:
    """NFC-normalise, unify apostrophes, lowercase, collapse white space runs and strip: after
    it the only white space character left is the space."""
    nfc = unicodedata.normalize("NFC", text).translate(_APOSTROPHES)
    return _WHITESPACE.sub(" ", nfc).strip(" ").lower()


def _letter_view(text: str) -> str:
    """*text* with every number character that is not a letter (``²``, ``Ⅻ``, ``5``) as a
    space, so that only letters (Unicode general category L) make words."""
    return "".join(" " if c.isnumeric() and not c.isalpha() else c for c in text)


def word_matches(text: str) -> Iterator[re.Match[str]]:
    """The words of *text* (runs of letters, two runs joined by one inner apostrophe), as
    matches whose spans index *text* itself.

    ASCII text is matched as it is: its only number characters are the digits, which
    the word pattern never takes, so its letter view would give the same matches."""
    view = text if text.isascii() else _letter_view(text)
    return _TOKEN.finditer(view)


def sub_words(text: str, replace: Callable[[str], str]) -> str:
    """*text* with each word replaced by ``replace(word)``; everything else kept."""
    pieces, last = [], 0
    for found in word_matches(text):
        pieces += [text[last : found.start()], replace(found.group(0))]
        last = found.end()
    return "".join([*pieces, text[last:]])


def tokenize(normalized: str) -> tuple[str, ...]:
    """Split normalised text into word tokens (letters, with inner apostrophes)."""
    return tuple(found.group(0) for found in word_matches(normalized))


def word_base(token: str) -> str | None:
    """The token without its clitic ("river's" -> "river"); None for a negated auxiliary."""
    if "'" not in token:
        return token
    stem, clitic = token.split("'", 1)
    if clitic == "t":
        return None
    return stem if clitic in _CLITICS else token.replace("'", "")


def content_terms(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Tokens that are neither function words nor contractions of them, in order, once each."""
    seen: dict[str, None] = {}
    for token in tokens:
        base = word_base(token)
        if base is not None and base not in STOPWORDS and len(base) > 1:
            seen.setdefault(base, None)
    return tuple(seen)
