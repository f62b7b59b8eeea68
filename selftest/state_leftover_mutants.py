"""Broken engines whose writer's open removes what leftover removal must keep
(docs/state.md § Recovery rules (load), leftover removal at open).
``STATE-LEFTOVER-601`` fails on each.

Each is the reference ``ProtocolHandler`` whose store clears leftovers another way: as
though a ``CURRENT`` that names no generation named generation 0, or removing a
generation past ``CURRENT`` whose records are malformed as if it were proven invalid.
Two more keep what it must remove (``STATE-LEFTOVER-491``): each takes one file's absence
(or damage) for the whole of "proven invalid".
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import (
    CURRENT_SCHEMA_VERSION,
    FileOps,
    LoadedState,
    StateError,
    StateStore,
    commit,
    decode_core,
)
from reference.state.layout import gen_name, generations
from reference.state.loader import read_generation
from reference.state.manifest import InvalidGeneration


def _remove_invalid_past(fs: FileOps, pointer: int) -> None:
    """Remove every proven-invalid generation numbered past *pointer*, on disk or not."""
    for number in generations(fs.list_dir(fs.root, reading=False)):
        if number > pointer and _proven_invalid(fs, number):
            commit.remove_entry(fs, fs.root / gen_name(number))


class _PointerZeroStore(StateStore):
    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        super().clear_leftovers(fs, loaded)
        _remove_invalid_past(fs, 0 if loaded.pointer is None else loaded.pointer)


class _DanglingPointerStore(StateStore):
    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        super().clear_leftovers(fs, loaded)
        if loaded.pointer is not None:
            _remove_invalid_past(fs, loaded.pointer)


def _proven_invalid(fs: FileOps, number: int) -> bool:
    try:
        read_generation(fs, number)
    except InvalidGeneration:
        return True
    return False


class _MalformedRemovedStore(StateStore):
    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        super().clear_leftovers(fs, loaded)
        if loaded.pointer is None:
            return
        for number in generations(fs.list_dir(fs.root, reading=False)):
            if number <= loaded.pointer:
                continue
            path = fs.root / gen_name(number)
            with contextlib.suppress(OSError):
                data = (path / "core.jsonl").read_bytes()
                try:
                    decode_core(data, CURRENT_SCHEMA_VERSION)
                except StateError:
                    commit.remove_entry(fs, path)


class PointerlessRemovesPast(ProtocolHandler):
    """A writer's open reads a missing, empty or garbage `CURRENT` as generation 0 and
    removes every invalid generation past it."""

    def store_class(self) -> Any:
        return _PointerZeroStore


class DanglingPointerRemovesPast(ProtocolHandler):
    """A writer's open takes a well-formed `CURRENT` naming a generation not on disk as a
    pointer, and removes every invalid generation numbered past it."""

    def store_class(self) -> Any:
        return _DanglingPointerStore


class MalformedPastRemoved(ProtocolHandler):
    """A writer's open removes a generation past `CURRENT` whose checksums hold but whose
    records are malformed, as if it were proven invalid."""

    def store_class(self) -> Any:
        return _MalformedRemovedStore


def _past(fs: FileOps, loaded: LoadedState) -> list[Path]:
    """The generations numbered past the one ``CURRENT`` names (none past a pointer that
    names no generation)."""
    numbers = generations(fs.list_dir(fs.root, reading=False))
    if loaded.pointer not in numbers:
        return []
    return [
        fs.root / gen_name(n) for n in numbers if loaded.pointer is not None and n > loaded.pointer
    ]


def _manifest_unparsable(path: Path) -> bool:
    try:
        json.loads((path / "manifest.json").read_bytes())
    except (OSError, ValueError):
        return True
    return False


class _ManifestOnlyLeftoversStore(StateStore):
    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        for path in commit.find_debris(fs):
            commit.remove_entry(fs, path)
        for path in _past(fs, loaded):
            if _manifest_unparsable(path):
                commit.remove_entry(fs, path)


class _CoreOnlyLeftoversStore(StateStore):
    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        for path in commit.find_debris(fs):
            commit.remove_entry(fs, path)
        for path in _past(fs, loaded):
            if not (path / "core.jsonl").exists():
                commit.remove_entry(fs, path)


class PastLeftoverOnlyWithoutManifest(ProtocolHandler):
    """A writer's open removes a generation past `CURRENT` only when its manifest is missing
    or not JSON: one whose core is missing or does not match its manifest stays."""

    def store_class(self) -> Any:
        return _ManifestOnlyLeftoversStore


class PastLeftoverOnlyWithoutCore(ProtocolHandler):
    """A writer's open removes a generation past `CURRENT` only when its `core.jsonl` is
    missing: one whose manifest is missing, not JSON or does not match stays."""

    def store_class(self) -> Any:
        return _CoreOnlyLeftoversStore
