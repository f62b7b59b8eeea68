"""A deterministic soak: many turns, each checkpointed, announcing begin and ack.

Each iteration applies mutations derived from ``(seed, i)`` alone, emits ``begin`` with
the identity about to be committed, checkpoints, and emits ``ack`` only once the
checkpoint is durable. A harness that kills the process at any point can then check that
the directory loads to the last acknowledged identity or to the one begun after it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from reference.state.records import STATUSES, Record
from reference.state.store import StateStore

KEYS = 24


def _bytes(seed: int, iteration: int) -> bytes:
    return hashlib.sha256(f"soak/{seed}/{iteration}".encode("ascii")).digest()


def _recognizer(h: bytes) -> Record:
    record = {"kind": "recognizer", "key": f"r{h[0] % KEYS:02d}", "pattern": f"p{h[1]}"}
    return {**record, "weight": h[2] - 128, "label": f"l{h[3]}" if h[3] % 3 == 0 else ""}


def _candidate(h: bytes) -> Record:
    record = {"kind": "candidate", "key": f"c{h[4] % KEYS:02d}", "lemma": f"w{h[5]}"}
    status = STATUSES[h[6] % len(STATUSES)]
    return {**record, "score": h[7] * 3 - 300, "status": status, "evidence": h[8] % 4}


def _session(h: bytes) -> Record:
    register = None if h[10] % 2 else f"register-{h[11] % 4}"
    return {"kind": "session", "key": "session", "register_id": register}


def soak_mutations(seed: int, iteration: int) -> list[dict[str, Any]]:
    """The mutations of one soak iteration: a function of ``(seed, iteration)`` only."""
    h = _bytes(seed, iteration)
    mutations = [{"op": "put", "record": _recognizer(h)}, {"op": "put", "record": _candidate(h)}]
    if h[9] % 4 == 0:
        mutations.append({"op": "put", "record": _session(h)})
    if h[12] % 5 == 0:
        mutations.append({"op": "delete", "kind": "candidate", "key": f"c{h[13] % KEYS:02d}"})
    return [*mutations, {"op": "turn"}]


Emit = Callable[[dict[str, Any]], None]
Boundary = Callable[[], None]
Turn = Callable[[StateStore, list[dict[str, Any]], Emit], None]


def checkpointed_turn(store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
    """Apply, announce ``begin`` (the generation and identity the checkpoint will commit, a
    generation a crash left past ``CURRENT`` numbered past), checkpoint, and emit ``ack``
    once the checkpoint is durable."""
    store.apply(mutations)

    def begin(generation: int, identity: str) -> None:
        emit({"event": "begin", "generation": generation, "identity": identity})

    info = store.checkpoint(announce=begin)
    emit({"event": "ack", "generation": info.generation, "identity": info.identity})


def soak_store(
    store: StateStore,
    *,
    iterations: int,
    seed: int,
    emit: Emit,
    turn: Turn = checkpointed_turn,
    boundary: Boundary = lambda: None,
) -> dict[str, Any]:
    """Run *iterations* turns of *turn* on the open *store*, close it, return the last commit.

    *boundary* is called after each acknowledged turn; it raises to end the soak there (the
    stdio loop's raises when a SIGTERM or SIGINT is held, docs/state.md § Shutdown).
    """
    try:
        for iteration in range(iterations):
            turn(store, soak_mutations(seed, iteration), emit)
            boundary()
    finally:
        final = store.close()
    return {"iterations": iterations, "generation": final.generation, "identity": final.identity}
