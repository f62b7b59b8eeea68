"""The word folding of docs/intents.md § Subjects: the forms a word is looked up as, in
order, and the lemma a word names in a lexicon."""

from __future__ import annotations

from collections.abc import Collection

VOWELS = frozenset("aeiou")


def folded_forms(word: str) -> list[str]:
    """*word*, then every form the folding rules of docs/intents.md give for it, in order."""
    forms = [word]
    if word.endswith("ies") and len(word) > 4:
        forms.append(word[:-3] + "y")
    if word.endswith("ves") and len(word) > 4:
        forms += [word[:-3] + "f", word[:-3] + "fe"]
    if word.endswith("es") and len(word) > 4:
        forms.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        forms.append(word[:-1])
    if word.endswith("ing") and len(word) > 5:
        stem = word[:-3]
        forms += [stem, stem + "e"]
        if stem[-1] == stem[-2] and stem[-1] not in VOWELS:
            forms.append(stem[:-1])
    return forms


def lemma_named(word: str, lemmas: Collection[str]) -> str | None:
    """The lemma *word* names: the first of its folded forms *lemmas* holds, else None."""
    return next((form for form in folded_forms(word) if form in lemmas), None)
