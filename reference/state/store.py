"""The writer's handle on a state directory: lock, boot, mutate, checkpoint, close.

``StateStore.open`` creates the directory when missing, takes the writer lock, loads by
the recovery rules, removes leftovers of a crashed commit, repairs the journals and
records a boot event. Every file-system effect goes through ``self.fs``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reference.state import journal
from reference.state.commit import CheckpointInfo, commit, remove_leftovers
from reference.state.core import Key, encode_core, identity
from reference.state.errors import StateError
from reference.state.fsops import FileOps
from reference.state.layout import LINEAGE
from reference.state.lineage import BootInfo, boot_info
from reference.state.loader import LoadedState, load_state
from reference.state.lock import WriterLock
from reference.state.mutations import apply_mutations
from reference.state.proposals import ProposalQueue
from reference.state.records import CURRENT_SCHEMA_VERSION


def _ensure_dir(path: Path, fs: FileOps) -> None:
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for directory in reversed(missing):
        fs.mkdir(directory)
        fs.fsync_dir(directory.parent)


@dataclass(frozen=True)
class Booted:
    """What an open found and started: the loaded state, the boot event, the proposal queue."""

    loaded: LoadedState
    boot: BootInfo
    queue: ProposalQueue


def _boot(path: Path, fs: FileOps) -> Booted:
    loaded = load_state(path)
    remove_leftovers(path, fs, loaded.generation)
    queue = ProposalQueue.open(path, fs)
    events = journal.recover(path / LINEAGE, repair=True, fs=fs).entries
    boot = boot_info(loaded, events)
    journal.append(path / LINEAGE, boot.as_event(), fs)
    return Booted(loaded, boot, queue)


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
        self._turn_count = loaded.turn_count
        self._committed = CheckpointInfo(loaded.generation, loaded.identity, loaded.turn_count)

    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> StateStore:
        """Open *path* for writing, or raise (``STATE_LOCKED``, schema refusals, corruption)."""
        path, fs = Path(path), fs or FileOps()
        _ensure_dir(path, fs)
        lock = WriterLock(path)
        lock.acquire()
        try:
            booted = _boot(path, fs)
        except BaseException:
            lock.release()
            raise
        return cls(path, fs, lock, booted)

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
    def records(self) -> dict[Key, dict]:
        """A copy of the in-memory records, keyed by ``(kind, key)``."""
        return {key: dict(record) for key, record in self._records.items()}

    def _core(self) -> bytes:
        return encode_core(self._records.values())

    def _is_dirty(self, current: str) -> bool:
        committed = self._committed
        return current != committed.identity or self._turn_count != committed.turn_count

    def apply(self, mutations: list[dict]) -> None:
        """Apply a batch of mutations in memory, whole or not at all."""
        self._check_open()
        self._records, self._turn_count = apply_mutations(
            self._records, self._turn_count, mutations
        )

    def digest(self) -> dict:
        """The in-memory identity and turn count, the committed generation, and dirtiness."""
        self._check_open()
        current = identity(CURRENT_SCHEMA_VERSION, self._core())
        return {
            "identity": current,
            "generation": self._committed.generation,
            "turn_count": self._turn_count,
            "dirty": self._is_dirty(current),
        }

    def checkpoint(self) -> CheckpointInfo:
        """Commit the in-memory state as the next generation; return once it is durable."""
        self._check_open()
        self._committed = commit(
            self.path,
            self.fs,
            live=self._committed.generation,
            turn_count=self._turn_count,
            core=self._core(),
        )
        return self._committed

    def propose(self, proposal: dict) -> dict:
        """Queue a proposal with backpressure: ``{"queued", "spilled", "pending"}``."""
        self._check_open()
        return self._queue.propose(proposal)

    def close(self) -> CheckpointInfo:
        """Commit if anything changed since the last checkpoint, then release the lock."""
        self._check_open()
        try:
            if self._is_dirty(identity(CURRENT_SCHEMA_VERSION, self._core())):
                self.checkpoint()
        finally:
            self._lock.release()
        return self._committed
