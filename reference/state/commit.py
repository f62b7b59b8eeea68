"""The commit protocol of docs/state.md, step by step, through a ``FileOps``.

``commit`` writes generation ``live + 1`` and returns once the pointer swap is durable
and older generations are pruned. Each file keeps the mode of the same file in the live
generation (0644 when there is none); ``CURRENT`` keeps its mode the same way.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from reference.state.core import identity
from reference.state.fsops import FileOps
from reference.state.layout import (
    CORE,
    CURRENT,
    CURRENT_TMP,
    DEFAULT_MODE,
    MANIFEST,
    gen_name,
    generations,
    leftovers,
    pointer_text,
    staging_name,
)
from reference.state.manifest import build_manifest
from reference.state.records import CURRENT_SCHEMA_VERSION


@dataclass(frozen=True)
class CheckpointInfo:
    """A durable checkpoint: its generation, state identity and turn count."""

    generation: int
    identity: str
    turn_count: int


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return DEFAULT_MODE


def _remove(path: Path, fs: FileOps) -> None:
    if path.is_dir() and not path.is_symlink():
        fs.remove_tree(path)
    else:
        fs.unlink(path)


def remove_leftovers(path: Path, fs: FileOps, live: int) -> None:
    """Step 1: remove staging dirs, ``CURRENT.tmp`` and generations newer than *live*."""
    for entry in leftovers(path, live):
        _remove(entry, fs)


def _stage(path: Path, fs: FileOps, live: int, turn_count: int, core: bytes) -> Path:
    """Steps 2 and 3: write and fsync the staging directory of generation ``live + 1``."""
    generation = live + 1
    staging = path / staging_name(generation)
    files = {
        CORE: core,
        MANIFEST: build_manifest(generation, CURRENT_SCHEMA_VERSION, turn_count, core),
    }
    fs.mkdir(staging)
    for name, data in files.items():
        fs.write_file(staging / name, data, _mode(path / gen_name(live) / name))
        fs.fsync_file(staging / name)
    fs.fsync_dir(staging)
    return staging


def _swap_pointer(path: Path, fs: FileOps, generation: int) -> None:
    """Step 5: write ``CURRENT.tmp``, fsync it, rename it over ``CURRENT``, fsync the dir."""
    tmp = path / CURRENT_TMP
    fs.write_file(tmp, pointer_text(generation), _mode(path / CURRENT))
    fs.fsync_file(tmp)
    fs.rename(tmp, path / CURRENT)
    fs.fsync_dir(path)


def _prune(path: Path, fs: FileOps, generation: int) -> None:
    """Step 6: remove generations older than ``generation - 1``."""
    for number in generations(path):
        if number < generation - 1:
            _remove(path / gen_name(number), fs)


def commit(path: Path, fs: FileOps, *, live: int, turn_count: int, core: bytes) -> CheckpointInfo:
    """Commit *core* as generation ``live + 1`` of the state directory *path*."""
    generation = live + 1
    remove_leftovers(path, fs, live)
    staging = _stage(path, fs, live, turn_count, core)
    fs.rename(staging, path / gen_name(generation))
    fs.fsync_dir(path)
    _swap_pointer(path, fs, generation)
    _prune(path, fs, generation)
    return CheckpointInfo(generation, identity(CURRENT_SCHEMA_VERSION, core), turn_count)
