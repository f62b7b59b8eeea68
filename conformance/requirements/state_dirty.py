"""Dirty is judged by the state, not by the mutations applied (docs/state.md § Commit
protocol: a store is dirty exactly when its in-memory identity or turn count is not its
last checkpoint's).

After a checkpoint, each scenario applies batches and reads ``dirty`` after each (the
``state.apply`` answer and ``state.digest``), then closes: the close commits a new
generation exactly when the last batch left the store dirty. A port with a dirty flag set
by any batch and cleared only by a commit answers ``true`` after a batch that changed
nothing, and its close commits a generation nothing asked for.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch

ROW: EncodableObject = {"kind": "recognizer", "key": "kept", "pattern": "p", "weight": 1}
NEW: EncodableObject = {"kind": "recognizer", "key": "new", "pattern": "q", "weight": 2}
PUT_ROW: EncodableObject = {"op": "put", "record": ROW}
PUT_NEW: EncodableObject = {"op": "put", "record": NEW}
DELETE_NEW: EncodableObject = {"op": "delete", "kind": "recognizer", "key": "new"}
DELETE_ABSENT: EncodableObject = {"op": "delete", "kind": "recognizer", "key": "absent"}
TURN: EncodableObject = {"op": "turn"}

SCENARIOS: dict[str, tuple[tuple[list[EncodableObject], bool], ...]] = {
    "a record put back as it was": (([PUT_ROW], False),),
    "a put and its delete in one batch": (([PUT_NEW, DELETE_NEW], False),),
    "a delete of an absent record": (([DELETE_ABSENT], False),),
    "an empty batch": (([], False),),
    "a put, then its delete": (([PUT_NEW], True), ([DELETE_NEW], False)),
    "a turn": (([TURN], True),),
    "a new record": (([PUT_NEW], True),),
}
"""After a checkpoint holding ``ROW``: the batches, each with the ``dirty`` it leaves."""


@requirement(
    "STATE-DIRTY-601",
    "dirty says whether the in-memory identity or turn count differs from the last "
    "checkpoint's, whatever the batches were: a record put back as it was, a put and its "
    "delete, a delete of an absent record or an empty batch leave a store clean, a later "
    "batch that undoes an earlier one makes it clean again, and state.close of a clean store "
    "commits no generation",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol (a store is dirty exactly when its identity or "
    "turn count is not its last checkpoint's); docs/protocol.md state.close commits only if dirty",
    strategy=lambda ctx: st.sampled_from(sorted(SCENARIOS)),
    max_examples=len(SCENARIOS),
    cover=coverage.each("batches", sorted(SCENARIOS)),
)
def dirty_is_the_state(engine: EngineClient, name: str) -> None:
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [PUT_ROW]})
        committed: dict[str, Any] = engine.call("state.checkpoint", {"store": store})
        dirty = False
        for batch, dirty in SCENARIOS[name]:
            answer = engine.call("state.apply", {"store": store, "mutations": batch})
            digest = engine.call("state.digest", {"store": store})
            got = (answer.get("dirty"), digest.get("dirty"))
            assert got == (dirty, dirty), (
                f"{name}: after the batch {batch}, state.apply and state.digest answered "
                f"dirty {got}, not {dirty}"
            )
        closed = stores.close(store)
        want = committed["generation"] + (1 if dirty else 0)
        assert closed["generation"] == want, (
            f"{name}: state.close answered generation {closed['generation']} after a "
            f"checkpoint of {committed['generation']}, the store {'dirty' if dirty else 'clean'}"
        )
        generations = sorted(p.name for p in directory.glob("gen-*"))
        assert f"gen-{want + 1:08d}" not in generations and f"gen-{want:08d}" in generations, (
            f"{name}: generations on disk {generations} after the close"
        )
