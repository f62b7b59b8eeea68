"""Broken readers generated from the rule catalogue: each drops one entry of forms.json.

``without(rule_id)`` is the reference with one form (``F-NNN``), the statement asked
(``F-ASK``) or one row of cue words (``C-NN``) left out of what it reads prompts with, as a
port that missed one line of the data would. ``selftest/test_rule_catalogue.py`` builds one
per entry and checks that ``COG-RULE-001`` fails on it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import reference.truth.intent as reading
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler


def form_ids() -> tuple[str, ...]:
    """The id of every entry of forms.json, in order: forms, the statement asked, cues."""
    data = json.loads(reading.FORMS_PATH.read_text(encoding="utf-8"))
    return (
        *(form["id"] for form in data["forms"]),
        data["asked_statement"]["id"],
        *(cue["id"] for cue in data["cues"]),
    )


@contextmanager
def _left_out(rule_id: str) -> Iterator[None]:
    data = json.loads(reading.FORMS_PATH.read_text(encoding="utf-8"))
    kept = (reading.FRAMES, reading.ASKED_STATEMENT, reading.CUES)
    if rule_id == data["asked_statement"]["id"]:
        never = reading.frame_from({**data["asked_statement"], "pattern": "(?!)"})
        reading.ASKED_STATEMENT = never
    elif rule_id.startswith("C-"):
        index = [cue["id"] for cue in data["cues"]].index(rule_id)
        reading.CUES = reading.CUES[:index] + reading.CUES[index + 1 :]
    else:
        index = [form["id"] for form in data["forms"]].index(rule_id)
        reading.FRAMES = reading.FRAMES[:index] + reading.FRAMES[index + 1 :]
    reading.forget_readings()
    try:
        yield
    finally:
        reading.FRAMES, reading.ASKED_STATEMENT, reading.CUES = kept
        reading.forget_readings()


@functools.cache
def without(rule_id: str) -> type[ProtocolHandler]:
    """The reference with the forms.json entry *rule_id* left out of its reading."""

    def chat(self: ProtocolHandler, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _left_out(rule_id):
            return ProtocolHandler.chat(self, runtime, text)

    name = "Without" + rule_id.replace("-", "")
    doc = f"The reader leaves out the forms.json entry {rule_id}."
    return type(name, (ProtocolHandler,), {"chat": chat, "__doc__": doc, "__module__": __name__})
