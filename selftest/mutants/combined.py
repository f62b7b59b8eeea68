"""Defects an unseen engine carries together, each of which must still fail its own requirement.

The single defects here are the ones that once hid behind each other: a crash on text
with no known word masked decoration seeded from the surface and a trace hash that
slips under terse_v1 on one gloss-less lemma. The combined engines mix them (Python's
method resolution chains each override to the next) so the self-test can prove every
defect is reported under its own id in one run.
"""

from __future__ import annotations

import hashlib

from reference.runtime import ChatRuntime, TurnRuntime
from reference.serve import ProtocolHandler
from reference.truth.record import TruthRecord
from selftest.mutants.overrides import PerIntentIgnored
from selftest.mutants.variation import SurfaceSeeded

TERSE = "terse_v1"


class CrashesWithoutKnownWord(ProtocolHandler):
    """Chat fails with an internal error on text that holds no word of the engine's lexicon."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        if not record.grounding.lemmas:
            raise RuntimeError("nothing to realize: the text holds no known word")
        return super().realize_turn(runtime, record)


class TerseHashSlip(ProtocolHandler):
    """Under terse_v1 the trace hash of turns about one gloss-less lemma (the middle) changes."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, object]:
        response = super().chat(runtime, text)
        if runtime.register_id != TERSE or response["subject"] != self.slipping_lemma():
            return response
        slipped = hashlib.sha256(f"terse|{response['trace_hash']}".encode()).hexdigest()
        return {**response, "trace_hash": slipped}

    def slipping_lemma(self) -> str | None:
        glossless = sorted(r["lemma"] for r in self.lexicon_rows() if not r["has_gloss"])
        return glossless[len(glossless) // 2] if glossless else None


class CrashAndSurfaceSeeded(CrashesWithoutKnownWord, SurfaceSeeded):
    """Two defects: an internal error without a known word, and surface-seeded decoration."""


class FourDefects(CrashesWithoutKnownWord, SurfaceSeeded, TerseHashSlip, PerIntentIgnored):
    """Four defects: no-known-word crash, surface seeding, terse hash slip, per_intent ignored."""
