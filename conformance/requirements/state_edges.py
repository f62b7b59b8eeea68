"""Persisted state at the edges a port gets wrong: key length, key order, reopen, recovery."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.driver import Stores, load, put, scratch

STATE = ("state",)


def _recognizer(key: str, weight: int = 1) -> dict[str, Any]:
    return {"kind": "recognizer", "key": key, "pattern": "p", "weight": weight}


REFUSED = "STATE_BAD_MUTATION"
"""docs/state.md § Refusals: a malformed record refuses its batch with this code."""


KEY_LENGTHS = {
    "128 ASCII": ("x" * 128, True),
    "128 two-byte": ("\u00e9" * 128, True),
    "128 astral": ("\U0001f600" * 128, True),
    "64 astral and 64 ASCII": ("\U0001f600x" * 64, True),
    "129 ASCII": ("x" * 129, False),
    "129 astral": ("\U0001f600" * 129, False),
    "empty": ("", False),
    "delete: 1 ASCII (the record put)": ("k", True),
    "delete: 128 astral": ("\U0001f600" * 128, True),
    "delete: 64 astral and 64 ASCII": ("\U0001f600x" * 64, True),
    "delete: 129 ASCII": ("x" * 129, False),
    "delete: 129 two-byte": ("\u00e9" * 129, False),
    "delete: empty": ("", False),
}
"""Keys at the 128-character bound, counted in code points: an astral character counts once.
A name starting ``delete:`` sends the key in a delete (docs/state.md § Mutations: "its `key`
any string of 1 to 128 characters"), which then removes the record put under it."""


@requirement(
    "STATE-KEY-001",
    "a record key of 1 to 128 code points is stored (astral characters count once, not as "
    "two UTF-16 units); an empty key or one of 129 is refused; a delete's key too",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The persistent core (key: at most 128 characters); § Mutations",
    strategy=lambda ctx: st.sampled_from(sorted(KEY_LENGTHS)),
    cover=lambda ctx: Plan(
        tuple(Case(name, (("key lengths", name),)) for name in sorted(KEY_LENGTHS)),
        (("key lengths", len(KEY_LENGTHS)),),
    ),
)
def key_length_bound(engine: EngineClient, name: str) -> None:
    key, valid = KEY_LENGTHS[name]
    if name.startswith("delete:"):
        _delete_key_bound(engine, name, key, valid)
        return
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        try:
            engine.call("state.apply", {"store": store, "mutations": [put(_recognizer(key))]})
        except EngineRefused as refusal:
            assert not valid, f"key {name}: refused with {refusal.code}"
            assert refusal.code == REFUSED, f"key {name}: refused with {refusal.code}"
            return
        assert valid, f"key {name}: accepted"
        stores.close(store)
        want = oracle.identity(
            oracle.schema_of(engine.capabilities()), oracle.encode_core([_recognizer(key)])
        )
        assert load(engine, root)["identity"] == want, f"key {name}: stored differently"


def _delete_key_bound(engine: EngineClient, name: str, key: str, valid: bool) -> None:
    """A delete of *key* after a put of a record under a key of 1 character: a valid key is
    answered (deleting an absent record is a no-op), an invalid one refuses the batch."""
    kept = _recognizer("k")
    delete = {"op": "delete", "kind": "recognizer", "key": key}
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(kept)]})
        try:
            engine.call("state.apply", {"store": store, "mutations": [delete, {"op": "turn"}]})
        except EngineRefused as refusal:
            assert not valid, f"key {name}: refused with {refusal.code}"
            assert refusal.code == REFUSED, f"key {name}: refused with {refusal.code}"
            return
        assert valid, f"key {name}: accepted"
        left = [] if key == kept["key"] else [kept]
        schema = oracle.schema_of(engine.capabilities())
        identity = oracle.identity(schema, oracle.encode_core(left))
        digest = engine.call("state.digest", {"store": store})
        assert digest["identity"] == identity, f"key {name}: the delete left {digest}"


ORDER_KEYS = ("\ue000", "\U0001f600", "\uffff", "\U00010000", "a\ue000b", "a\U0001f600", "b")
"""Keys whose code point order differs from their UTF-16 code unit order."""


def _live_core(root: Path) -> bytes:
    return fmt.live_core(root)


@requirement(
    "STATE-SORT-001",
    "core.jsonl orders records by the UTF-8 bytes of (kind, key), which is code point order: "
    "a key holding U+E000..U+FFFF sorts before one holding an astral character there",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The persistent core; docs/spec.md § Canonical JSON (key order)",
    strategy=lambda ctx: st.permutations(ORDER_KEYS),
)
def astral_key_order(engine: EngineClient, keys: list[str]) -> None:
    rows = [_recognizer(key, i) for i, key in enumerate(keys)]
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(r) for r in rows]})
        stores.close(store)
        core, want = _live_core(root), oracle.encode_core(rows)
        assert core == want, f"core.jsonl is {core!r}, in code point order {want!r}"
        assert load(engine, root)["identity"] == oracle.identity(
            oracle.schema_of(engine.capabilities()), want
        )


