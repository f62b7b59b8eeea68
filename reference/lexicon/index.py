"""The lexicon: every loaded language pack, indexed by lemma, plus teaching chains."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from reference.errors import LexiconError
from reference.lexicon.loader import (
    DATA_DIR,
    SHIPPED_PACK_IDS,
    load_language_pack,
    parse_teaching,
    read_json,
)
from reference.lexicon.model import LanguagePack, Lemma, TeachingChain

VOWELS = frozenset("aeiou")
"""The letters word folding never undoubles: every other letter is a consonant."""


@dataclass(frozen=True)
class Lexicon:
    """Packs in resolution order; a lemma may be defined by one pack only."""

    packs: tuple[LanguagePack, ...]
    chains: tuple[TeachingChain, ...] = ()
    _index: dict[str, Lemma] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for pack in self.packs:
            for entry in pack.lemmas:
                if entry.lemma in self._index:
                    raise LexiconError(
                        f"lemma {entry.lemma!r} defined by both "
                        f"{self._index[entry.lemma].pack_id} and {pack.pack_id}",
                        field=entry.lemma,
                        code="LEXICON_DUPLICATE_LEMMA",
                    )
                self._index[entry.lemma] = entry

    @property
    def lemmas(self) -> tuple[Lemma, ...]:
        """Every lemma, sorted by lemma text."""
        return tuple(self._index[name] for name in sorted(self._index))

    def lookup(self, word: str) -> Lemma | None:
        """Return the lemma a lowercase word form names, folding simple plurals."""
        for candidate in base_forms(word):
            found = self._index.get(candidate)
            if found is not None:
                return found
        return None


def base_forms(word: str) -> Iterable[str]:
    """*word*, then the forms plural folding looks it up as (docs/intents.md § Subjects)."""
    yield word
    if word.endswith("ies") and len(word) > 4:
        yield word[:-3] + "y"
    if word.endswith("ves") and len(word) > 4:
        yield word[:-3] + "f"
        yield word[:-3] + "fe"
    if word.endswith("es") and len(word) > 4:
        yield word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        yield word[:-1]
    if word.endswith("ing") and len(word) > 5:
        stem = word[:-3]
        yield stem
        yield stem + "e"
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in VOWELS:
            yield stem[:-1]


def load_lexicon(pack_paths: Iterable[Path], teaching_path: Path | None) -> Lexicon:
    """Load packs (in resolution order) and, optionally, teaching chains."""
    packs = tuple(load_language_pack(path) for path in pack_paths)
    lexicon = Lexicon(packs)
    if teaching_path is None:
        return lexicon
    chains = parse_teaching(read_json(teaching_path), frozenset(lexicon._index))
    return Lexicon(packs, chains)


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The shipped packs and teaching chains (loaded once per process)."""
    return load_lexicon(
        (DATA_DIR / f"{pack_id}.json" for pack_id in SHIPPED_PACK_IDS),
        DATA_DIR / "teaching.json",
    )
