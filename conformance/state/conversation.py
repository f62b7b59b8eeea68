"""Generated multi-turn conversations for the life requirements and the soak.

A conversation is a list of prompts drawn from the forms of docs/intents.md that touch
the life of a session: teaching a fact, recalling what was said (about one subject or
the whole session), correcting a claim, comparing two subjects, asking a definition, and
a word that refers back. It is a pure function of its lemmas and its seed. Given the
lexicon, it also names some subjects through a plural the folding rules take back to them
(`rivers` for *river*), so what is keyed by a lemma is seen apart from the word as written.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from conformance.folding import lemma_named

FORMS = ("teach", "recall", "correct", "compare", "define", "recall_all", "refer_back")
SPELT = ("recall", "compare", "define")
"""The forms whose subject may be written as a plural."""


def prompt(form: str, a: str, b: str) -> str:
    """The prompt of *form* about lemmas *a* (and *b*)."""
    texts = {
        "teach": f"{a.capitalize()} is a kind of {b}.",
        "recall": f"What did I say about {a}?",
        "correct": f"No, {a} is {b}.",
        "compare": f"Compare {a} and {b}.",
        "define": f"What is {a}?",
        "recall_all": "What have I told you so far?",
        "refer_back": "Tell me more about it.",
    }
    return texts[form]


def plural(lemma: str, held: Collection[str]) -> str | None:
    """The English plural of *lemma* (``-ies`` after a consonant and ``y``, else ``-s``) when
    it is no lemma of *held* and folds back to *lemma*, else None."""
    consonant_y = lemma.endswith("y") and lemma[-2:-1] not in ("a", "e", "i", "o", "u", "")
    word = lemma[:-1] + "ies" if consonant_y else lemma + "s"
    return word if word not in held and lemma_named(word, held) == lemma else None


def conversation(
    lemmas: Sequence[str], turns: int, seed: int, held: Collection[str] | None = None
) -> list[str]:
    """*turns* prompts over *lemmas*, deterministic in *seed*; recalls and corrections
    favour subjects taught earlier, so the vault is read as well as written. With *held*
    (the lexicon's lemmas), about half the subjects of :data:`SPELT` forms that have a
    plural folding back to them are written as that plural."""
    rng = random.Random(seed)
    taught: list[str] = []
    prompts = []
    for _ in range(turns):
        form = rng.choice(FORMS)
        pool = taught if taught and form in ("recall", "correct") else lemmas
        a, b = rng.choice(pool), rng.choice(lemmas)
        if form == "teach":
            taught.append(a)
        if held is not None and form in SPELT and rng.random() < 0.5:
            a = plural(a, held) or a
        prompts.append(prompt(form, a, b))
    return prompts
