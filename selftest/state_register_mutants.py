"""Broken engines of a session on a store and its register (docs/protocol.md § Sessions on
a store): the life resumed under the register the store's ``session`` record names, that
record kept from the earlier session (``STATE-LIFE-601``), and the store claimed before the
register loads (``STATE-LIFE-102``).
"""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler

SESSION_KEY = ("session", "session")


class RegisterFromSessionRecord(ProtocolHandler):
    """A session opened on a store takes the register its `session` record names, not the
    one it was opened with."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        store_id = args.get("store")
        if isinstance(store_id, str) and store_id in self.stores:
            found = self.stores[store_id].records.get(SESSION_KEY)
            if found is not None:
                args = {**args, "register_id": found["register_id"]}
        return super().op_session_open(args)


class SessionRecordKept(ProtocolHandler):
    """A session resumed on a store keeps the ``session`` record the store holds (the
    register of the life's earlier session) instead of one naming its own register."""

    def resume_life(self, runtime: Any, store: Any) -> None:
        super().resume_life(runtime, store)
        found = store.records.get(SESSION_KEY)
        if found is not None and runtime.persisted is not None:
            runtime.persisted.session_record = dict(found)


class StoreClaimedBeforeRegister(ProtocolHandler):
    """``session.open`` claims the store for the new session before it loads the register,
    so an open the register refuses leaves the store held by a session that never opened."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        store_id = args.get("store")
        free = isinstance(store_id, str) and store_id in self.stores and store_id not in self.lives
        if free and "register_id" in args:
            try:
                self.new_runtime(args["register_id"], ())
            except Exception:
                self.lives[store_id] = f"s{len(self.sessions) + 1}"
                raise
        return super().op_session_open(args)
