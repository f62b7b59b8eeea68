"""Broken selectors and decorators: each class changes one step of seeded variation."""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from selftest.composed import ComposedHandler, Marked


def _seed_digest(trace_hash: str, register_id: str, turn_idx: int, bucket_name: str) -> bytes:
    return hashlib.sha256(f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}".encode()).digest()


class LittleEndianSeed(ComposedHandler):
    """The selector reads the first 8 digest bytes little-endian instead of big-endian."""

    def select_index(self, bucket: Sequence[str], **seed: Any) -> int | None:
        if not bucket:
            return None
        return int.from_bytes(_seed_digest(**seed)[:8], "little") % len(bucket)


class BucketNameIgnored(ComposedHandler):
    """The seed omits the bucket name, so the opening and the closing picks correlate."""

    def select_index(self, bucket: Sequence[str], **seed: Any) -> int | None:
        return super().select_index(bucket, **{**seed, "bucket_name": ""})


class BiasedSelector(ComposedHandler):
    """The selector returns index 0 whenever the first digest byte is below 64."""

    def select_index(self, bucket: Sequence[str], **seed: Any) -> int | None:
        if bucket and _seed_digest(**seed)[0] < 64:
            return 0
        return super().select_index(bucket, **seed)


class SurfaceSeeded(ComposedHandler):
    """Chat seeds its decoration from the pre-decoration surface instead of the trace hash."""

    def turn_seed(self, runtime, record, pre: str, turn_idx: int) -> dict[str, Any]:
        return {**super().turn_seed(runtime, record, pre, turn_idx), "trace_hash": pre}


class TurnIndexFrozen(ComposedHandler):
    """Chat seeds its decoration with turn index 0 on every turn (the reported index is right)."""

    def turn_seed(self, runtime, record, pre: str, turn_idx: int) -> dict[str, Any]:
        return super().turn_seed(runtime, record, pre, 0)


class DecorationMemoized(ComposedHandler):
    """Chat reuses a session's first decoration seed for every repeat of the same input."""

    def __init__(self) -> None:
        super().__init__()
        self.first_seeds: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def turn_seed(self, runtime, record, pre: str, turn_idx: int) -> dict[str, Any]:
        seeds = self.first_seeds.setdefault(runtime, {})
        seed = super().turn_seed(runtime, record, pre, turn_idx)
        return seeds.setdefault(record.normalized_input, seed)


class VariantIdWithoutBar(ComposedHandler):
    """The variant id hashes ``opening + closing`` without the ``|`` between them."""

    def variant_id(self, opening: str, closing: str) -> str:
        if not opening and not closing:
            return ""
        return hashlib.sha256(f"{opening}{closing}".encode()).hexdigest()[:12]


class SpaceBeforeClosing(ComposedHandler):
    """Decoration puts a space between the surface and a non-empty closing."""

    def join(self, opening: str, surface: str, closing: str) -> str:
        return super().join(opening, surface, f" {closing}" if closing else closing)


class TransitionsConsumed(ComposedHandler):
    """Decoration puts the first transition marker in front of the surface."""

    def decorate(self, surface: str, markers: Mapping[str, Sequence[str]], **seed: Any) -> Marked:
        transitions = markers.get("transitions") or ()
        if transitions:
            surface = f"{transitions[0]} {surface}"
        return super().decorate(surface, markers, **seed)
