"""The steps of the commit protocol of docs/state.md, each through a ``FileOps``.

A checkpoint runs them in order: ``remove_debris`` (step 1), ``next_generation``,
``stage`` (steps 2-3), ``publish`` (step 4), ``swap_pointer`` (step 5, the commit point)
and ``prune`` (step 6). ``StateStore.checkpoint`` composes them; each is a hook a store
can replace. ``remove_leftovers`` is the cleanup at open.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from reference.state.errors import StateError, symlink_refusal
from reference.state.fsops import FileOps
from reference.state.layout import (
    CORE,
    CURRENT,
    CURRENT_TMP,
    DEFAULT_MODE,
    DELTA,
    MANIFEST,
    MAX_GENERATION,
    gen_name,
    generations,
    is_debris,
    pointer_text,
    staging_name,
)
from reference.state.loader import read_generation
from reference.state.manifest import Base, InvalidGeneration, build_manifest
from reference.state.records import CURRENT_SCHEMA_VERSION


@dataclass(frozen=True)
class CheckpointInfo:
    """A durable checkpoint: its generation, state identity and turn count."""

    generation: int
    identity: str
    turn_count: int


def _mode(fs: FileOps, path: Path) -> int:
    mode = fs.mode_of(path)
    return DEFAULT_MODE if mode is None else mode


def _live_mode(fs: FileOps, live: int, name: str) -> int:
    """The mode a staged file *name* takes: that of the same file in the live generation,
    ``core.jsonl`` and ``delta.jsonl`` counting as one (0644 when the live one has none)."""
    directory = fs.root / gen_name(live)
    if name not in (CORE, DELTA):
        return _mode(fs, directory / name)
    for candidate in (name, DELTA if name == CORE else CORE):
        mode = fs.mode_of(directory / candidate)
        if mode is not None:
            return mode
    return DEFAULT_MODE


def remove_entry(fs: FileOps, path: Path) -> None:
    """Remove a file or a directory tree; a symbolic link is ``STATE_SYMLINK``."""
    kind = fs.entry_kind(path, reading=False)
    if kind == "link":
        raise symlink_refusal(path)
    if kind == "dir":
        fs.remove_tree(path)
    elif kind is not None:
        fs.unlink(path)


def find_debris(fs: FileOps) -> list[Path]:
    """Every ``staging-*`` entry and ``CURRENT.tmp`` (never read by anyone); a link refuses."""
    found = [fs.root / name for name in fs.list_dir(fs.root, reading=False) if is_debris(name)]
    for path in found:
        if fs.entry_kind(path, reading=False) == "link":
            raise symlink_refusal(path)
    return found


def remove_debris(fs: FileOps) -> None:
    """Step 1: remove every ``staging-*`` entry and ``CURRENT.tmp``."""
    for path in find_debris(fs):
        remove_entry(fs, path)


def _proven_invalid(fs: FileOps, number: int) -> bool:
    try:
        read_generation(fs, number)
    except InvalidGeneration:
        return True
    return False


def find_leftovers(fs: FileOps, pointer: int | None) -> list[Path]:
    """What open removes: debris, and the generations numbered past *pointer* (the one
    ``CURRENT`` names) that are proven invalid; nothing past a pointer that names no
    generation on disk. Reads only; a generation past *pointer* that cannot be read, or a
    link, is a refusal. A valid generation is never listed."""
    found = find_debris(fs)
    numbers = generations(fs.list_dir(fs.root, reading=False))
    if pointer not in numbers:
        return found
    newer = [n for n in numbers if n > pointer and _proven_invalid(fs, n)]
    return found + [fs.root / gen_name(number) for number in newer]


def remove_leftovers(fs: FileOps, pointer: int | None) -> None:
    """At open: find every leftover first (so a refusal comes before any removal), then
    remove them."""
    for path in find_leftovers(fs, pointer):
        remove_entry(fs, path)


def next_generation(fs: FileOps, live: int) -> int:
    """The number of the next generation: one past the live one and every one on disk."""
    number = 1 + max([live, *generations(fs.list_dir(fs.root, reading=False))])
    if number > MAX_GENERATION:
        raise StateError(
            f"{fs.root}: generation numbers are exhausted ({gen_name(number - 1)} exists)",
            field="path",
            code="STATE_IO",
        )
    return number


def stage(
    fs: FileOps,
    *,
    generation: int,
    live: int,
    turn_count: int,
    core: bytes,
    identity: str | None = None,
    delta: tuple[Base, bytes] | None = None,
) -> Path:
    """Steps 2 and 3: write and fsync ``staging-N`` with the files of *generation*.

    Each file keeps the mode of the same file in the live generation (0644 when none).
    *identity*, when given, is the state identity of *core*, already computed. With
    *delta* (its base and ``delta.jsonl``'s bytes) the generation is a delta generation.
    """
    staging = fs.root / staging_name(generation)
    manifest = build_manifest(
        generation, CURRENT_SCHEMA_VERSION, turn_count, core, core_identity=identity, delta=delta
    )
    files = {CORE: core} if delta is None else {DELTA: delta[1]}
    files[MANIFEST] = manifest
    fs.mkdir(staging)
    for name, data in files.items():
        fs.write_file(staging / name, data, _live_mode(fs, live, name))
        fs.fsync_file(staging / name)
    fs.fsync_dir(staging)
    return staging


def publish(fs: FileOps, staging: Path, generation: int) -> None:
    """Step 4: rename the staging directory to ``gen-N`` and fsync the state directory."""
    fs.rename(staging, fs.root / gen_name(generation))
    fs.fsync_dir(fs.root)


def swap_pointer(fs: FileOps, generation: int) -> None:
    """Step 5: write ``CURRENT.tmp``, fsync it, rename it over ``CURRENT``, fsync the dir."""
    tmp = fs.root / CURRENT_TMP
    fs.write_file(tmp, pointer_text(generation), _mode(fs, fs.root / CURRENT))
    fs.fsync_file(tmp)
    fs.rename(tmp, fs.root / CURRENT)
    fs.fsync_dir(fs.root)


def holds(fs: FileOps, number: int, name: str) -> bool:
    """Whether ``gen-<number>`` is a directory holding an entry *name* (not a directory)."""
    path = fs.root / gen_name(number)
    if fs.entry_kind(path, reading=False) != "dir":
        return False
    return fs.entry_kind(path / name, reading=False) not in (None, "dir")


def _prunable(fs: FileOps, number: int, own: Collection[int]) -> bool:
    """Whether step 6 may remove ``gen-<number>``: anything but a directory whose
    ``core.jsonl`` or ``delta.jsonl`` exists while the generation is not proven valid (the
    load may have fallen back from it, and it may hold acknowledged records the live one
    lacks). A generation in *own* (loaded or committed by this writer) holds nothing the
    live one lacks, so it is not read again. A link is ``STATE_SYMLINK``."""
    path = fs.root / gen_name(number)
    kind = fs.entry_kind(path, reading=False)
    if kind == "link":
        raise symlink_refusal(path)
    if number in own or kind != "dir":
        return kind is not None
    if not holds(fs, number, CORE) and not holds(fs, number, DELTA):
        return True
    try:
        read_generation(fs, number)
    except (InvalidGeneration, StateError):
        return False
    return True


def prune(
    fs: FileOps,
    *,
    live: int,
    generation: int,
    own: Collection[int] = (),
    keep: Collection[int] = (),
) -> None:
    """Step 6: remove every generation but the new one, the previous live one and *keep*
    (the bases they need), except one whose core or delta is present but not proven valid,
    and, below such a one holding a delta, every generation holding a core (its base may
    be any of them); one in *own* (loaded or committed by this writer) is known valid.
    Generations go newest first, each its ``core.jsonl`` or ``delta.jsonl`` first, so a
    prune cut short never leaves a core without its manifest nor a delta without its base."""
    numbers = generations(fs.list_dir(fs.root, reading=False))
    kept = {live, generation, *keep}
    held = {n for n in numbers if n not in kept and not _prunable(fs, n, own)}
    floor = max((n for n in held if holds(fs, n, DELTA)), default=0)
    for number in reversed(numbers):
        if number in kept or number in held or (number < floor and holds(fs, number, CORE)):
            continue
        path = fs.root / gen_name(number)
        if fs.entry_kind(path, reading=False) == "dir":
            for name in (CORE, DELTA):
                if fs.entry_kind(path / name, reading=False) not in (None, "dir"):
                    fs.unlink(path / name)
        remove_entry(fs, path)
