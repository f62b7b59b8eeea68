"""Generated multi-turn conversations for the life requirements and the soak.

A conversation is a list of prompts drawn from the forms of docs/intents.md that touch
the life of a session: teaching a fact, recalling what was said (about one subject or
the whole session), correcting a claim, comparing two subjects, asking a definition, and
a word that refers back. It is a pure function of its lemmas and its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

FORMS = ("teach", "recall", "correct", "compare", "define", "recall_all", "refer_back")


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


def conversation(lemmas: Sequence[str], turns: int, seed: int) -> list[str]:
    """*turns* prompts over *lemmas*, deterministic in *seed*; recalls and corrections
    favour subjects taught earlier, so the vault is read as well as written."""
    rng = random.Random(seed)
    taught: list[str] = []
    prompts = []
    for _ in range(turns):
        form = rng.choice(FORMS)
        pool = taught if taught and form in ("recall", "correct") else lemmas
        a, b = rng.choice(pool), rng.choice(lemmas)
        if form == "teach":
            taught.append(a)
        prompts.append(prompt(form, a, b))
    return prompts
