"""Broken engines that go wrong only from a starting state the suite once left out.

* ``SessionHoldsStore``: a session holds a reference-counted handle to the store it lives
  on, so ``state.close`` with a session still on the store closes the handle but keeps the
  lock until that session ends (docs/protocol.md § Persisted-state ops: "`state.close` ...
  commits only if dirty, releases the lock"). ``STATE-LIFE-002`` fails on it.
* ``RefusalResetsTurns``: a refused ``state.apply`` batch puts the turn count back to the
  last checkpoint's, as if the refusal rolled the store back (docs/state.md § Mutations: "a
  refused batch changes nothing, so the in-memory state (`state.digest`) and the next
  checkpoint are as before the batch"). ``STATE-APPLY-002`` fails on it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import CheckpointInfo, FileOps, StateError, StateStore, WriterLock
from reference.state.store import Booted


class SessionHoldsStore(ProtocolHandler):
    """``state.close`` of a store a session lives on commits if dirty and forgets the
    handle, but the session still holds the store, so its lock (and the pid in ``LOCK``)
    is released only when that session ends: a reopen meanwhile is ``STATE_LOCKED``."""

    def __init__(self) -> None:
        super().__init__()
        self.held: dict[str, StateStore] = {}
        """Per session, the store it keeps alive after its handle was closed."""

    def op_state_close(self, args: dict[str, Any]) -> dict[str, Any]:
        store_id = args.get("store")
        owner = self.lives.get(store_id) if isinstance(store_id, str) else None
        if owner is None or store_id not in self.stores:
            return super().op_state_close(args)
        opened = self.stores.pop(store_id)
        if opened.digest()["dirty"]:
            opened.checkpoint()
        self.held[owner] = opened
        found = opened.digest()
        return {k: found[k] for k in ("generation", "identity", "turn_count")}

    def drop_ended(self) -> None:
        """Release the stores of sessions that have ended (the last reference dropped)."""
        for session_id in [s for s in self.held if s not in self.sessions]:
            self.held.pop(session_id).release()

    def op_session_close(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_session_close(args)
        finally:
            self.drop_ended()

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_session_chat(args)
        finally:
            self.drop_ended()

    def close(self) -> None:
        held, self.held = self.held, {}
        for opened in held.values():
            opened.release()
        super().close()


class _TurnsResetStore(StateStore):
    def __init__(self, path: Path, fs: FileOps, lock: WriterLock, booted: Booted) -> None:
        super().__init__(path, fs, lock, booted)
        self.checkpointed_turns = booted.loaded.turn_count

    def checkpoint(self, announce: Callable[..., Any] | None = None) -> CheckpointInfo:
        committed = super().checkpoint(announce)
        self.checkpointed_turns = committed.turn_count
        return committed

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        try:
            super().apply(mutations)
        except StateError:
            self._turn_count = self.checkpointed_turns
            raise


class RefusalResetsTurns(ProtocolHandler):
    """A refused batch leaves the records alone but puts the turn count back to the last
    checkpoint's (0 on a store never committed), so turns applied since are lost."""

    def store_class(self) -> Any:
        return _TurnsResetStore
