"""Prompt scripts the lanes and tools share, beside the reference's own probe script
(``reference.runtime.probe_script.lexicon_script``)."""

from __future__ import annotations


def repeat_script(lemma: str, turns: int) -> list[str]:
    """The same definition prompt asked *turns* times."""
    return [f"What is {lemma}?"] * turns
