"""Seeded surface variation: discourse markers chosen by a hash of sealed inputs.

The seed reads the sealed ``trace_hash`` and never the surface text, so the
same (input sequence, packs, register) always yields the same bytes, while the
turn index makes a repeated prompt read differently on a later turn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict


def select_bucket_index(
    bucket: Sequence[str], *, trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> int | None:
    """``int(sha256(seed)[:8], big-endian) % len(bucket)``, or None for an empty bucket.

    The seed is the UTF-8 of ``f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}"``.
    """
    if not bucket:
        return None
    seed = f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}".encode()
    return int.from_bytes(hashlib.sha256(seed).digest()[:8], "big") % len(bucket)


def select_bucket_entry(
    bucket: Sequence[str], *, trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> str:
    """The entry at :func:`select_bucket_index`, or ``""`` for an empty bucket."""
    index = select_bucket_index(
        bucket,
        trace_hash=trace_hash,
        register_id=register_id,
        turn_idx=turn_idx,
        bucket_name=bucket_name,
    )
    return "" if index is None else bucket[index]


def variant_id(opening: str, closing: str) -> str:
    """First 12 hex digits of ``sha256(f"{opening}|{closing}")``; ``""`` if both are empty."""
    if not opening and not closing:
        return ""
    return hashlib.sha256(f"{opening}|{closing}".encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Decoration:
    """The markers chosen for one turn and the decorated surface."""

    opening: str
    closing: str
    surface: str

    @property
    def variant_id(self) -> str:
        return variant_id(self.opening, self.closing)


class _Seed(TypedDict):
    """The sealed inputs every bucket selection of one turn shares."""

    trace_hash: str
    register_id: str
    turn_idx: int


def decorate(
    surface: str,
    *,
    openings: Sequence[str],
    closings: Sequence[str],
    register_id: str,
    trace_hash: str,
    turn_idx: int,
) -> Decoration:
    """Return ``opening + " " + surface + closing`` (an empty marker adds nothing)."""
    seed = _Seed(trace_hash=trace_hash, register_id=register_id, turn_idx=turn_idx)
    opening = select_bucket_entry(openings, bucket_name="openings", **seed)
    closing = select_bucket_entry(closings, bucket_name="closings", **seed)
    out = f"{opening} {surface}" if opening else surface
    return Decoration(opening, closing, out + closing)
