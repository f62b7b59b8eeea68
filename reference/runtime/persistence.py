"""Checkpoint a chat session after every turn (docs/state.md § In the chat runtime).

What persists is the session record (the register in use), the turn count and the life
(the field, the vault and the latest subject, § The life), committed after each turn, so
a process killed at any point restarts on the last completed turn and lives on from it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from reference.runtime.life import life_of, life_records, unwritten
from reference.state import CheckpointInfo, StateError, StateStore
from reference.truth.pipeline import Life
from reference.truth.vault import VaultHit


class PersistedSession:
    """The state store of one chat runtime; the writer lock is held until :meth:`close`."""

    def __init__(self, store: StateStore, register_id: str | None) -> None:
        self.store = store
        self.session_record = {"kind": "session", "key": "session", "register_id": register_id}
        self.life = life_of(store.records)
        self._written: tuple[VaultHit, ...] = self.life.hits if self.life else ()
        """The tallies as last put (every one of them is in the store)."""

    @classmethod
    def open(cls, directory: Path, register_id: str | None) -> PersistedSession:
        """Open (or create) *directory*; a second writer is refused with STATE_LOCKED."""
        return cls(StateStore.open(Path(directory)), register_id)

    @property
    def recovered(self) -> str | None:
        """Why the open fell back to an older generation, or None (docs/state.md)."""
        return self.store.boot.recovered

    def stage_turn(self, life: Life) -> None:
        """Count the turn, note the register and the life after it, in memory."""
        changed = unwritten(life.hits, self._written)
        puts = [{"op": "put", "record": record} for record in life_records(life, changed)]
        self.store.apply([{"op": "turn"}, {"op": "put", "record": self.session_record}, *puts])
        self._written = life.hits

    def record_turn(self, life: Life) -> CheckpointInfo:
        """:meth:`stage_turn`, then commit; returns once durable."""
        self.stage_turn(life)
        return self.store.checkpoint()

    def close(self) -> CheckpointInfo:
        """Clean shutdown: commits only if something changed since the last turn."""
        return self.store.close()

    def release(self) -> None:
        """Let go of the state without committing (after a failure); never raises."""
        with contextlib.suppress(StateError):
            self.store.release()
