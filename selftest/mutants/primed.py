"""Broken readings that show only after an earlier turn (COG-PRIMED-001): in a fresh session
there is no latest subject, so a slot that refers back where it must not, or does not where
it must, reads the same as the docs' case."""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest.mock import patch

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import intent, pipeline
from reference.truth.intent import IntentTag


class LeadWithoutContentRefersBack(ProtocolHandler):
    """A correction lead with nothing to claim takes the latest subject: `No, it is.` after
    `What is a lake?` is about the lake."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        classify = pipeline.classify_intent

        def referring(normalized: str, tokens: Any, lexicon: Any, context: Any) -> Any:
            found = classify(normalized, tokens, lexicon, context)
            if found.intent is IntentTag.CORRECTION and not found.terms and context:
                return dataclasses.replace(found, subject=context, terms=(context,))
            return found

        with patch.object(pipeline, "classify_intent", referring):
            return super().chat(runtime, text)


class CueSlotWithoutContentAddsNothing(ProtocolHandler):
    """A cue-word slot left with no content word adds nothing (it is not read `it`): `What
    is a q?` after `What is a lake?` has no subject."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        classify = pipeline.classify_intent

        def unread(normalized: str, tokens: Any, lexicon: Any, context: Any) -> Any:
            found = classify(normalized, tokens, lexicon, context)
            reading = intent.read(normalized, lexicon)
            if reading.cued and reading.slots == ("it",):
                return dataclasses.replace(found, subject=None, terms=())
            return found

        with patch.object(pipeline, "classify_intent", unread):
            return super().chat(runtime, text)


class UndecidedPromptIgnoresLatestSubject(ProtocolHandler):
    """In a prompt no sentence of which decides (UNKNOWN with its sentences as its slots), a
    slot that refers back looks for its referent among the other sentences, as a deciding
    sentence's slot would, and so never takes the session's latest subject: `So be it.
    Blorvex and glim.` after `What is a lake?` is about blorvex."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        classify = pipeline.classify_intent

        def undecided(normalized: str, tokens: Any, lexicon: Any, context: Any) -> Any:
            reading = intent.read(normalized, lexicon)
            if reading.intent is IntentTag.UNKNOWN and len(reading.slots) > 1:
                context = None
            return classify(normalized, tokens, lexicon, context)

        with patch.object(pipeline, "classify_intent", undecided):
            return super().chat(runtime, text)


PRIMED_MUTANTS = (
    ("lead_without_content_refers_back", LeadWithoutContentRefersBack, "COG-PRIMED-001"),
    ("cue_slot_without_content_adds_nothing", CueSlotWithoutContentAddsNothing, "COG-PRIMED-001"),
    (
        "undecided_prompt_ignores_latest_subject",
        UndecidedPromptIgnoresLatestSubject,
        "COG-RULE-001",
    ),
)
