"""Broken state stores: each :class:`ComposedStore` subclass changes one step.

The first line of each docstring states the defect.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from conformance.selftest.state_broken_disk import (
    commit_in_place,
    load_any_version,
    load_fresh_on_bad_pointer,
)
from conformance.selftest.state_fileops import (
    DefaultModes,
    KeepingLeftovers,
    WithoutDirSync,
    WithoutStagedFileSync,
)
from conformance.selftest.state_store import ComposedStore
from reference.state.commit import CheckpointInfo, remove_leftovers
from reference.state.core import encode_record, sort_key
from reference.state.fsops import FileOps
from reference.state.lineage import BootInfo
from reference.state.proposals import PENDING_CAP, ProposalQueue
from reference.state.records import with_defaults


class NoDirFsyncStore(ComposedStore):
    """Checkpoints never fsync a directory: the renames of a commit are not durable."""

    def commit_ops(self) -> FileOps:
        return WithoutDirSync(self.fs)


class NoFileFsyncStore(ComposedStore):
    """Generation files are not fsynced before the staging directory is renamed."""

    def commit_ops(self) -> FileOps:
        return WithoutStagedFileSync(self.fs)


class InPlaceStore(ComposedStore):
    """Checkpoints overwrite the live generation's files: no staging, no new generation."""

    commit_files = staticmethod(commit_in_place)


def _keep_staging(path: Path, fs: FileOps, live: int) -> None:
    remove_leftovers(path, KeepingLeftovers(fs), live)


class LeftoversReusedStore(ComposedStore):
    """A leftover staging directory is never cleared, and a commit keeps the files in it."""

    clear_leftovers = staticmethod(_keep_staging)

    def commit_ops(self) -> FileOps:
        return KeepingLeftovers(self.fs)


class AnyVersionStore(ComposedStore):
    """A newer or malformed schema version loads as if it were the current one."""

    load = staticmethod(load_any_version)


class FreshOnBadPointerStore(ComposedStore):
    """A missing, empty, garbage or dangling pointer starts a fresh life, not a fall back."""

    load = staticmethod(load_fresh_on_bad_pointer)


class InsertionOrderStore(ComposedStore):
    """core.jsonl lists the records in insertion order, not by ``(kind, key)``."""

    def encode(self, records: Iterable[dict]) -> bytes:
        return b"".join(encode_record(record) for record in records)


class DefaultsWrittenStore(ComposedStore):
    """Additive-optional fields are written even when they equal their default."""

    def encode(self, records: Iterable[dict]) -> bytes:
        ordered = sorted(records, key=sort_key)
        return b"".join(encode_record(with_defaults(record)) for record in ordered)


def _bumped(record: dict) -> dict:
    return {"op": "put", "record": {**record, "weight": record["weight"] + 1}}


class ReloadBumpsStore(ComposedStore):
    """Reopening a store bumps every recognizer's weight by one."""

    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> ReloadBumpsStore:
        store = super().open(path, fs=fs)
        records = store.records.values()
        store.apply([_bumped(r) for r in records if r["kind"] == "recognizer"])
        return store


class NoLineageStore(ComposedStore):
    """Boot events are never written: the lineage journal stays empty."""

    @staticmethod
    def record_boot(path: Path, boot: BootInfo, fs: FileOps) -> None:
        return None


class ShutdownRecommitsStore(ComposedStore):
    """A clean close always commits a new generation, even when nothing changed."""

    def close(self) -> CheckpointInfo:
        self.checkpoint()
        return super().close()


class ModesResetStore(ComposedStore):
    """Every new generation file gets mode 0644, whatever the live file's mode."""

    def commit_ops(self) -> FileOps:
        return DefaultModes(self.fs)


class DroppingQueue(ProposalQueue):
    """Past the pending cap, a proposal is dropped: neither queued nor spilled."""

    def propose(self, proposal: dict) -> dict:
        if self.pending < PENDING_CAP:
            return super().propose(proposal)
        return {"queued": False, "spilled": False, "pending": self.pending}


class ProposalsDroppedStore(ComposedStore):
    """Proposals past the pending cap are silently dropped instead of spilled."""

    proposal_queue = staticmethod(DroppingQueue.open)


class UnlockedWriter:
    """A writer lock that locks nothing: ``held`` only follows acquire and release."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.held = False

    def acquire(self) -> None:
        """Take nothing; a second writer is never refused."""
        self.held = True

    def release(self) -> None:
        """Forget the pretend lock."""
        self.held = False


class NoLockStore(ComposedStore):
    """No single-writer lock: any number of writers open the same directory."""

    writer_lock = UnlockedWriter
