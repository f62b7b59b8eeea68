"""Broken engines whose refused writer's open does not leave the directory as it found it
(docs/state.md § Confinement: a refused open leaves every entry but ``LOCK`` as it found
it, and ``LOCK`` holds the pid only while the lock is held).

Each is the reference ``ProtocolHandler`` with its store's open changed: one removes the
leftovers of a crashed commit right after the load, before it reads the journals, so a
journal that is a link refuses the open with the debris already gone
(``STATE-SYMLINK-001``); one keeps the lock of an open it refuses (``STATE-LOCK-601``);
one whose bind of the lock's name fails goes on with the open's work before it answers
``STATE_LOCKED``, so the refused second writer has already cut the holder's torn journal
tails, removed its staging directory and ``CURRENT.tmp`` and appended a boot event to its
lineage (``STATE-LOCK-001``); one whose refused open clears ``LOCK`` as it cleans up, so the
holder's pid is gone while it still holds the lock (``STATE-LOCK-001``, ``STATE-LOCK-002``).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from reference.errors import EngineError
from reference.serve import ProtocolHandler
from reference.state import StateStore, WriterLock, journal
from reference.state.errors import StateError
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


class _LockedLateStore(StateStore):
    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> StateStore:
        path = Path(path)
        make_dirs(path)
        fs = fs or cls.file_ops(path)
        lock = cls.writer_lock(path, fs)
        try:
            lock.acquire()
        except StateError as refusal:
            if refusal.code != "STATE_LOCKED":
                raise
            with contextlib.suppress(EngineError):
                cls.start(fs)  # the open's work goes on until the bind's error is looked at
            raise
        try:
            booted = cls.start(fs)
        except BaseException:
            lock.release()
            raise
        return cls(path, fs, lock, booted)


class LockedRefusalLate(ProtocolHandler):
    """A writer's open whose bind of the lock's name fails (`EADDRINUSE`) goes on with the
    open's work (the load, removing the leftovers, repairing the journals, appending its
    boot event) and only then answers `STATE_LOCKED`, as a Node.js port that awaits
    `listen`'s `error` event after the synchronous work would: the refused second writer
    has already changed the holder's directory."""

    def store_class(self) -> Any:
        return _LockedLateStore


class _ClearingLock(WriterLock):
    def acquire(self) -> None:
        try:
            super().acquire()
        except StateError as refusal:
            with contextlib.suppress(OSError, EngineError):
                os.close(self.fs.open_file(self.path, os.O_WRONLY | os.O_TRUNC, 0o644))
            raise refusal from None


class _ClearingLockStore(StateStore):
    @classmethod
    def writer_lock(cls, path: Path, fs: FileOps) -> WriterLock:
        return _ClearingLock(path, fs)


class LockedRefusalClearsLock(ProtocolHandler):
    """A writer's open refused with `STATE_LOCKED` names the holder's pid, then clears
    `LOCK` on its way out as if it had written it (the cleanup of a refused open applied to
    the one refusal that never took the lock): the holder keeps the lock, but its pid is
    gone, and the next refused writer names the holder `unknown`."""

    def store_class(self) -> Any:
        return _ClearingLockStore
