"""Names inside a state directory: the pointer, generations, journals and leftovers."""

from __future__ import annotations

import re
from collections.abc import Iterable

CURRENT = "CURRENT"
CURRENT_TMP = "CURRENT.tmp"
LOCK = "LOCK"
CORE = "core.jsonl"
DELTA = "delta.jsonl"
MANIFEST = "manifest.json"
PROPOSALS = "proposals.journal"
OVERFLOW = "overflow.journal"
LINEAGE = "lineage.journal"
DEFAULT_MODE = 0o644
STAGING_PREFIX = "staging-"
MAX_GENERATION = 99_999_999

_GENERATION = re.compile(r"gen-([0-9]{8})")


def gen_name(generation: int) -> str:
    """The directory name of a generation: ``gen-`` and 8 decimal digits."""
    return f"gen-{generation:08d}"


def staging_name(generation: int) -> str:
    """The staging directory a commit of *generation* writes before its rename."""
    return f"{STAGING_PREFIX}{generation}"


def gen_number(name: str) -> int | None:
    """The generation number a directory name stands for (1 to 99999999), or None."""
    match = _GENERATION.fullmatch(name)
    return int(match.group(1)) or None if match else None


def generations(names: Iterable[str]) -> list[int]:
    """The generation numbers among directory entry *names*, oldest first."""
    numbers = (gen_number(name) for name in names)
    return sorted(number for number in numbers if number is not None)


def is_debris(name: str) -> bool:
    """Whether *name* is what only a crashed commit leaves: ``staging-*`` or ``CURRENT.tmp``."""
    return name.startswith(STAGING_PREFIX) or name == CURRENT_TMP


def pointer_text(generation: int) -> bytes:
    """The bytes of ``CURRENT`` naming *generation*."""
    return (gen_name(generation) + "\n").encode("ascii")
