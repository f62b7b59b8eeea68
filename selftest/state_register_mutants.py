"""A broken engine that resumes a store's life under the register the store's ``session``
record names instead of the one ``session.open`` asks for (docs/protocol.md § Sessions on
a store). ``STATE-LIFE-601`` fails on it.
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
