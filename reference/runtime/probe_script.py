"""The ratification probe's prompt script: one question per lexicon lemma (lanes and
benchmarks replay it too)."""

from __future__ import annotations

from reference.lexicon import Lexicon, default_lexicon

INTENT_TEMPLATES = (
    "What is {a}?",
    "Tell me about {a}.",
    "Give me an example of {a}.",
    "How do I work with {a}?",
    "Compare {a} and {b}.",
    "How is {a} connected to {b}?",
    "What did I say about {a}?",
    "No, {a} is {b}.",
    "Why {a}?",
    "Is {a} a kind of {b}?",
    "Think of {a} as {b}.",
    "Define {a}.",
)


def lexicon_script(lexicon: Lexicon | None = None) -> list[str]:
    """One prompt per lemma, cycling through intent templates, plus out-of-lexicon turns."""
    names = [entry.lemma for entry in (lexicon or default_lexicon()).lemmas]
    prompts = [
        INTENT_TEMPLATES[i % len(INTENT_TEMPLATES)].format(
            a=name, b=names[(i * 7 + 3) % len(names)]
        )
        for i, name in enumerate(names)
    ]
    return [*prompts, "What is a zorbleflax?", "hello", "What is light?"]
