"""Dirty is judged by the state, not by the mutations applied (docs/state.md § Commit
protocol: a store is dirty exactly when its in-memory identity or turn count is not its
last checkpoint's, the one loaded or last committed).

Each scenario starts from one of three last checkpoints: none (a fresh directory, whose
state is empty), one loaded (a directory another store committed), one this store committed.
It applies batches and reads ``dirty`` after each (the ``state.apply`` answer and
``state.digest``) against a model of the records and turns, then closes: the close commits
a new generation exactly when the last batch left the store dirty, and a clean fresh store
leaves its directory without a generation. A port with a dirty flag set by any batch and
cleared only by a commit answers ``true`` after a batch that changed nothing, and a port
that commits every store never committed before writes a generation nothing asked for.
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

SCENARIOS: dict[str, tuple[list[EncodableObject], ...]] = {
    "a record put as it was": ([PUT_ROW],),
    "a put and its delete in one batch": ([PUT_NEW, DELETE_NEW],),
    "a delete of an absent record": ([DELETE_ABSENT],),
    "an empty batch": ([],),
    "a put, then its delete": ([PUT_NEW], [DELETE_NEW]),
    "a turn": ([TURN],),
    "a new record": ([PUT_NEW],),
}
"""The batches each scenario applies, in order."""

STARTS = ("fresh", "loaded", "checkpointed")
"""The last checkpoint a scenario starts from: none, one loaded holding ``ROW``, one this
store committed holding ``ROW``."""
PAIRS = tuple(f"{start}: {name}" for start in STARTS for name in sorted(SCENARIOS))
"""Each start with each scenario, as ``start: scenario``."""

Model = tuple[frozenset[tuple[str, str, str]], int]


def _applied(model: Model, batch: list[EncodableObject]) -> Model:
    """The records (kind, key, canonical record) and turn count after *batch*."""
    records = {(kind, key): body for kind, key, body in model[0]}
    turns = model[1]
    for mutation in batch:
        if mutation["op"] == "turn":
            turns += 1
        elif mutation["op"] == "delete":
            records.pop((str(mutation["kind"]), str(mutation["key"])), None)
        else:
            record = mutation["record"]
            assert isinstance(record, dict)
            records[(str(record["kind"]), str(record["key"]))] = repr(sorted(record.items()))
    return frozenset((k, key, body) for (k, key), body in records.items()), turns


def _started(engine: EngineClient, stores: Stores, directory: Any, start: str) -> tuple[str, int]:
    """A store on *directory* at *start*; its id and its last checkpoint's generation."""
    if start == "loaded":
        earlier = stores.open(directory)["store"]
        engine.call("state.apply", {"store": earlier, "mutations": [PUT_ROW]})
        stores.close(earlier)
    store: str = stores.open(directory)["store"]
    if start != "checkpointed":
        return store, 1 if start == "loaded" else 0
    engine.call("state.apply", {"store": store, "mutations": [PUT_ROW]})
    return store, int(engine.call("state.checkpoint", {"store": store})["generation"])


@requirement(
    "STATE-DIRTY-601",
    "dirty says whether the in-memory identity or turn count differs from the last "
    "checkpoint's (none, one loaded, one committed), whatever the batches were: a record put "
    "as it was, a put and its delete, a delete of an absent record or an empty batch leave a "
    "store clean, a later batch that undoes an earlier one makes it clean again, and "
    "state.close of a clean store commits no generation, a fresh one included",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol (a store is dirty exactly when its identity or "
    "turn count is not its last checkpoint's, the one loaded or last committed); "
    "docs/protocol.md state.close commits only if dirty",
    strategy=lambda ctx: st.sampled_from(PAIRS),
    max_examples=len(PAIRS),
    cover=coverage.each("start and batches", PAIRS),
)
def dirty_is_the_state(engine: EngineClient, pair: str) -> None:
    start, _, name = pair.partition(": ")
    with scratch() as directory, Stores(engine) as stores:
        store, generation = _started(engine, stores, directory, start)
        base: Model = (
            (frozenset(), 0) if start == "fresh" else _applied((frozenset(), 0), [PUT_ROW])
        )
        model, dirty = base, False
        for batch in SCENARIOS[name]:
            model = _applied(model, batch)
            dirty = model != base
            answer = engine.call("state.apply", {"store": store, "mutations": batch})
            digest = engine.call("state.digest", {"store": store})
            got = (answer.get("dirty"), digest.get("dirty"))
            assert got == (dirty, dirty), (
                f"{pair}: after the batch {batch}, state.apply and state.digest answered "
                f"dirty {got}, not {dirty}"
            )
        closed = stores.close(store)
        want = generation + (1 if dirty else 0)
        assert closed["generation"] == want, (
            f"{pair}: state.close answered generation {closed['generation']} after a last "
            f"checkpoint of generation {generation}, the store {'dirty' if dirty else 'clean'}"
        )
        generations = sorted(p.name for p in directory.glob("gen-*"))
        expected = [f"gen-{want:08d}"] if want else []
        assert f"gen-{want + 1:08d}" not in generations and set(expected) <= set(generations), (
            f"{pair}: generations on disk {generations} after the close"
        )
        if not want:
            assert not generations and not (directory / "CURRENT").exists(), (
                f"{pair}: a clean fresh store's close left {generations} and CURRENT"
            )
