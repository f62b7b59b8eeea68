"""The suite's own statement of the formulas engines must implement.

Written from the spec (docs/spec.md), independent of any engine, so a check
never compares an engine against itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

BUCKET_NAMES = ("openings", "transitions", "closings")
INTENT_NAMES = (
    "DEFINITION",
    "CAUSE",
    "PROCEDURE",
    "COMPARISON",
    "CORRECTION",
    "RECALL",
    "VERIFICATION",
    "TRANSITIVE_QUERY",
    "FRAME_TRANSFER",
    "NARRATIVE",
    "EXAMPLE",
    "UNKNOWN",
)
GROUNDING_SOURCES = ("vault", "pack", "teaching", "partial", "oov", "none")
DEFAULT_DEPTH = 3


def select_index(
    bucket: Sequence[str], trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> int | None:
    """Index picked from *bucket*: first 8 bytes of the seed's SHA-256, big-endian, mod len."""
    if not bucket:
        return None
    seed = f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}".encode()
    return int.from_bytes(hashlib.sha256(seed).digest()[:8], "big") % len(bucket)


def select_entry(
    bucket: Sequence[str], trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> str:
    index = select_index(bucket, trace_hash, register_id, turn_idx, bucket_name)
    return "" if index is None else bucket[index]


def variant_id(opening: str, closing: str) -> str:
    if not opening and not closing:
        return ""
    return hashlib.sha256(f"{opening}|{closing}".encode()).hexdigest()[:12]


def decorate(
    surface: str,
    openings: Sequence[str],
    closings: Sequence[str],
    register_id: str,
    trace_hash: str,
    turn_idx: int,
) -> dict[str, str]:
    """The decorated surface and the markers and variant id that made it."""
    opening = select_entry(openings, trace_hash, register_id, turn_idx, "openings")
    closing = select_entry(closings, trace_hash, register_id, turn_idx, "closings")
    body = f"{opening} {surface}" if opening else surface
    return {
        "closing": closing,
        "decorated": body + closing,
        "opening": opening,
        "register_variant_id": variant_id(opening, closing),
    }


def _valid_depth(value: object) -> bool:
    return type(value) is int and value in (1, 2, 3)


def resolve_depth(overrides: Mapping[str, Any], intent: str) -> int:
    """``per_intent[intent]`` over the flat key over 3; malformed values clamp to 3."""
    key = "disclosure_domain_count"
    scoped = overrides.get("per_intent")
    entry = scoped.get(intent) if isinstance(scoped, Mapping) else None
    if isinstance(entry, Mapping) and key in entry:
        return entry[key] if _valid_depth(entry[key]) else DEFAULT_DEPTH
    if key in overrides:
        return overrides[key] if _valid_depth(overrides[key]) else DEFAULT_DEPTH
    return DEFAULT_DEPTH
