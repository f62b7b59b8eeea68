"""Broken engines that get a journal's rewrite after a failed append wrong (docs/state.md
§ Journals). ``STATE-JOURNAL-461`` fails on each.

Each is the reference ``ProtocolHandler`` whose store rewrites its journals through a
changed ``JournalWriter`` (the rewritten journal given 0644, or its mode left to the
umask; the journal kept stale once rewritten; a journal with no acknowledged line never
rewritten, though it holds a refused line's bytes), or whose ``dirty`` is set by a refused
proposal.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import JournalRecovery, StateError, StateStore, recover
from reference.state.fsops import FileOps
from reference.state.journal import JournalWriter, scan
from reference.state.layout import DEFAULT_MODE, LINEAGE, STAGING_PREFIX
from reference.state.proposals import ProposalQueue


class _Rewrite0644Writer(JournalWriter):
    """The journal's rewrite creates its file with 0644, as a fresh journal is."""

    def rewrite(self) -> None:
        data = self.fs.read_file(self.path, reading=False)
        size = self._size()
        if data is None and not size:
            self.stale = False
            return
        staged = self.path.parent / (STAGING_PREFIX + self.path.name)
        self.fs.write_file(staged, (data or b"")[:size], DEFAULT_MODE)
        self.fs.fsync_file(staged)
        self.fs.rename(staged, self.path)
        self.fs.fsync_dir(self.path.parent)
        self.stale = False


