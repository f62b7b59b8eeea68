"""Conformant persisted-state engines that take paths a requirement must not mistake for
defects. Each is the reference ``ProtocolHandler`` with a state hook replaced by another
behaviour docs/state.md allows; each must pass the requirements named in its docstring.
"""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.state.layout import staging_name
from reference.state.soak import Emit, checkpointed_turn


def leave_generation_past_current(store: StateStore) -> None:
    """Leave what a commit that crashed between steps 4 and 5 leaves: a valid generation
    numbered past the live one, which ``CURRENT`` does not name."""
    number = store.next_generation()
    store.stage(number, store.encode(store.records.values()))
    store.publish(store.path / staging_name(number), number)


class PastLeftoverSoak(ProtocolHandler):
    """Before every other soak checkpoint, leaves a valid generation past ``CURRENT`` (as a
    crashed commit would), so the checkpoint numbers past it: begin and ack name a
    generation two past the last. STATE-KILL-001 must pass."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        if store.generation % 2 == 0:
            leave_generation_past_current(store)
        checkpointed_turn(store, mutations, emit)
