"""Broken engines whose sessions on a store go wrong only from a starting state the suite once
left out (a store migrated from schema 1 to 3, a session opened with no turn yet, the end of
input with a session on the store or after a refused checkpoint): each is right from the
other starts. The first line of each docstring states the defect."""

from __future__ import annotations

import contextlib
from typing import Any

from reference.errors import EngineError
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.state import StateError, StateStore

LIFE_SCHEMA_VERSION = 4
"""The schema version that added the ``life`` and ``vault`` kinds (docs/state.md § The life)."""


class LifeOnlyFromSchema4(ProtocolHandler):
    """A session on a store migrated from schema version 1 to 3 finds no life: the port builds
    the life on the load path of a generation of version 4 or later (and for a fresh
    directory), not on the migration path, so ``session.open`` on a migrated store reads a
    life that is not there and fails (``ENGINE_INTERNAL``)."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        loaded = store.boot.from_version
        if loaded is not None and loaded < LIFE_SCHEMA_VERSION:
            raise TypeError("Cannot read properties of undefined (reading 'turns')")
        super().resume_life(runtime, store)


class SessionRecordAtOpen(ProtocolHandler):
    """``session.open`` on a store writes the ``session`` record naming its register, not
    the session's first turn: a fresh store closes to ``gen-00000001`` with no turn, and a
    store whose life was lived under another register commits a generation no turn made."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        record = {"kind": "session", "key": "session", "register_id": runtime.register_id}
        store.apply([{"op": "put", "record": record}])


class ShutdownEndsSessionsThroughClose(ProtocolHandler):
    """At the end of serving, each session living on a store is ended as the chat runtime's
    clean shutdown ends it (``ChatRuntime.close``: its store commits what changed and is
    closed); only the stores no session lives on are released without a commit."""

    def close(self) -> None:
        for session_id in list(self.lives.values()):
            runtime = self.sessions.pop(session_id, None)
            if runtime is not None:
                with contextlib.suppress(StateError):
                    runtime.close()
        self.lives = {}
        super().close()


class ShutdownSettlesRefusedCheckpoint(ProtocolHandler):
    """A store whose ``state.checkpoint`` was refused owes that commit, and the end of
    serving settles it: such a store is closed (committing what changed) rather than
    released; every other store is released without a commit."""

    def __init__(self) -> None:
        super().__init__()
        self.owed: set[str] = set()

    def op_state_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_state_checkpoint(args)
        except EngineError:
            if isinstance(args.get("store"), str):
                self.owed.add(args["store"])
            raise

    def close(self) -> None:
        for store_id in sorted(self.owed & set(self.stores)):
            with contextlib.suppress(StateError):
                self.stores.pop(store_id).close()
        super().close()
