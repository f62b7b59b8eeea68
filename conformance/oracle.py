"""The suite's own statement of the formulas engines must implement.

Written from the spec (docs/spec.md), independent of any engine, so a check
never compares an engine against itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TypeGuard

BUCKET_NAMES = ("openings", "transitions", "closings")
MAX_MARKER_LEN = 128
"""The longest marker, in characters (code points)."""
MAX_BUCKET = 32
"""The most markers one bucket holds."""
MAX_ID_LEN = 64
"""The longest register id, in characters."""
ID_HEAD = r"[A-Za-z0-9]"
ID_TAIL = r"[A-Za-z0-9_.\-]"
"""A register id is one :data:`ID_HEAD` character then :data:`ID_TAIL` ones (regex classes),
:data:`MAX_ID_LEN` characters at most, with no ``..`` in it."""
SCHEMA_VERSION = "1.0.0"
"""The one pack schema version a loader accepts."""

DEPTH_KEY = "disclosure_domain_count"
PER_INTENT_KEY = "per_intent"
OVERRIDE_KEYS = (DEPTH_KEY, PER_INTENT_KEY)
"""The allow-list of ``realizer_overrides`` keys (``per_intent`` entries allow only the depth)."""
DEPTHS = (1, 2, 3)
"""The values ``disclosure_domain_count`` may take."""

SEAL_FIELD = "mastery_report_sha256"
"""The pack field that holds its report's seal (optional in a pack, absent from the report)."""
REQUIRED_PACK_FIELDS = (
    "register_id",
    "version",
    "description",
    "schema_version",
    "display_name",
    "depth_preference",
    "realizer_overrides",
    "discourse_markers",
)
PACK_FIELDS = (*REQUIRED_PACK_FIELDS, SEAL_FIELD)
STRING_FIELDS = (
    "version",
    "description",
    "schema_version",
    "display_name",
    "depth_preference",
    SEAL_FIELD,
)
"""The pack fields (besides ``register_id``) whose value must be a string."""
REPORT_KEYS = (
    "register_id",
    "pack_version",
    "pack_source_sha256",
    "schema_version",
    "verdict",
    "methods",
    "evidence",
    "seal",
)
"""The keys of a sealed mastery report."""

NEUTRAL = "default_neutral_v1"
TERSE = "terse_v1"
CONVIVIAL = "convivial_v1"
FOUR_REGISTERS = (None, NEUTRAL, TERSE, CONVIVIAL)
"""The UNREGISTERED sentinel (None) and the three shipped registers."""
CONVIVIAL_MARKERS = {
    "openings": ["So,", "Right —", "OK,"],
    "closings": ["", " — does that help?", " — make sense?"],
}
"""The discourse markers the convivial_v1 pack ships with."""

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


def seed_digest(trace_hash: str, register_id: str, turn_idx: int, bucket_name: str) -> bytes:
    """SHA-256 of the UTF-8 seed ``f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}"``."""
    return hashlib.sha256(f"{trace_hash}|{register_id}|{turn_idx}|{bucket_name}".encode()).digest()


def select_index(
    bucket: Sequence[str], trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> int | None:
    """Index picked from *bucket*: first 8 bytes of the seed's SHA-256, big-endian, mod len."""
    if not bucket:
        return None
    digest = seed_digest(trace_hash, register_id, turn_idx, bucket_name)
    return int.from_bytes(digest[:8], "big") % len(bucket)


def select_entry(
    bucket: Sequence[str], trace_hash: str, register_id: str, turn_idx: int, bucket_name: str
) -> str:
    """The entry :func:`select_index` picks, or ``""`` for an empty bucket."""
    index = select_index(bucket, trace_hash, register_id, turn_idx, bucket_name)
    return "" if index is None else bucket[index]


def variant_id(opening: str, closing: str) -> str:
    """First 12 hex digits of ``sha256(f"{opening}|{closing}")``; ``""`` if both are empty."""
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


def valid_depth(value: object) -> TypeGuard[int]:
    """Whether *value* is a depth: an integer (never a bool) in :data:`DEPTHS`."""
    return type(value) is int and value in DEPTHS


def resolve_depth(overrides: Mapping[str, object], intent: str) -> int:
    """``per_intent[intent]`` over the flat key over the default; malformed values clamp to it."""
    scoped = overrides.get(PER_INTENT_KEY)
    entry = scoped.get(intent) if isinstance(scoped, Mapping) else None
    if isinstance(entry, Mapping) and DEPTH_KEY in entry:
        return _depth_or_default(entry[DEPTH_KEY])
    if DEPTH_KEY in overrides:
        return _depth_or_default(overrides[DEPTH_KEY])
    return DEFAULT_DEPTH


def _depth_or_default(value: object) -> int:
    return value if valid_depth(value) else DEFAULT_DEPTH


CANONICAL_STRINGS: dict[str, str] = {
    "non-ASCII": "\u00e9t\u00e9",
    "astral": "\U0001f600",
    "line and paragraph separators": "\u2028\u2029",
    "DEL and C1 controls": "\x7f\x80\x9f",
    "a solidus": "a/b",
    "HTML-special characters": "<a href='x'>&amp;=+`",
    "a byte order mark": "\ufeff",
    "quote and backslash": '"\\',
    "short escapes": "\b\t\n\f\r",
    "other controls": "\x00\x01\x1f",
}
"""Strings whose canonical form fixes an escaping rule, by the rule."""
