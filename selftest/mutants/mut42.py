"""Broken engines for the survivors of the truth path's mutation run (issue 26, item 1): each
breaks one sentence of docs/intents.md that no case held at its edge before."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import intent as reading
from reference.truth import sentences
from reference.truth.sentences import Sentence

Words = Callable[[str], list[str]]
"""How a broken reader cuts the text before a full stop into words."""


def _splitter(words: Words, *, stop_at_abbreviation: bool) -> Callable[..., list[Sentence]]:
    """Step 6 with the word before a full stop cut by *words*, and, when
    *stop_at_abbreviation*, no end mark looked for past an abbreviation's full stop."""

    def split(
        text: str, prepare: Callable[[str], str], asks: Callable[[str], bool] | None = None
    ) -> list[Sentence]:
        pieces: list[tuple[str, bool]] = []
        start = 0
        for end in sentences.SENTENCE_END.finditer(text):
            before = words(text[start : end.start()])
            if end.group(0) == "." and before and before[-1] in sentences.ABBREVIATIONS:
                if stop_at_abbreviation:
                    break
                continue
            pieces.append((text[start : end.end()].strip(), "?" in end.group(0)))
            start = end.end()
        if text[start:].strip():
            pieces.append((text[start:].strip(), False))
        found = [
            Sentence(prepare(piece), question or (asks is not None and asks(piece)))
            for piece, question in pieces
        ]
        return [s for s in found if s.clause]

    return split


@contextmanager
def _splitting(split: Callable[..., list[Sentence]]) -> Iterator[None]:
    """The reference reading with *split* for step 6 (kept readings dropped before and after,
    so no other engine sees them)."""
    kept = getattr(reading, "split_sentences")  # noqa: B009
    setattr(reading, "split_sentences", split)  # noqa: B010
    reading.forget_readings()
    try:
        yield
    finally:
        setattr(reading, "split_sentences", kept)  # noqa: B010
        reading.forget_readings()


class AbbreviationStopEndsScan(ProtocolHandler):
    """Step 6 looks for no end mark past the full stop of an abbreviation: `Rain vs. snow.
    What is light?` is one sentence, not a question."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        split = _splitter(lambda before: before.split(" "), stop_at_abbreviation=True)
        with _splitting(split):
            return super().chat(runtime, text)


class AbbreviationAfterAnySeparator(ProtocolHandler):
    """Step 6 takes the word before a full stop as the last run of non-white-space characters
    (`str.split()`): `rain vs . snow` and `rain` U+001C `vs. snow` hold the full stop of
    `vs`, so neither ends a sentence there."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        split = _splitter(lambda before: before.split(), stop_at_abbreviation=False)
        with _splitting(split):
            return super().chat(runtime, text)
