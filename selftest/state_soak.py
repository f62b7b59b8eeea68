"""The soak of ``state.soak`` over any open store, with the checkpointed turn as a step.

``soak`` runs the turns of ``reference.state.soak`` (the same mutations for the same
``(seed, iteration)``) on a store it is given; each turn is a function, so a broken
engine can change the order of checkpoint and acknowledgement and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable

from reference.state.soak import soak_mutations
from reference.state.store import StateStore

Emit = Callable[[dict], None]
Turn = Callable[[StateStore, list[dict], Emit], None]


def checkpointed_turn(store: StateStore, mutations: list[dict], emit: Emit) -> None:
    """Apply, announce ``begin``, checkpoint, and emit ``ack`` once the checkpoint is durable."""
    store.apply(mutations)
    begun = store.digest()["identity"]
    emit({"event": "begin", "generation": store.generation + 1, "identity": begun})
    info = store.checkpoint()
    emit({"event": "ack", "generation": info.generation, "identity": info.identity})


def soak(
    store: StateStore,
    *,
    iterations: int,
    seed: int,
    emit: Emit,
    turn: Turn = checkpointed_turn,
) -> dict:
    """Run *iterations* turns on *store*, close it, and return the last commit."""
    try:
        for iteration in range(iterations):
            turn(store, soak_mutations(seed, iteration), emit)
    finally:
        final = store.close()
    return {"iterations": iterations, "generation": final.generation, "identity": final.identity}
