"""Resolve realizer overrides: ``per_intent[intent]`` over the flat key over the default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

DEFAULT_DISCLOSURE_DOMAIN_COUNT = 3
DISCLOSURE_KEY = "disclosure_domain_count"
ALLOWED_DISCLOSURE_COUNTS = (1, 2, 3)


def _valid_count(value: object) -> TypeGuard[int]:
    return type(value) is int and value in ALLOWED_DISCLOSURE_COUNTS


def resolve_disclosure_domain_count(
    overrides: Mapping[str, object], intent_name: str | None
) -> int:
    """How many domains a gloss-less disclosure shows for this intent.

    ``per_intent[intent_name]`` wins over the flat key, which wins over the
    default of 3. A malformed value (not an int in {1, 2, 3}) clamps to 3
    rather than failing the turn.
    """
    per_intent = overrides.get("per_intent")
    if isinstance(per_intent, Mapping) and intent_name is not None:
        scoped = per_intent.get(intent_name)
        if isinstance(scoped, Mapping) and DISCLOSURE_KEY in scoped:
            value = scoped[DISCLOSURE_KEY]
            return value if _valid_count(value) else DEFAULT_DISCLOSURE_DOMAIN_COUNT
    if DISCLOSURE_KEY in overrides:
        value = overrides[DISCLOSURE_KEY]
        return value if _valid_count(value) else DEFAULT_DISCLOSURE_DOMAIN_COUNT
    return DEFAULT_DISCLOSURE_DOMAIN_COUNT
