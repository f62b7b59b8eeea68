"""Names inside a state directory: the pointer, generations, journals and leftovers."""

from __future__ import annotations

import re
from pathlib import Path

CURRENT = "CURRENT"
CURRENT_TMP = "CURRENT.tmp"
LOCK = "LOCK"
CORE = "core.jsonl"
MANIFEST = "manifest.json"
PROPOSALS = "proposals.journal"
OVERFLOW = "overflow.journal"
LINEAGE = "lineage.journal"
DEFAULT_MODE = 0o644

_GENERATION = re.compile(r"gen-([0-9]{8})")


def gen_name(generation: int) -> str:
    """The directory name of a generation: ``gen-`` and 8 decimal digits."""
    return f"gen-{generation:08d}"


def staging_name(generation: int) -> str:
    """The staging directory a commit of *generation* writes before its rename."""
    return f"staging-{generation}"


def gen_number(name: str) -> int | None:
    """The generation number a directory name stands for, or None."""
    match = _GENERATION.fullmatch(name)
    return int(match.group(1)) if match else None


def generations(path: Path) -> list[int]:
    """The generation numbers present in *path*, oldest first."""
    if not path.is_dir():
        return []
    numbers = (gen_number(entry.name) for entry in path.iterdir())
    return sorted(number for number in numbers if number is not None)


def pointer_text(generation: int) -> bytes:
    """The bytes of ``CURRENT`` naming *generation*."""
    return (gen_name(generation) + "\n").encode("ascii")


def leftovers(path: Path, live_generation: int) -> list[Path]:
    """What a crashed commit left: staging dirs, ``CURRENT.tmp``, generations past the live one."""
    staging = sorted(entry for entry in path.iterdir() if entry.name.startswith("staging-"))
    newer = [path / gen_name(number) for number in generations(path) if number > live_generation]
    tmp = [path / CURRENT_TMP] if (path / CURRENT_TMP).exists() else []
    return staging + tmp + newer
