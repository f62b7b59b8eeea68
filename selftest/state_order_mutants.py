"""Broken state engines that run a step of docs/state.md § Commit protocol out of its order.

Each is the reference ``ProtocolHandler`` whose store has one commit hook replaced; every
file operation still happens, and ``state.trace_checkpoint`` reports what the store does,
so only the order is wrong. The first line of each docstring states the defect.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.state import commit as steps
from reference.state.layout import (
    CORE,
    CURRENT,
    CURRENT_TMP,
    MANIFEST,
    pointer_text,
)
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


class PruneOldestFirstStore(StateStore):
    """Step 6 removes the older generations first."""

    def prune(self, generation: int) -> None:
        real = steps.generations

        def descending(entries: Any) -> list[int]:
            return sorted(real(entries), reverse=True)

        with mock.patch.object(steps, "generations", descending):
            super().prune(generation)


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


class PruneOldestFirst(ProtocolHandler):
    """Step 6 removes generations oldest first, not newest first."""

    def store_class(self) -> type[StateStore]:
        return PruneOldestFirstStore


class DebrisClearedLate(ProtocolHandler):
    """Step 1 (debris removal) runs after step 6."""

    def store_class(self) -> type[StateStore]:
        return DebrisClearedLateStore


class ManifestBeforeCoreSync(ProtocolHandler):
    """Step 2 writes manifest.json before core.jsonl is fsynced."""

    def store_class(self) -> type[StateStore]:
        return ManifestBeforeCoreSyncStore


class PruneManifestFirstStore(StateStore):
    """Step 6 removes a pruned generation's ``manifest.json`` before its ``core.jsonl``: a
    prune cut short may leave a core without the manifest that proves it."""

    def prune(self, generation: int) -> None:
        fs = self.fs
        unlink = fs.unlink

        def manifest_first(path: Path) -> None:
            manifest = path.parent / MANIFEST
            pruned = path.name == CORE and path.parent.name.startswith("gen-")
            if pruned and fs.entry_kind(manifest, reading=False) == "file":
                unlink(manifest)
            unlink(path)

        with mock.patch.object(fs, "unlink", manifest_first):
            super().prune(generation)


def _core_first(ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*ops* with each generation's ``core.jsonl`` unlink moved before its other unlinks."""
    out = list(ops)
    for op in ops:
        path = op.get("path", "")
        if op["op"] != "unlink" or not path.startswith("gen-") or not path.endswith("/" + CORE):
            continue
        directory = path.rsplit("/", 1)[0] + "/"
        first = next(
            i for i, o in enumerate(out) if o["op"] == "unlink" and o["path"].startswith(directory)
        )
        out.remove(op)
        out.insert(first, op)
    return out


class PruneManifestFirstReportedCoreFirst(ProtocolHandler):
    """Step 6 unlinks a generation's manifest.json first but reports its core.jsonl first.

    ``state.trace_checkpoint`` reports the two unlinks in the order the docs state, not
    the order the store made them in."""

    def store_class(self) -> type[StateStore]:
        return PruneManifestFirstStore

    def op_state_trace_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        traced = super().op_state_trace_checkpoint(args)
        return {**traced, "ops": _core_first(traced["ops"])}
