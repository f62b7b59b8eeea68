"""Broken engines that mix up the life's ``turns`` (the session's own count) and the
store's turn count (the ``turn`` mutations committed) (docs/state.md § The life).
``STATE-LIFE-461`` fails on each.
"""

from __future__ import annotations

import dataclasses

from reference.runtime import ChatRuntime
from reference.runtime.persistence import PersistedSession
from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.truth.pipeline import Life


class SessionAtTurnCount(ProtocolHandler):
    """A session on a store resumes at the store's turn count, not the life's turns."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        if runtime.persisted is not None and runtime.persisted.life is not None:
            turns = store.digest()["turn_count"]
            runtime.resume(dataclasses.replace(runtime.truth.life(), turns=turns))


class _CountedAsTurns(PersistedSession):
    def stage_turn(self, life: Life) -> None:
        turns = self.store.digest()["turn_count"] + 1
        super().stage_turn(dataclasses.replace(life, turns=turns))


class LifeTurnsAsTurnCount(ProtocolHandler):
    """The ``life`` record's ``turns`` is written as the store's turn count after the turn."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        persisted = runtime.persisted
        assert persisted is not None
        counted = _CountedAsTurns(store, runtime.register_id)
        counted.life = persisted.life
        runtime.persisted = counted
