"""Broken engines that get the fall back or a fresh state wrong (docs/state.md § Schema
versions; § Recovery rules (load) 1, 3, 5 and 6): a fall back that skips a generation whose
schema version is refused or whose records are malformed (``STATE-RECOVER-461``); a fresh
life started when no pointer and no valid generation are found, and a directory holding
only a crashed first commit's debris taken for a damaged one (``STATE-FRESH-461``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import StateError, StateStore, loader
from reference.state.fsops import FileOps
from reference.state.manifest import InvalidGeneration

SKIPPED = ("STATE_SCHEMA_TOO_NEW", "STATE_SCHEMA_MALFORMED", "STATE_RECORD_MALFORMED")


class _SkippingStore(StateStore):
    @classmethod
    def load(cls, fs: FileOps) -> Any:
        reader = loader.read_generation
        named = loader.read_pointer(fs).number

        def lenient(fs_: FileOps, number: int) -> Any:
            try:
                return reader(fs_, number)
            except StateError as refusal:
                if number != named and refusal.code in SKIPPED:
                    raise InvalidGeneration(str(refusal)) from refusal
                raise

        with mock.patch.object(loader, "read_generation", lenient):
            return loader.load_state(Path(fs.root), fs)


class FallbackSkipsRefused(ProtocolHandler):
    """A load that falls back treats a generation whose schema version is refused, or whose
    records are malformed, as invalid, and goes on to an older one (a silent downgrade)."""

    def store_class(self) -> Any:
        return _SkippingStore


class _MissingPointerFreshStore(StateStore):
    @classmethod
    def load(cls, fs: FileOps) -> Any:
        try:
            return loader.load_state(Path(fs.root), fs)
        except StateError as refusal:
            if refusal.code == "STATE_CORRUPT" and not loader.read_pointer(fs).present:
                return loader.fresh_state()
            raise


class MissingPointerFresh(ProtocolHandler):
    """With no ``CURRENT`` and no valid generation, the load starts a fresh life instead of
    refusing ``STATE_CORRUPT``."""

    def store_class(self) -> Any:
        return _MissingPointerFreshStore


DEBRIS = ("staging-", "CURRENT.tmp")


class _DebrisNotFreshStore(StateStore):
    @classmethod
    def load(cls, fs: FileOps) -> Any:
        found = loader.load_state(Path(fs.root), fs)
        debris = [n for n in fs.list_dir(fs.root, reading=True) if n.startswith(DEBRIS)]
        if found.fresh and debris:
            raise StateError(
                f"no valid generation exists although state files do: {debris}",
                field="CURRENT",
                code="STATE_CORRUPT",
            )
        return found


class DebrisNotFresh(ProtocolHandler):
    """A directory with no ``CURRENT`` and no ``gen-*`` but the debris of a crashed first
    commit is taken for a damaged one (``STATE_CORRUPT``), not a fresh state."""

    def store_class(self) -> Any:
        return _DebrisNotFreshStore
