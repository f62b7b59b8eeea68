"""Mutations of a writer's state: what put, delete and turn do, and a refused batch whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.driver import Stores, put, scratch

STATE = ("state",)
SPEC = "docs/state.md § Mutations; § Refusals"
Record = dict[str, Any]
Mutation = dict[str, Any]

few_keys = st.sampled_from(["a", "b", "c"])


def _optional(name: str, value: object) -> dict[str, object]:
    """An optional member: left out (``None``), or present with *value* (the default too)."""
    return {} if value is None else {name: value}


rows = st.one_of(
    st.builds(
        lambda key, weight, label: {
            "kind": "recognizer",
            "key": key,
            "pattern": "p",
            "weight": weight,
            **_optional("label", label),
        },
        few_keys,
        st.integers(0, 9),
        st.sampled_from([None, None, "", "tone"]),
    ),
    st.builds(
        lambda key, score, evidence: {
            "kind": "candidate",
            "key": key,
            "lemma": "l",
            "score": score,
            "status": "coherent",
            **_optional("evidence", evidence),
        },
        few_keys,
        st.integers(0, 9),
        st.sampled_from([None, None, 0, 3]),
    ),
    st.builds(
        lambda register: {"kind": "session", "key": "session", "register_id": register},
        st.sampled_from([None, "terse_v1"]),
    ),
)
deletes = st.builds(
    lambda kind, key: {"op": "delete", "kind": kind, "key": key},
    st.sampled_from(["recognizer", "candidate", "session"]),
    st.one_of(few_keys, st.just("session")),
)
mutations = st.one_of(rows.map(put), deletes, st.just({"op": "turn"}))


def _model(initial: list[Record], batch: list[Mutation]) -> tuple[list[Record], int]:
    """The records and turn count docs/state.md § Mutations gives after *batch*."""
    held = {(r["kind"], r["key"]): r for r in initial}
    turns = 0
    for mutation in batch:
        if mutation["op"] == "put":
            record = mutation["record"]
            held[(record["kind"], record["key"])] = record
        elif mutation["op"] == "delete":
            held.pop((mutation["kind"], mutation["key"]), None)
        else:
            turns += 1
    return list(held.values()), turns


def _core_bytes(directory: Path, generation: int) -> bytes:
    """The full core of the *generation* the engine reported (its core.jsonl, or its base's
    with its delta.jsonl applied): missing is a FAIL."""
    path = directory / f"gen-{generation:08d}"
    held = [name for name in ("core.jsonl", "delta.jsonl") if (path / name).is_file()]
    assert held, f"generation {generation}, as the engine reported it, has no core.jsonl"
    return fmt.generation_core(path)


RECOGNIZER = {"kind": "recognizer", "key": "a", "pattern": "p", "weight": 1}
CANDIDATE = {"kind": "candidate", "key": "b", "lemma": "l", "score": 2, "status": "coherent"}
APPLY_CASES: dict[str, list[list[Mutation]]] = {
    "delete a held record": [
        [put(RECOGNIZER)],
        [{"op": "delete", "kind": "recognizer", "key": "a"}],
    ],
    "delete an absent record": [
        [put(RECOGNIZER)],
        [{"op": "delete", "kind": "candidate", "key": "a"}],
    ],
    "put over a held record": [[put(CANDIDATE)], [put({**CANDIDATE, "score": 7})]],
    "put over a held record, leaving out the optional member it held": [
        [put({**RECOGNIZER, "label": "tone"}), put({**CANDIDATE, "evidence": 3})],
        [put(RECOGNIZER), put(CANDIDATE)],
    ],
    "put over a held record, adding an optional member": [
        [put(RECOGNIZER), put(CANDIDATE)],
        [put({**RECOGNIZER, "label": "tone"}), put({**CANDIDATE, "evidence": 3})],
    ],
    "delete then put again": [
        [put(RECOGNIZER), put(CANDIDATE)],
        [{"op": "delete", "kind": "candidate", "key": "b"}, {"op": "turn"}, put(CANDIDATE)],
    ],
    "turns only": [[], [{"op": "turn"}, {"op": "turn"}]],
    "integers at the canonical bounds and past 32 and 53 bits' halves": [
        [put({**RECOGNIZER, "weight": 2**53 - 1}), put({**CANDIDATE, "score": -(2**53 - 1)})],
        [
            put({**RECOGNIZER, "key": "c", "weight": 2**31}),
            put({**CANDIDATE, "key": "d", "score": -(2**31) - 1}),
            put({**RECOGNIZER, "key": "e", "weight": 2**32 + 1}),
        ],
    ],
}


def _apply_scenario(ctx: object) -> st.SearchStrategy[list[list[Mutation]]]:
    return st.tuples(
        st.lists(rows, max_size=6).map(lambda r: [put(x) for x in r]),
        st.lists(mutations, max_size=8),
    ).map(list)


@requirement(
    "STATE-APPLY-001",
    "put stores a record under (kind, key), replacing the one held (an optional member it "
    "leaves out is gone), delete removes one (an absent one is a no-op), turn counts one: "
    "the digest and the next checkpoint hold exactly the result, and "
    "state.apply answers {dirty} as the digest does",
    family="state",
    capabilities=STATE,
    seed=f"{SPEC}; docs/protocol.md § Persisted-state ops (state.apply)",
    strategy=_apply_scenario,
    cover=coverage.each("mutation batches", list(APPLY_CASES.values())),
)
def mutations_apply(engine: EngineClient, scenario: list[list[Mutation]]) -> None:
    first, batch = scenario
    initial, _ = _model([], first)
    want, turns = _model(initial, batch)
    core = oracle.encode_core(want)
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": first})
        answer = engine.call("state.apply", {"store": store, "mutations": batch})
        digest = engine.call("state.digest", {"store": store})
        assert answer == {"dirty": digest.get("dirty")}, (
            f"state.apply answered {answer}, not {{'dirty': {digest.get('dirty')}}} (the digest's)"
        )
        assert digest["identity"] == oracle.identity(
            oracle.schema_of(engine.capabilities()), core
        ), f"after {batch}: the identity is not that of {want}"
        assert digest["turn_count"] == turns, f"turn_count {digest['turn_count']}, not {turns}"
        done = engine.call("state.checkpoint", {"store": store})
        assert _core_bytes(directory, done["generation"]) == core, "core.jsonl is not the result"


RECORD_FAULTS: dict[str, tuple[object, str]] = {
    "record not an object": ([1], ""),
    "record of an unknown kind": ({"kind": "ghost", "key": "k"}, ".kind"),
    "record with an empty key": ({**RECOGNIZER, "key": ""}, ".key"),
    "record key of 129 characters": ({**RECOGNIZER, "key": "k" * 129}, ".key"),
    "record key not a string": ({**RECOGNIZER, "key": 7}, ".key"),
    "session record keyed otherwise": (
        {"kind": "session", "key": "other", "register_id": None},
        ".key",
    ),
    "record missing a field": ({"kind": "recognizer", "key": "k", "pattern": "p"}, ".weight"),
    "record with an unknown field": ({**RECOGNIZER, "colour": "red"}, ".colour"),
    "record field of the wrong type": ({**RECOGNIZER, "weight": "1"}, ".weight"),
    "record bool for an integer": ({**CANDIDATE, "score": True}, ".score"),
    "record float for an integer": ({**CANDIDATE, "score": 1.5}, ".score"),
    "record whole float for an integer": ({**CANDIDATE, "score": 1.0}, ".score"),
    "record negative zero float for an integer": ({**RECOGNIZER, "weight": -0.0}, ".weight"),
    "record status unknown": ({**CANDIDATE, "status": "maybe"}, ".status"),
}
BAD_MUTATIONS: dict[str, tuple[object, str]] = {
    "mutation not an object": (["turn"], ""),
    "unknown op": ({"op": "merge"}, ".op"),
    "op not a string": ({"op": 5}, ".op"),
    "unknown member": ({"op": "turn", "n": 2}, ".n"),
    "put without record": ({"op": "put"}, ".record"),
    "delete without key": ({"op": "delete", "kind": "candidate"}, ".key"),
    "delete of an unknown kind": ({"op": "delete", "kind": "ghost", "key": "k"}, ".kind"),
    "delete with an empty key": ({"op": "delete", "kind": "candidate", "key": ""}, ".key"),
    "delete key not a string": ({"op": "delete", "kind": "candidate", "key": 3}, ".key"),
    "delete key of 129 characters": (
        {"op": "delete", "kind": "candidate", "key": "\U0001f600" * 129},
        ".key",
    ),
    **{
        name: ({"op": "put", "record": record}, ".record" + path)
        for name, (record, path) in RECORD_FAULTS.items()
    },
}


def _names_field(refusal: EngineRefused, field: str, what: str) -> None:
    """``field`` is *field*, and the message names its last component (without an index)."""
    assert refusal.field == field, f"{what}: refusal field {refusal.field!r}, expected {field!r}"
    name = field.rsplit(".", 1)[-1].split("[", 1)[0]
    assert name in refusal.message, f"{what}: message {refusal.message!r} omits {name!r}"


def _refusal_scenario(ctx: object) -> st.SearchStrategy[list[Any]]:
    return st.tuples(
        st.sampled_from(sorted(BAD_MUTATIONS)),
        st.lists(rows, max_size=4),
        st.integers(0, 3),
        st.lists(mutations, max_size=3),
        st.lists(mutations, max_size=3),
    ).map(list)


@requirement(
    "STATE-APPLY-002",
    "a batch holding one bad mutation is refused whole with STATE_BAD_MUTATION naming the "
    "offending member (mutations[i]...), and changes neither the digest nor the next "
    "checkpoint, also after an accepted batch of turns: the turn count and identity stay "
    "those of before the refused batch, not the last checkpoint's",
    family="state",
    capabilities=STATE,
    seed=f"{SPEC}; docs/protocol.md § Persisted-state ops (all or nothing)",
    strategy=_refusal_scenario,
    cover=coverage.each(
        "bad mutations",
        [[name, [RECOGNIZER], 1, [{"op": "turn"}], []] for name in BAD_MUTATIONS],
    ),
)
def refused_batch_whole(engine: EngineClient, scenario: list[Any]) -> None:
    """docs/state.md § Mutations: "a refused batch changes nothing, so the in-memory state
    (`state.digest`) and the next checkpoint are as before the batch". The accepted batch
    before it holds *turns* ``turn`` mutations besides its puts, so the state before the
    refused batch is not the last checkpoint's (none yet): its turn count is *turns*."""
    name, held, turns, before, after = scenario
    bad, path = BAD_MUTATIONS[name]
    batch = [*before, bad, *after]
    field = f"mutations[{len(before)}]{path}"
    accepted = [put(r) for r in held] + [{"op": "turn"}] * turns
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": accepted})
        was = engine.call("state.digest", {"store": store})
        assert was["turn_count"] == turns, (
            f"{name}: after an accepted batch of {turns} turns the turn count is "
            f"{was['turn_count']}"
        )
        try:
            # the batch is malformed on purpose: --strict must not refuse it for the engine
            engine.call("state.apply", {"store": store, "mutations": batch}, checked=False)
        except EngineRefused as refusal:
            now = engine.call("state.digest", {"store": store})
            assert now["turn_count"] == turns, (
                f"{name}: the refused batch changed the turn count from {turns} to "
                f"{now['turn_count']}: a refused batch changes nothing (docs/state.md § "
                "Mutations), not even back to the last checkpoint's"
            )
            assert now == was, f"{name}: the refused batch changed the state: {was} -> {now}"
            assert refusal.code == "STATE_BAD_MUTATION", f"{name}: refused with {refusal.code}"
            _names_field(refusal, field, name)
        else:
            raise AssertionError(f"{name}: the batch {batch} was applied")
        done = engine.call("state.checkpoint", {"store": store})
        assert (done["identity"], done["turn_count"]) == (was["identity"], turns), (
            f"{name}: the checkpoint after a refused batch committed identity and turn count "
            f"{done['identity']}, {done['turn_count']}, not those before the batch "
            f"{was['identity']}, {turns}"
        )
        manifest = fmt.read_manifest(
            (directory / f"gen-{done['generation']:08d}" / "manifest.json").read_bytes()
        )
        assert manifest["turn_count"] == turns, (
            f"{name}: the checkpoint after a refused batch holds turn_count "
            f"{manifest['turn_count']}, not {turns}"
        )
        want = oracle.encode_core(_model([], accepted)[0])
        assert _core_bytes(directory, done["generation"]) == want, (
            f"{name}: the checkpoint after a refused batch holds part of it"
        )
