"""Seeded surface variation: discourse markers chosen by a hash of sealed inputs.

The seed reads the sealed ``trace_hash`` and never the surface text, so the
same (input sequence, packs, register) always yields the same bytes, while the
turn index makes a repeated prompt read differently on a later turn.

hashlib is imported at the first choice, not with this module: the protocol handler
inherits the :class:`Decorator` steps, and a server that answers only ``hello`` never hashes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, TypedDict


def select_bucket_index(
    bucket: Sequence[str], *, trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> int | None:
    """``int(sha256(seed)[:8], big-endian) % len(bucket)``, or None for an empty bucket.

    The seed is the UTF-8 of ``f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}"``.
    """
    if not bucket:
        return None
    import hashlib

    seed = f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}".encode()
    return int.from_bytes(hashlib.sha256(seed).digest()[:8], "big") % len(bucket)


def variant_id(opening: str, closing: str) -> str:
    """First 12 hex digits of ``sha256(f"{opening}|{closing}")``; ``""`` if both are empty."""
    if not opening and not closing:
        return ""
    import hashlib

    return hashlib.sha256(f"{opening}|{closing}".encode()).hexdigest()[:12]


class DecorationSeed(TypedDict):
    """What the markers of one decoration are seeded from (never the surface text)."""

    trace_hash: str
    register_id: str
    turn_idx: int


class Decoration(NamedTuple):
    """The markers chosen for one turn, the decorated surface and its variant id."""

    opening: str
    closing: str
    surface: str
    variant_id: str


class Decorator:
    """Seeded decoration in overridable steps: ``select_index``, ``pick``, ``join``, ``variant_id``.

    :meth:`decorate` composes them; a subclass that replaces one step changes only it.
    """

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        """The seeded index into *bucket* (:func:`select_bucket_index`), or None when empty."""
        return select_bucket_index(bucket, bucket_name=bucket_name, **seed)

    def pick(self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed) -> str:
        """The entry ``select_index`` picks from *bucket*, or ``""`` when it is empty."""
        index = self.select_index(bucket, bucket_name, seed)
        return "" if index is None else bucket[index]

    def join(self, opening: str, surface: str, closing: str) -> str:
        """``opening + " " + surface + closing``; an empty opening adds nothing."""
        return (f"{opening} {surface}" if opening else surface) + closing

    def variant_id(self, opening: str, closing: str) -> str:
        """The register variant id of a marker pair (:func:`variant_id`)."""
        return variant_id(opening, closing)

    def decorate(
        self, surface: str, markers: Mapping[str, Sequence[str]], seed: DecorationSeed
    ) -> Decoration:
        """Decorate *surface* with an opening and a closing picked from *markers*' buckets."""
        opening = self.pick(markers["openings"], "openings", seed)
        closing = self.pick(markers["closings"], "closings", seed)
        joined = self.join(opening, surface, closing)
        return Decoration(opening, closing, joined, self.variant_id(opening, closing))
