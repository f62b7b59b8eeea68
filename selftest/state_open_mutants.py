"""Broken engines whose refused writer's open does not leave the directory as it found it
(docs/state.md § Confinement: a refused open leaves every entry but ``LOCK`` as it found
it, and ``LOCK`` holds the pid only while the lock is held).

Each is the reference ``ProtocolHandler`` with its store's open changed: one removes the
leftovers of a crashed commit right after the load, before it reads the journals, so a
journal that is a link refuses the open with the debris already gone
(``STATE-SYMLINK-001``); one keeps the lock of an open it refuses (``STATE-LOCK-601``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore, journal
from reference.state.fsops import FileOps
from reference.state.layout import LINEAGE
from reference.state.store import Booted, make_dirs


class _LeftoversFirstStore(StateStore):
    @classmethod
    def start(cls, fs: FileOps) -> Booted:
        loaded = cls.load(fs)
        cls.clear_leftovers(fs, loaded)
        cls.preflight(fs)
        queue = cls.open_queue(fs)
        events = journal.recover(fs.root / LINEAGE, repair=True, fs=fs).entries
        boot = cls.boot_event(loaded, events)
        cls.record_boot(fs, boot)
        return Booted(loaded, boot, queue)


class LeftoversRemovedBeforeJournals(ProtocolHandler):
    """A writer's open removes the leftovers before it reads the journals, so a journal
    that refuses the open finds the debris already removed."""

    def store_class(self) -> Any:
        return _LeftoversFirstStore


class _KeepsLockStore(StateStore):
    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> StateStore:
        path = Path(path)
        make_dirs(path)
        fs = fs or cls.file_ops(path)
        lock = cls.writer_lock(path, fs)
        lock.acquire()
        return cls(path, fs, lock, cls.start(fs))


class RefusedOpenKeepsLock(ProtocolHandler):
    """A writer's open refused after it took the lock returns the refusal without releasing
    it: `LOCK` keeps the pid and the directory stays locked until the process ends."""

    def store_class(self) -> Any:
        return _KeepsLockStore
