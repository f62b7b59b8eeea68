"""Broken state engines that run a step of docs/state.md § Commit protocol out of its order.

Each is the reference ``ProtocolHandler`` whose store has one commit hook replaced; every
file operation still happens, and ``state.trace_checkpoint`` reports what the store does,
so only the order is wrong. The first line of each docstring states the defect.
"""

from __future__ import annotations

from pathlib import Path

from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.state import commit as steps
from reference.state.layout import CORE, CURRENT, CURRENT_TMP, MANIFEST, pointer_text
from reference.state.manifest import build_manifest
from reference.state.records import CURRENT_SCHEMA_VERSION

MODE = 0o644


class PointerRenamedBeforeSyncStore(StateStore):
    """Step 5 renames ``CURRENT.tmp`` over ``CURRENT`` before it fsyncs it (then fsyncs
    ``CURRENT``): a crash may publish a pointer whose bytes never reached the disk."""

    def swap_pointer(self, generation: int) -> None:
        tmp, pointer = self.fs.root / CURRENT_TMP, self.fs.root / CURRENT
        self.fs.write_file(tmp, pointer_text(generation), MODE)
        self.fs.rename(tmp, pointer)
        self.fs.fsync_file(pointer)
        self.fs.fsync_dir(self.fs.root)


class PruneBeforePointerStore(StateStore):
    """Step 6 runs before step 5: older generations are removed before ``CURRENT`` names
    the new one."""

    def publish(self, staging: Path, generation: int) -> None:
        super().publish(staging, generation)
        self.prune(generation)


class DebrisClearedLateStore(StateStore):
    """Step 1 runs last: debris is removed after the pointer swap, not before staging."""

    def clear_debris(self) -> None:
        return None

    def prune(self, generation: int) -> None:
        super().prune(generation)
        steps.remove_debris(self.fs)


class ManifestBeforeCoreSyncStore(StateStore):
    """Step 2 writes both files before it fsyncs either: ``manifest.json`` is written
    before ``core.jsonl`` is durable."""

    def stage(self, generation: int, core: bytes) -> Path:
        staging = self.fs.root / f"staging-{generation}"
        turn_count = self.digest()["turn_count"]
        files = {
            CORE: core,
            MANIFEST: build_manifest(generation, CURRENT_SCHEMA_VERSION, turn_count, core),
        }
        self.fs.mkdir(staging)
        for name, data in files.items():
            self.fs.write_file(staging / name, data, MODE)
        for name in files:
            self.fs.fsync_file(staging / name)
        self.fs.fsync_dir(staging)
        return staging


class PointerRenamedBeforeSync(ProtocolHandler):
    """Step 5 renames ``CURRENT.tmp`` over ``CURRENT`` before fsyncing it."""

    def store_class(self) -> type[StateStore]:
        return PointerRenamedBeforeSyncStore


class PruneBeforePointer(ProtocolHandler):
    """Step 6 (prune) runs before step 5 (the pointer swap)."""

    def store_class(self) -> type[StateStore]:
        return PruneBeforePointerStore


class DebrisClearedLate(ProtocolHandler):
    """Step 1 (debris removal) runs after step 6."""

    def store_class(self) -> type[StateStore]:
        return DebrisClearedLateStore


class ManifestBeforeCoreSync(ProtocolHandler):
    """Step 2 writes manifest.json before core.jsonl is fsynced."""

    def store_class(self) -> type[StateStore]:
        return ManifestBeforeCoreSyncStore
