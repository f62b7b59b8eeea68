"""Dirty is judged by the state, not by the mutations applied (docs/state.md § Commit
protocol: a store is dirty exactly when its in-memory identity or turn count is not its
last checkpoint's, the one loaded or last committed).

Each scenario starts from one of four last checkpoints: none (a fresh directory, whose
state is empty), one loaded (a directory another store committed), one this store committed,
and one loaded by falling back (docs/state.md § Recovery rules 3: ``CURRENT`` names a
generation proven invalid, the loader "falls back to the newest valid generation", which is
then the one loaded; ``recovered`` is non-null). It applies batches and reads ``dirty`` after
each (the ``state.apply`` answer and ``state.digest``) against a model of the records and
turns, then closes: the close commits a new generation (``CURRENT`` naming it) exactly when
the last batch left the store dirty, and the close of a clean store leaves the generations
on disk and ``CURRENT`` as they were ("`state.close` of a clean store never commits"): a
clean fresh store leaves its directory without a generation, and a clean store that fell
back leaves ``CURRENT`` naming the invalid generation it fell back from. A port with a dirty
flag set by any batch and cleared only by a commit answers ``true`` after a batch that
changed nothing, a port that commits every store never committed before writes a generation
nothing asked for, and a port that takes a fall back for a change to commit "heals"
``CURRENT`` with a generation whose identity and turn count are those loaded.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state import oracle
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

STARTS = ("fresh", "loaded", "checkpointed", "recovered")
"""The last checkpoint a scenario starts from: none, one loaded holding ``ROW``, one this
store committed holding ``ROW``, one holding ``ROW`` loaded by falling back from the
generation ``CURRENT`` names (torn, so proven invalid)."""
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


def _fell_back(engine: EngineClient, stores: Stores, directory: Any) -> str:
    """A store on *directory* that fell back: ``gen-00000001`` holds ``ROW`` (turn count
    0), and ``CURRENT`` names ``gen-00000002`` (``ROW``, ``NEW``, turn count 1) whose
    ``core.jsonl`` lost its last byte, so its SHA-256 does not match (proven invalid,
    recovery rule 4). Both are written at the engine's current schema version, so only the
    fall back, never a migration, sets the store apart from a loaded one."""
    version = oracle.schema_of(engine.capabilities())
    oracle.write_generation(directory, 1, oracle.encode_core([dict(ROW)]), version)
    oracle.write_generation(directory, 2, oracle.encode_core([dict(ROW), dict(NEW)]), version, 1)
    core = directory / "gen-00000002" / "core.jsonl"
    core.write_bytes(core.read_bytes()[:-1])
    opened = stores.open(directory)
    assert opened.get("recovered") and opened.get("generation") == 1, (
        "CURRENT naming a torn gen-00000002 beside a valid gen-00000001: state.open answered "
        f"recovered {opened.get('recovered')!r}, generation {opened.get('generation')!r}, not "
        "a fall back to generation 1"
    )
    store: str = opened["store"]
    return store


def _started(
    engine: EngineClient, stores: Stores, directory: Any, start: str
) -> tuple[str, int, int]:
    """A store on *directory* at *start*: its id, its last checkpoint's generation, and the
    generation its next commit takes (past every ``gen-*`` on disk, commit step 2)."""
    if start == "recovered":
        return _fell_back(engine, stores, directory), 1, 3
    if start == "loaded":
        earlier = stores.open(directory)["store"]
        engine.call("state.apply", {"store": earlier, "mutations": [PUT_ROW]})
        stores.close(earlier)
    store: str = stores.open(directory)["store"]
    if start != "checkpointed":
        generation = 1 if start == "loaded" else 0
        return store, generation, generation + 1
    engine.call("state.apply", {"store": store, "mutations": [PUT_ROW]})
    generation = int(engine.call("state.checkpoint", {"store": store})["generation"])
    return store, generation, generation + 1


def _on_disk(directory: Any) -> tuple[list[str], bytes | None]:
    """The ``gen-*`` names on disk and the bytes of ``CURRENT`` (None: missing)."""
    pointer = directory / "CURRENT"
    current = pointer.read_bytes() if pointer.exists() else None
    return sorted(p.name for p in directory.glob("gen-*")), current


@requirement(
    "STATE-DIRTY-601",
    "dirty says whether the in-memory identity or turn count differs from the last "
    "checkpoint's (none, one loaded, one committed, one loaded by falling back from the "
    "invalid generation CURRENT names), whatever the batches were: a record put as it was, a "
    "put and its delete, a delete of an absent record or an empty batch leave a store clean, "
    "a later batch that undoes an earlier one makes it clean again, and state.close of a "
    "clean store commits no generation and leaves CURRENT as it was, a fresh one and one "
    "that fell back included, while that of a dirty one commits the next generation",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol (a store is dirty exactly when its identity or "
    "turn count is not its last checkpoint's, the one loaded or last committed; state.close "
    "of a clean store never commits); § Recovery rules 3 (CURRENT naming a generation proven "
    "invalid: the loader falls back to the newest valid generation, the one loaded); "
    "docs/protocol.md state.close commits only if dirty",
    strategy=lambda ctx: st.sampled_from(PAIRS),
    max_examples=len(PAIRS),
    cover=coverage.each("start and batches", PAIRS),
)
def dirty_is_the_state(engine: EngineClient, pair: str) -> None:
    start, _, name = pair.partition(": ")
    with scratch() as directory, Stores(engine) as stores:
        store, generation, following = _started(engine, stores, directory, start)
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
        before = _on_disk(directory)
        closed = stores.close(store)
        want = following if dirty else generation
        assert closed["generation"] == want, (
            f"{pair}: state.close answered generation {closed['generation']} after a last "
            f"checkpoint of generation {generation}, the store {'dirty' if dirty else 'clean'}"
        )
        generations, current = _on_disk(directory)
        if dirty:
            assert (
                current == f"gen-{want:08d}\n".encode()
                and f"gen-{want:08d}" in generations
                and f"gen-{want + 1:08d}" not in generations
            ), f"{pair}: the close of a dirty store left {generations} and CURRENT {current!r}"
        else:
            assert (generations, current) == before, (
                f"{pair}: the close of a clean store (generation {generation}) changed the "
                f"generations on disk from {before[0]} to {generations} and CURRENT from "
                f"{before[1]!r} to {current!r}"
            )
        if not want:
            assert not generations and current is None, (
                f"{pair}: a clean fresh store's close left {generations} and CURRENT"
            )
