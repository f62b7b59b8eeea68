"""Broken function-word lists generated from the docs' closed list: each engine misses one.

``missing_function_word(word)`` is the reference with *word* left out of its function words
(``reference.truth.text.STOPWORDS`` and the modules that read it) while it chats, as a
port that dropped one word of the list would.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import reference.truth.grammar as grammar
import reference.truth.intent as reading
import reference.truth.spelling as spelling
import reference.truth.text as text
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler

_READERS_OF_THE_LIST = (text, spelling, grammar)


@contextmanager
def _without_word(word: str) -> Iterator[None]:
    kept = text.STOPWORDS
    for module in _READERS_OF_THE_LIST:
        module.STOPWORDS = kept - {word}  # type: ignore[attr-defined]
    reading.forget_readings()
    try:
        yield
    finally:
        for module in _READERS_OF_THE_LIST:
            module.STOPWORDS = kept  # type: ignore[attr-defined]
        reading.forget_readings()


@functools.cache
def missing_function_word(word: str) -> type[ProtocolHandler]:
    """The reference with *word* missing from its function words."""

    def chat(self: ProtocolHandler, runtime: ChatRuntime, prompt: str) -> dict[str, Any]:
        with _without_word(word):
            return ProtocolHandler.chat(self, runtime, prompt)

    name = f"FunctionWordMissing{word.capitalize()}"
    doc = f"The function word {word!r} is missing from the engine's list."
    return type(name, (ProtocolHandler,), {"chat": chat, "__doc__": doc, "__module__": __name__})