@requirement(
    "STATE-REOPEN-001",
    "a reopened store holds exactly its last checkpoint: the same identity, generation and "
    "turn count, not dirty, so closing it again commits nothing",
    family="state",
    capabilities=STATE,
    seed="L10 brief § 4 (resume as the same life); docs/state.md § Identity and lineage",
    strategy=lambda ctx: st.tuples(st.integers(1, 5), st.integers(0, 4)).map(list),
)
def reopen_keeps_checkpoint(engine: EngineClient, scenario: list[int]) -> None:
    records, turns = scenario
    rows = [_recognizer(f"r{i}", i) for i in range(records)]
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        mutations = [put(r) for r in rows] + [{"op": "turn"}] * turns
        engine.call("state.apply", {"store": store, "mutations": mutations})
        done = engine.call("state.checkpoint", {"store": store})
        stores.close(store)
        reopened = stores.open(root)
        for name in ("identity", "generation", "turn_count"):
            assert reopened[name] == done[name], f"reopened {name} {reopened[name]!r}, saved {done}"
        assert reopened["turn_count"] == turns, (
            f"{turns} turns saved, {reopened['turn_count']} back"
        )
        assert reopened["dirty"] is False, "a store just reopened is dirty"
        closed = stores.close(reopened["store"])
        assert closed["generation"] == done["generation"], "closing an unchanged store committed"


@requirement(
    "STATE-RECOVER-001",
    "after a fallback, the lineage event of the open records why (recovered, as state.open "
    "reports it) and names the generation it resumed as parent",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Identity and lineage (recovered); § Recovery rules",
    strategy=lambda ctx: st.sampled_from((b"", b"garbage\n", b"gen-00000009\n")),
)
def recovery_is_recorded(engine: EngineClient, pointer: bytes) -> None:
    rows = [_recognizer("k", 1)]
    with scratch() as root, Stores(engine) as stores:
        oracle.write_generation(root, 1, oracle.encode_core(rows))
        (root / "CURRENT").write_bytes(pointer)
        opened = stores.open(root)
        assert opened.get("recovered"), f"pointer {pointer!r}: the open fell back silently"
        stores.close(opened["store"])
        events = engine.call("state.journal", {"dir": str(root), "name": "lineage"})["entries"]
        assert events, "the open appended no lineage event"
        event = events[-1]
        assert event.get("recovered") == opened["recovered"], (
            f"lineage recovered {event.get('recovered')!r}, the open said {opened['recovered']!r}"
        )
        want = oracle.identity(oracle.CURRENT_SCHEMA_VERSION, oracle.encode_core(rows))
        assert event.get("parent") == want, f"lineage parent {event.get('parent')!r}"


LOOKALIKE_KEYS = (
    "\u00e9",
    "e\u0301",
    "E\u0301",
    "K",
    "k",
    "\u212a",
    "\ufb01",
    "fi",
    "\uff21",
    "A",
    "a ",
    "a",
    "a\t",
    "a\x00",
    "r\x00a",
    "r\x00b",
    "\U0001f600",
    "\U0001f601",
    "k" * 127 + "a",
    "k" * 127 + "b",
    "\u00e9" * 127 + "a",
    "\u00e9" * 127 + "b",
)
"""Keys that one Unicode normalization (NFC, NFD, NFKC), case folding or trimming makes
equal, and keys a port's string type confuses: equal up to a NUL (a C string), equal in
their first UTF-16 unit (a surrogate pair's high half), equal in their first 127 code points
or 254 bytes (a buffer one short of 128 code points). Each is a key of its own, since a key
is the code points it holds."""


@requirement(
    "STATE-KEY-002",
    "record keys are compared as the code points they hold: keys equal under NFC, NFKC, case "
    "folding or trimming (é and e + U+0301, K, k and the Kelvin sign, ﬁ and fi, Ａ and A, "
    "'a ', a tab and a), up to a NUL, in a surrogate pair's first half or in their first 127 "
    "code points are distinct records stored as sent, and deleting one leaves the others",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The persistent core (a key is compared as its code points); "
    "docs/spec.md § Canonical JSON (no Unicode normalization)",
    max_examples=1,
)
def lookalike_keys(engine: EngineClient, _: object) -> None:
    rows = [_recognizer(key, i) for i, key in enumerate(LOOKALIKE_KEYS)]
    kept = [row for row in rows if row["key"] != "e\u0301"]
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(r) for r in rows]})
        engine.call("state.checkpoint", {"store": store})
        core, want = _live_core(root), oracle.encode_core(rows)
        assert core == want, (
            f"core.jsonl after putting keys {ascii(LOOKALIKE_KEYS)} is {core!r}, not "
            f"{want!r}: each key is its own code points, never normalised, folded or trimmed"
        )
        mutation = {"op": "delete", "kind": "recognizer", "key": "e\u0301"}
        engine.call("state.apply", {"store": store, "mutations": [mutation]})
        stores.close(store)
        core, want = _live_core(root), oracle.encode_core(kept)
        assert core == want, (
            f"deleting key 'e' + U+0301 left {core!r}, not {want!r}: it removes that key only"
        )
