"""Broken selectors and decorators: each class changes one step of seeded variation."""

from __future__ import annotations

import hashlib
import unicodedata
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.oracle import seed_digest
from reference.realize import Decoration, DecorationSeed
from reference.runtime import TurnRuntime
from reference.serve import ProtocolHandler
from reference.truth.record import TruthRecord


class LittleEndianSeed(ProtocolHandler):
    """The selector reads the first 8 digest bytes little-endian instead of big-endian."""

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        if not bucket:
            return None
        digest = seed_digest(bucket_name=bucket_name, **seed)
        return int.from_bytes(digest[:8], "little") % len(bucket)


class BucketNameIgnored(ProtocolHandler):
    """The seed omits the bucket name, so the opening and the closing picks correlate."""

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        return super().select_index(bucket, "", seed)


class BiasedSelector(ProtocolHandler):
    """The selector returns index 0 whenever the first digest byte is below 64."""

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        if bucket and seed_digest(bucket_name=bucket_name, **seed)[0] < 64:
            return 0
        return super().select_index(bucket, bucket_name, seed)


class SurfaceSeeded(ProtocolHandler):
    """Chat seeds its decoration from the pre-decoration surface instead of the trace hash."""

    def decoration_seed(
        self, runtime: TurnRuntime, record: TruthRecord, pre: str, turn_idx: int
    ) -> DecorationSeed:
        seed = super().decoration_seed(runtime, record, pre, turn_idx)
        return DecorationSeed(
            trace_hash=pre, register_id=seed["register_id"], turn_idx=seed["turn_idx"]
        )


class TurnIndexFrozen(ProtocolHandler):
    """Chat seeds its decoration with turn index 0 on every turn (the reported index is right)."""

    def decoration_seed(
        self, runtime: TurnRuntime, record: TruthRecord, pre: str, turn_idx: int
    ) -> DecorationSeed:
        return super().decoration_seed(runtime, record, pre, 0)


class DecorationMemoized(ProtocolHandler):
    """Chat reuses a session's first decoration seed for every repeat of the same input."""

    def __init__(self) -> None:
        super().__init__()
        self.first_seeds: weakref.WeakKeyDictionary[TurnRuntime, dict[str, DecorationSeed]] = (
            weakref.WeakKeyDictionary()
        )

    def decoration_seed(
        self, runtime: TurnRuntime, record: TruthRecord, pre: str, turn_idx: int
    ) -> DecorationSeed:
        seeds = self.first_seeds.setdefault(runtime, {})
        seed = super().decoration_seed(runtime, record, pre, turn_idx)
        return seeds.setdefault(record.normalized_input, seed)


class VariantIdWithoutBar(ProtocolHandler):
    """The variant id hashes ``opening + closing`` without the ``|`` between them."""

    def variant_id(self, opening: str, closing: str) -> str:
        if not opening and not closing:
            return ""
        return hashlib.sha256(f"{opening}{closing}".encode()).hexdigest()[:12]


class SpaceBeforeClosing(ProtocolHandler):
    """Decoration puts a space between the surface and a non-empty closing."""

    def join(self, opening: str, surface: str, closing: str) -> str:
        return super().join(opening, surface, f" {closing}" if closing else closing)


class TransitionsConsumed(ProtocolHandler):
    """Decoration puts the first transition marker in front of the surface."""

    def decorate(
        self, surface: str, markers: Mapping[str, Sequence[str]], seed: DecorationSeed
    ) -> Decoration:
        transitions = markers.get("transitions") or ()
        if transitions:
            surface = f"{transitions[0]} {surface}"
        return super().decorate(surface, markers, seed)


class EntryNormalised(ProtocolHandler):
    """variation.select hands back its entry NFC-normalised and trimmed, not as given."""

    def op_variation_select(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_variation_select(args)
        return {**result, "entry": unicodedata.normalize("NFC", result["entry"]).strip()}


class OpeningTrimmedBeforeJoin(ProtocolHandler):
    """The opening's trailing white space is trimmed before the joining space, so an
    opening ending in a space gives one space where the formula gives two."""

    def join(self, opening: str, surface: str, closing: str) -> str:
        return super().join(opening.rstrip(), surface, closing)


class VariantIdOfNfc(ProtocolHandler):
    """The variant id hashes the NFC form of ``opening|closing``, not the markers' bytes."""

    def variant_id(self, opening: str, closing: str) -> str:
        return super().variant_id(
            unicodedata.normalize("NFC", opening), unicodedata.normalize("NFC", closing)
        )
