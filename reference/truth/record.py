"""The truth record of a turn and its trace hash.

The trace hash is the SHA-256 of the canonical JSON of :meth:`TruthRecord.sealed_content`.
It is computed once, before any surface is realized, and nothing on the
realizer side can feed back into it. ``docs/trace-hash.md`` defines every field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, Unpack

from reference.canonical import digest
from reference.lexicon import Lemma
from reference.truth.grounding import Grounding
from reference.truth.intent import IntentTag

RECORD_SCHEMA = "core-truth-record/1"


def lemma_content(entry: Lemma) -> dict[str, object]:
    """The full grounded content of a lemma: every domain, and the gloss (or null)."""
    return {
        "domains": list(entry.domains),
        "gloss": entry.gloss,
        "lemma": entry.lemma,
        "pack_id": entry.pack_id,
        "pos": entry.pos,
    }


class SealedFields(TypedDict):
    """The fields of a :class:`TruthRecord` that its trace hash seals."""

    turn_idx: int
    normalized_input: str
    tokens: tuple[str, ...]
    intent: IntentTag
    subject: str | None
    grounding: Grounding
    field_digest: str


@dataclass(frozen=True)
class TruthRecord:
    """Everything the truth path decided about one turn, sealed by ``trace_hash``."""

    turn_idx: int
    normalized_input: str
    tokens: tuple[str, ...]
    intent: IntentTag
    subject: str | None
    grounding: Grounding
    field_digest: str
    versor_condition: float
    trace_hash: str

    @staticmethod
    def sealed_content(
        *,
        turn_idx: int,
        normalized_input: str,
        tokens: tuple[str, ...],
        intent: IntentTag,
        subject: str | None,
        grounding: Grounding,
        field_digest: str,
    ) -> dict[str, object]:
        """The JSON object the trace hash is taken over (no floats)."""
        path = grounding.path
        sealed: dict[str, object] = {
            "claim": grounding.claim,
            "field_digest": field_digest,
            "grounded": [lemma_content(entry) for entry in grounding.lemmas],
            "grounding_source": grounding.source,
            "input": normalized_input,
            "intent": intent.name,
            "schema": RECORD_SCHEMA,
            "subject": subject,
            "teaching_path": path.as_json() if path is not None else [],
            "tokens": list(tokens),
            "turn_idx": turn_idx,
            "unknown": list(grounding.unknown),
            "vault_hits": [hit.as_json() for hit in grounding.hits],
        }
        if grounding.answer is not None:
            sealed["answer"] = grounding.answer.as_json()
        return sealed

    def content(self) -> dict[str, object]:
        """The sealed content of this record (the object its trace hash is taken over)."""
        return self.sealed_content(
            turn_idx=self.turn_idx,
            normalized_input=self.normalized_input,
            tokens=self.tokens,
            intent=self.intent,
            subject=self.subject,
            grounding=self.grounding,
            field_digest=self.field_digest,
        )

    @classmethod
    def seal(cls, *, versor_condition: float, **content: Unpack[SealedFields]) -> TruthRecord:
        """Build the record and compute its trace hash from the sealed content."""
        trace_hash = digest(cls.sealed_content(**content))
        return cls(versor_condition=versor_condition, trace_hash=trace_hash, **content)