class _UmaskedRewriteOps(FileOps):
    """A staged journal is opened with its mode but never given it (no fchmod)."""

    def write_file(self, path: Any, data: bytes, mode: int) -> None:
        if not path.name.startswith(STAGING_PREFIX):
            super().write_file(path, data, mode)
            return
        fd = self.open_file(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


class _StaleForeverWriter(JournalWriter):
    """A journal once stale stays stale: its rewrite runs and succeeds, but every later
    append is refused as if it had not."""

    stuck = False

    def _roll_back(self, size: int) -> None:
        super()._roll_back(size)
        self.stuck = True

    def append(self, payload: dict[str, Any]) -> None:
        if self.stuck:
            self.rewrite()
            raise StateError(
                f"{self.path}: the journal is stale after a failed append (EIO)",
                field="path",
                code="STATE_IO",
            )
        super().append(payload)


def _queue_of(writer: type[JournalWriter], fs: FileOps) -> ProposalQueue:
    queue = ProposalQueue.open(fs.root, fs)
    queue.writers = {
        name: writer(found.path, fs, found.size) for name, found in queue.writers.items()
    }
    return queue


class _NothingAckedNoRewriteWriter(JournalWriter):
    """A journal with no acknowledged line is taken to have nothing to rebuild, also when
    it holds bytes (its creating append's fsync failed, and so did the cut back)."""

    def rewrite(self) -> None:
        if self.size == 0:
            self.stale = False
            return
        super().rewrite()


class _Rewrite0644Store(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _queue_of(_Rewrite0644Writer, fs)


class _UmaskedRewriteStore(StateStore):
    @classmethod
    def file_ops(cls, path: Any) -> FileOps:
        return _UmaskedRewriteOps(path)


class _StaleForeverStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _queue_of(_StaleForeverWriter, fs)


class _NothingAckedNoRewriteStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _queue_of(_NothingAckedNoRewriteWriter, fs)


class _DirtiedByJournalStore(StateStore):
    """A refused proposal (its journal rewritten) marks the store dirty."""

    rewritten = False

    def propose(self, proposal: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().propose(proposal)
        except StateError:
            self.rewritten = True
            raise

    def _is_dirty(self, current: str) -> bool:
        return self.rewritten or super()._is_dirty(current)


class JournalRewrittenAt0644(ProtocolHandler):
    """The journal rewritten after a failed append gets mode 0644, not its own."""

    def store_class(self) -> Any:
        return _Rewrite0644Store


class JournalRewriteLeftToUmask(ProtocolHandler):
    """The journal rewritten after a failed append is opened with its mode but never given
    it, so the process's umask trims it."""

    def store_class(self) -> Any:
        return _UmaskedRewriteStore


class JournalStaleForever(ProtocolHandler):
    """Once an append failed, every later append of the life is refused, though the
    journal's rewrite succeeded."""

    def store_class(self) -> Any:
        return _StaleForeverStore


class NothingAckedNotRewritten(ProtocolHandler):
    """A journal that holds no acknowledged line is never rewritten: when the append that
    created it failed and so did its cut back, the refused line stays and is listed."""

    def store_class(self) -> Any:
        return _NothingAckedNoRewriteStore


class DirtiedByJournalRewrite(ProtocolHandler):
    """A refused proposal, whose journal was rewritten, makes the store dirty, so its
    close commits a generation that changes nothing."""

    def store_class(self) -> Any:
        return _DirtiedByJournalStore


class _JournalReadOps(FileOps):
    """A journal's read at a writer's open: *unreadable* says what its failure becomes."""

    unreadable = "STATE_IO"

    def read_file(self, path: Any, *, reading: bool = True) -> bytes | None:
        try:
            return super().read_file(path, reading=reading)
        except StateError as refusal:
            if not path.name.endswith(".journal") or refusal.code != "STATE_UNREADABLE":
                raise
            if self.unreadable == "empty":
                return None
            raise StateError(str(refusal), field="path", code="STATE_IO") from refusal


class _EmptyJournalReadOps(_JournalReadOps):
    unreadable = "empty"


class _JournalAsIOStore(StateStore):
    @classmethod
    def file_ops(cls, path: Any) -> FileOps:
        return _JournalReadOps(path)


class _JournalAsEmptyStore(StateStore):
    @classmethod
    def file_ops(cls, path: Any) -> FileOps:
        return _EmptyJournalReadOps(path)


class _NoPreflightStore(StateStore):
    @classmethod
    def preflight(cls, fs: FileOps) -> None:
        return None


class UnreadableJournalAsIO(ProtocolHandler):
    """A journal a writer's open cannot read is answered ``STATE_IO`` (as a write's
    failure), not ``STATE_UNREADABLE``."""

    def store_class(self) -> Any:
        return _JournalAsIOStore


class UnreadableJournalAsEmpty(ProtocolHandler):
    """A journal a writer's open cannot read is taken for a missing one: the open goes on."""

    def store_class(self) -> Any:
        return _JournalAsEmptyStore


class JournalsRepairedAsRead(ProtocolHandler):
    """A writer's open reads each journal only as it repairs it (no read of every journal
    first), so an unreadable one refuses the open after the debris is cleared and an
    earlier journal's torn tail cut."""

    def store_class(self) -> Any:
        return _NoPreflightStore


def _cut_bad_last_line(path: Path, *, repair: bool) -> JournalRecovery:
    """Recovery that takes a complete last line that does not check for a torn tail."""
    data = path.read_bytes() if path.exists() else b""
    found = scan(data)
    lines = data.splitlines(keepends=True)
    if found.cut_bytes or not found.skipped or found.skipped[-1] != len(lines):
        return recover(path, repair=repair)
    keep = len(data) - len(lines[-1])
    if repair:
        with open(path, "r+b") as file:
            file.truncate(keep)
    return JournalRecovery(found.entries, found.skipped[:-1], len(lines[-1]), keep)


class BadLastLineCut(ProtocolHandler):
    """A complete last journal line that does not check (its CRC-32, its length, its
    header, its payload) is cut as a torn tail instead of reported and kept."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return _cut_bad_last_line(path, repair=repair)


class _LineageRewrite0644Store(StateStore):
    @classmethod
    def record_boot(cls, fs: FileOps, boot: Any) -> None:
        writer, _ = _Rewrite0644Writer.open(fs.root / LINEAGE, fs)
        writer.append(boot.as_event())


class LineageRewrittenAt0644(ProtocolHandler):
    """The lineage journal rewritten after its boot event's append failed gets mode 0644,
    not its own (the proposal journals keep theirs)."""

    def store_class(self) -> Any:
        return _LineageRewrite0644Store
