"""Checkpoint a chat session's persistent core after every turn (docs/state.md).

The field and the vault stay in memory; what persists is the session record (the
register in use) and the turn count, committed after each turn, so a process killed
at any point restarts on the last completed turn.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from reference.state import CheckpointInfo, StateError, StateStore


class PersistedSession:
    """The state store of one chat runtime; the writer lock is held until :meth:`close`."""

    def __init__(self, store: StateStore, register_id: str | None) -> None:
        self.store = store
        self.session_record = {"kind": "session", "key": "session", "register_id": register_id}

    @classmethod
    def open(cls, directory: Path, register_id: str | None) -> PersistedSession:
        """Open (or create) *directory*; a second writer is refused with STATE_LOCKED."""
        return cls(StateStore.open(Path(directory)), register_id)

    @property
    def recovered(self) -> str | None:
        """Why the open fell back to an older generation, or None (docs/state.md)."""
        return self.store.boot.recovered

    def record_turn(self) -> CheckpointInfo:
        """Count the turn, note the register, and commit; returns once durable."""
        self.store.apply([{"op": "turn"}, {"op": "put", "record": self.session_record}])
        return self.store.checkpoint()

    def close(self) -> CheckpointInfo:
        """Clean shutdown: commits only if something changed since the last turn."""
        return self.store.close()

    def release(self) -> None:
        """Let go of the state without committing (after a failure); never raises."""
        with contextlib.suppress(StateError):
            self.store.release()
