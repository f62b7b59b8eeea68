"""The writer's handle on a state directory: lock, boot, mutate, checkpoint, close.

``StateStore.open`` creates the directory when missing, takes the writer lock, loads by
the recovery rules, removes leftovers of a crashed commit, repairs the journals and
records a boot event. Every file-system effect goes through ``self.fs``. Each step of
open and checkpoint is a hook (a method a subclass may replace): ``file_ops``,
``writer_lock``, ``load``, ``preflight``, ``clear_leftovers``, ``open_queue``, ``boot_event``,
``record_boot``, ``encode``, and the commit steps ``clear_debris``, ``next_generation``,
``stage``, ``publish``, ``swap_pointer`` and ``prune``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.state import commit as steps
from reference.state import journal
from reference.state.commit import CheckpointInfo
from reference.state.core import Key
from reference.state.core_cache import CoreCache, CoreView
from reference.state.delta_writer import DeltaWriter
from reference.state.errors import StateError, io_refusal
from reference.state.fsops import FileOps
from reference.state.layout import CORE, LINEAGE, MANIFEST, OVERFLOW, PROPOSALS, gen_name
from reference.state.lineage import BootInfo, boot_info
from reference.state.loader import LoadedState, load_state
from reference.state.lock import WriterLock
from reference.state.mutations import apply_mutations, touched_keys
from reference.state.proposals import ProposalQueue
from reference.state.records import CURRENT_SCHEMA_VERSION, Record

Announce = Callable[[int, str], None]
"""Told the generation and identity a checkpoint will commit, before it writes them."""


def _absent(path: Path) -> bool:
    """Whether nothing is at *path*; a failed lstat other than "not found" is raised."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    return False


def make_dirs(path: Path) -> None:
    """Create *path* and its missing parents, fsyncing each parent's new entry."""
    try:
        missing = [d for d in (path, *path.parents) if _absent(d)]
        for directory in reversed(missing):
            os.mkdir(directory)
            FileOps(directory.parent).fsync_dir(directory.parent)
    except OSError as exc:
        raise io_refusal(path, exc, reading=False) from exc


@dataclass(frozen=True)
class Booted:
    """What an open found and started: the loaded state, the boot event, the proposal queue."""

    loaded: LoadedState
    boot: BootInfo
    queue: ProposalQueue


