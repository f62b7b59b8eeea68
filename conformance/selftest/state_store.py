"""A conformant state store whose open, boot and checkpoint are made of overridable steps.

:class:`ComposedStore` behaves exactly as ``reference.state.StateStore``: it opens,
boots and commits through the same reference functions, but each step is a hook
(``load``, ``writer_lock``, ``clear_leftovers``, ``proposal_queue``, ``boot_event``,
``record_boot``, ``encode``, ``commit_files``, ``commit_ops``), so a broken store
changes one step and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from reference.state import journal
from reference.state.commit import CheckpointInfo, commit, remove_leftovers
from reference.state.core import encode_core
from reference.state.fsops import FileOps
from reference.state.layout import LINEAGE
from reference.state.lineage import BootInfo, boot_info
from reference.state.loader import load_state
from reference.state.lock import WriterLock
from reference.state.proposals import ProposalQueue
from reference.state.store import Booted, StateStore


def make_dirs(path: Path, fs: FileOps) -> None:
    """Create *path* and its missing parents, fsyncing each parent's new entry."""
    missing = [directory for directory in (path, *path.parents) if not directory.exists()]
    for directory in reversed(missing):
        fs.mkdir(directory)
        fs.fsync_dir(directory.parent)


class ComposedStore(StateStore):
    """``StateStore`` with every step of open, boot and checkpoint overridable."""

    load = staticmethod(load_state)
    """Load a directory by the recovery rules (also answers ``state.load``)."""

    writer_lock = WriterLock
    """The single-writer lock of a directory."""

    clear_leftovers = staticmethod(remove_leftovers)
    """Remove what a crashed commit left, given the live generation."""

    proposal_queue = staticmethod(ProposalQueue.open)
    """Recover the proposal journals and return the queue."""

    boot_event = staticmethod(boot_info)
    """The boot event of a load after the recorded lineage events."""

    commit_files = staticmethod(commit)
    """The commit protocol: write the next generation and make it durable."""

    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> ComposedStore:
        """Open *path* for writing as ``StateStore.open`` does, through the hooks."""
        path, fs = Path(path), fs or FileOps()
        make_dirs(path, fs)
        lock = cls.writer_lock(path)
        lock.acquire()
        try:
            booted = cls.start(path, fs)
        except BaseException:
            lock.release()
            raise
        return cls(path, fs, lock, booted)

    @classmethod
    def start(cls, path: Path, fs: FileOps) -> Booted:
        """Load, clear leftovers, recover the journals and record the boot event."""
        loaded = cls.load(path)
        cls.clear_leftovers(path, fs, loaded.generation)
        queue = cls.proposal_queue(path, fs)
        events = journal.recover(path / LINEAGE, repair=True, fs=fs).entries
        boot = cls.boot_event(loaded, events)
        cls.record_boot(path, boot, fs)
        return Booted(loaded, boot, queue)

    @staticmethod
    def record_boot(path: Path, boot: BootInfo, fs: FileOps) -> None:
        """Append the boot event to the lineage journal."""
        journal.append(path / LINEAGE, boot.as_event(), fs)

    def encode(self, records: Iterable[dict]) -> bytes:
        """The bytes of ``core.jsonl`` for *records*."""
        return encode_core(records)

    def _core(self) -> bytes:
        return self.encode(self._records.values())

    def commit_ops(self) -> FileOps:
        """The file operations a checkpoint goes through."""
        return self.fs

    def checkpoint(self) -> CheckpointInfo:
        """Commit the in-memory state as the next generation through ``commit_files``."""
        self._check_open()
        self._committed = self.commit_files(
            self.path,
            self.commit_ops(),
            live=self.generation,
            turn_count=self._turn_count,
            core=self._core(),
        )
        return self._committed
