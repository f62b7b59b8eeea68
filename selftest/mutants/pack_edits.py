"""Edits a broken validator makes to a register pack document before the reference sees it.

Each function returns an edited deep copy and leaves its argument untouched; parts of
the document that do not have the expected shape are left as they are, so the
reference's own validation still refuses them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

MARKERS = "discourse_markers"
OVERRIDES = "realizer_overrides"
DEPTH = "disclosure_domain_count"
PER_INTENT = "per_intent"


def scoped_entries(overrides: dict[str, Any]) -> list[dict[str, Any]]:
    """The object entries of ``overrides["per_intent"]`` (none when it is not an object)."""
    scoped = overrides.get(PER_INTENT)
    if not isinstance(scoped, dict):
        return []
    return [entry for entry in scoped.values() if isinstance(entry, dict)]


def with_buckets(pack: dict[str, Any], edit: Callable[[list[Any]], list[Any]]) -> dict[str, Any]:
    """A copy of *pack* with every marker bucket that is a list replaced by ``edit(bucket)``."""
    markers = pack.get(MARKERS)
    if not isinstance(markers, dict):
        return pack
    edited = copy.deepcopy(pack)
    for name, bucket in markers.items():
        if isinstance(bucket, list):
            edited[MARKERS][name] = edit(bucket)
    return edited


def with_depths(pack: dict[str, Any], edit: Callable[[object], object]) -> dict[str, Any]:
    """A copy of *pack* with every ``disclosure_domain_count`` (flat or per intent) edited."""
    overrides = pack.get(OVERRIDES)
    if not isinstance(overrides, dict):
        return pack
    edited = copy.deepcopy(pack)
    for entry in [edited[OVERRIDES], *scoped_entries(edited[OVERRIDES])]:
        if DEPTH in entry:
            entry[DEPTH] = edit(entry[DEPTH])
    return edited