class StateStore:
    """An open, locked state directory; use ``StateStore.open``."""

    def __init__(self, path: Path, fs: FileOps, lock: WriterLock, booted: Booted) -> None:
        loaded = booted.loaded
        self.path = path
        self.fs = fs
        self._lock = lock
        self._boot = booted.boot
        self._queue = booted.queue
        self._records = dict(loaded.records)
        self._cache = CoreCache()
        self._view = 0
        """The number of the last :class:`CoreView` of the records (0: none yet)."""
        self._touched: set[Key] = set()
        """The keys put or deleted since :attr:`_view`."""
        self._tracked: dict[Key, Record] | None = None
        """The records :attr:`_touched` leads to from :attr:`_view` (anything else in
        ``_records`` is encoded whole)."""
        self._turn_count = loaded.turn_count
        self._committed = CheckpointInfo(loaded.generation, loaded.identity, loaded.turn_count)
        self._live_base = loaded.base
        """The base of the live generation when it is a delta (commit step 6 keeps it)."""
        self._own = frozenset() if loaded.fresh else frozenset({loaded.generation})
        """The generations on disk this store loaded or committed: each holds nothing the
        live state lacks, so a prune removes it without reading it again."""
        self._deltas = DeltaWriter()
        self._staged_base: int | None = None
        """The base of the generation the checkpoint in flight stages (None: full)."""

    # Hooks of open -----------------------------------------------------------------------

    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        """The file operations every step of this store goes through."""
        return FileOps(path)

    @classmethod
    def writer_lock(cls, path: Path, fs: FileOps) -> WriterLock:
        """The single-writer lock of *path*."""
        return WriterLock(path, fs)

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        """Load the directory by the recovery rules (also answers ``state.load``)."""
        return load_state(fs.root, fs)

    @classmethod
    def preflight(cls, fs: FileOps) -> None:
        """Read every journal open will repair or append to, so a refusal precedes any write."""
        for name in (PROPOSALS, OVERFLOW, LINEAGE):
            journal.recover(fs.root / name, repair=False, fs=fs)

    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        """Remove what a crashed commit left (only what is newer than ``CURRENT`` names)."""
        steps.remove_leftovers(fs, loaded.pointer)

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        """Recover the proposal journals and return the queue."""
        return ProposalQueue.open(fs.root, fs)

    @classmethod
    def boot_event(cls, loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
        """The boot event of a load after the recorded lineage events."""
        return boot_info(loaded, events)

    @classmethod
    def record_boot(cls, fs: FileOps, boot: BootInfo) -> None:
        """Append the boot event to the lineage journal."""
        journal.append(fs.root / LINEAGE, boot.as_event(), fs)

    @classmethod
    def start(cls, fs: FileOps) -> Booted:
        """Load and check (reads only), then clear leftovers, repair the journals and record
        the boot event: a refusal of the load or the checks leaves the directory untouched."""
        loaded = cls.load(fs)
        cls.preflight(fs)
        cls.clear_leftovers(fs, loaded)
        queue = cls.open_queue(fs)
        events = journal.recover(fs.root / LINEAGE, repair=True, fs=fs).entries
        boot = cls.boot_event(loaded, events)
        cls.record_boot(fs, boot)
        return Booted(loaded, boot, queue)

    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> StateStore:
        """Open *path* for writing, or raise (``STATE_LOCKED``, schema refusals, corruption)."""
        path = Path(path)
        make_dirs(path)
        fs = fs or cls.file_ops(path)
        lock = cls.writer_lock(path, fs)
        lock.acquire()
        try:
            booted = cls.start(fs)
        except BaseException:
            lock.release()
            raise
        return cls(path, fs, lock, booted)

    # Hooks of checkpoint -----------------------------------------------------------------

    def encode(self, records: Iterable[Record]) -> bytes:
        """The bytes of ``core.jsonl`` for *records* (what :func:`encode_core` gives); only
        the records that changed since the last call are encoded again, and given a
        :class:`CoreView` after the last one, only its touched keys are looked at."""
        return self._cache.encode(records)

    def clear_debris(self) -> None:
        """Commit step 1: remove staging directories and ``CURRENT.tmp``."""
        steps.remove_debris(self.fs)

    def next_generation(self) -> int:
        """The number the checkpoint commits: past the live one and any on disk."""
        return steps.next_generation(self.fs, self.generation)

    def stage(self, generation: int, core: bytes) -> Path:
        """Commit steps 2 and 3: the synced staging directory of *generation*: a delta
        generation when :class:`DeltaWriter` finds one small enough, else a full one."""
        delta = self._deltas.delta(self._records, core)
        if delta is not None and not self.base_on_disk(delta[0].generation):
            delta = None  # its base is gone (removed under the writer): a full generation
        self._staged_base = None if delta is None else delta[0].generation
        return steps.stage(
            self.fs,
            generation=generation,
            live=self.generation,
            turn_count=self._turn_count,
            core=core,
            identity=self._identity(core),
            delta=delta,
        )

    def base_on_disk(self, generation: int) -> bool:
        """Whether the base a delta would name still holds its ``core.jsonl`` and
        ``manifest.json`` (docs/state.md § Delta generations: a delta is written only over
        a base on disk)."""
        base = self.fs.root / gen_name(generation)
        return all(
            self.fs.entry_kind(base / name, reading=False) == "file" for name in (CORE, MANIFEST)
        )

    def publish(self, staging: Path, generation: int) -> None:
        """Commit step 4: rename the staging directory into place."""
        steps.publish(self.fs, staging, generation)

    def swap_pointer(self, generation: int) -> None:
        """Commit step 5, the commit point: ``CURRENT`` names *generation*, durably."""
        steps.swap_pointer(self.fs, generation)

    def prune(self, generation: int) -> None:
        """Commit step 6: keep only *generation* and the previous live one, and the base
        of each that is a delta."""
        keep = {base for base in (self._live_base, self._staged_base) if base is not None}
        steps.prune(self.fs, live=self.generation, generation=generation, own=self._own, keep=keep)

    # Operations --------------------------------------------------------------------------

    def _check_open(self) -> None:
        if not self._lock.held:
            raise StateError("the state store is closed", field="store", code="STATE_NOT_OPEN")

    @property
    def boot(self) -> BootInfo:
        """This open's boot event: index, reason, parent identity, recovery reason."""
        return self._boot

    @property
    def generation(self) -> int:
        """The last committed generation (0 before the first commit)."""
        return self._committed.generation

    @property
    def records(self) -> dict[Key, Record]:
        """A copy of the in-memory records, keyed by ``(kind, key)``."""
        return {key: dict(record) for key, record in self._records.items()}

    def _core(self) -> bytes:
        base = self._view if self._view and self._records is self._tracked else None
        self._view += 1
        view = CoreView(self._records, self._touched, number=self._view, base=base)
        self._touched, self._tracked = set(), self._records
        return self.encode(view)

    def _identity(self, core: bytes) -> str:
        return self._cache.identity(CURRENT_SCHEMA_VERSION, core)

    def _is_dirty(self, current: str) -> bool:
        committed = self._committed
        return current != committed.identity or self._turn_count != committed.turn_count

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        """Apply a batch of mutations in memory, whole or not at all."""
        self._check_open()
        before = self._records
        self._records, self._turn_count = apply_mutations(
            self._records, self._turn_count, mutations
        )
        touched = touched_keys(mutations)
        self._deltas.touch(touched)
        if before is self._tracked:
            self._touched.update(touched)
            self._tracked = self._records

    def digest(self) -> dict[str, Any]:
        """The in-memory identity and turn count, the committed generation, and dirtiness."""
        self._check_open()
        current = self._identity(self._core())
        return {
            "identity": current,
            "generation": self._committed.generation,
            "turn_count": self._turn_count,
            "dirty": self._is_dirty(current),
        }

    def checkpoint(self, announce: Announce | None = None) -> CheckpointInfo:
        """Commit the in-memory state as the next generation; return once it is durable.

        *announce(generation, identity)*, when given, is told what will be committed once
        the generation's number is chosen, before anything of it is written.
        """
        self._check_open()
        core = self._core()
        committing = self._identity(core)
        self.clear_debris()
        generation = self.next_generation()
        if announce is not None:
            announce(generation, committing)
        self._staged_base = None
        staging = self.stage(generation, core)
        self.publish(staging, generation)
        self.swap_pointer(generation)
        self.prune(generation)
        bases = {base for base in (self._live_base, self._staged_base) if base is not None}
        self._own = frozenset({self.generation, generation, *bases} - {0})
        if self._staged_base is None:
            self._deltas.rebase(generation, self._records, core)
        self._live_base = self._staged_base
        self._committed = CheckpointInfo(generation, committing, self._turn_count)
        return self._committed

    def propose(self, proposal: dict[str, Any]) -> dict[str, Any]:
        """Queue a proposal with backpressure: ``{"queued", "spilled", "pending"}``."""
        self._check_open()
        return self._queue.propose(proposal)

    def close(self) -> CheckpointInfo:
        """Commit if anything changed since the last checkpoint, then release the lock."""
        self._check_open()
        try:
            if self._is_dirty(self._identity(self._core())):
                self.checkpoint()
        finally:
            self._lock.release()
        return self._committed

    def release(self) -> CheckpointInfo:
        """Release the lock without committing: what changed since the last checkpoint is
        dropped, and the directory keeps its last durable checkpoint."""
        self._check_open()
        self._lock.release()
        return self._committed
