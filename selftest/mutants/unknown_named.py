"""A broken engine that tallies a turn with no known subject under its first subject as
written (COG-RECALL-461): the port keys its tally by "the first known subject, else the first
subject", keeping the words apart from the lemmas (so a RECALL of the whole session, which
repeats "the latest three lemmas something was said about", still reads lemmas only), and a
RECALL of a word no pack knows reads that word's tally: it quotes the turns that used it,
counts them, grounds `vault` and words its answer so.

docs/intents.md § Answers: "A turn **names** a subject when the first of that turn's subjects
(§ Subjects) the lexicon knows is the same word as it"; a turn with no subject the lexicon
knows names nothing, and such a RECALL is `oov` with `earlier` 0 (docs/spec.md § Cognition,
grounding rule 5). `Compare a zorb and a river.` still names the river under this key, so
only a RECALL of the unknown word itself shows the mistake."""

from __future__ import annotations

import weakref
from typing import Any
from unittest.mock import patch

from reference.realize.compose import recall_surface
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import pipeline
from reference.truth.grounding import Grounding
from reference.truth.intent import IntentTag
from reference.truth.record import TruthRecord
from reference.truth.text import normalize
from reference.truth.vault import Vault


class UnknownSubjectNamed(ProtocolHandler):
    """A turn with a subject but no lemma is tallied under its first subject as written (a
    tally of words beside the vault's lemmas), and a RECALL of that word reads it."""

    def __init__(self) -> None:
        super().__init__()
        self.words: weakref.WeakKeyDictionary[ChatRuntime, Vault] = weakref.WeakKeyDictionary()

    def realize_turn(self, runtime: Any, record: TruthRecord) -> str:
        """A RECALL answered from a word's tally is worded like any other RECALL from the
        vault (what was said, then the count), with no pack entry to add."""
        hit = record.grounding.vault_hit
        if record.intent is IntentTag.RECALL and hit is not None and not record.grounding.lemmas:
            return recall_surface(hit, None, 0)
        return super().realize_turn(runtime, record)

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        decide = pipeline.decide_grounding
        words = self.words.setdefault(runtime, Vault())

        def keyed_by_word(intent: Any, lexicon: Any, graph: Any, vault: Any) -> Grounding:
            found = decide(intent, lexicon, graph, vault)
            if intent.intent is IntentTag.RECALL and intent.subject and not found.lemmas:
                hit = words.recall(intent.subject)
                if hit is not None:
                    return Grounding("vault", (), found.unknown, None, hit, None)
            return found

        with patch.object(pipeline, "decide_grounding", keyed_by_word):
            result = super().chat(runtime, text)
        subject = result["subject"]
        if subject is not None and result["grounding_source"] == "oov":
            said = None if result["intent"] == IntentTag.RECALL.name else normalize(text)
            words.store(subject, result["turn_idx"], None, said)
        return result


UNKNOWN_NAMED_MUTANTS = (("unknown_subject_named", UnknownSubjectNamed, "COG-RECALL-461"),)
