"""Persisted engine state: schema tolerance, byte-stable ordering, lineage, journals, locks."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import cases, coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.driver import (
    Stores,
    copy_fixture,
    expected_fixtures,
    fixture_names,
    load,
    put,
    scratch,
)

BRIEF = "L10 brief"
STATE = ("state",)
keys = st.text("abcdefghij", min_size=1, max_size=4)
recognizers = st.builds(
    lambda key, pattern, weight, label: {
        "kind": "recognizer",
        "key": key,
        "pattern": pattern,
        "weight": weight,
        **({"label": label} if label else {}),
    },
    keys,
    st.text(max_size=12),
    st.integers(-5, 10**6),
    st.sampled_from(["", "", "tone"]),
)
candidates = st.builds(
    lambda key, lemma, score, status, evidence: {
        "kind": "candidate",
        "key": key,
        "lemma": lemma,
        "score": score,
        "status": status,
        **({"evidence": evidence} if evidence is not None else {}),
    },
    keys,
    st.text(min_size=1, max_size=10),
    st.integers(0, 1000),
    st.sampled_from(["speculative", "coherent", "rejected"]),
    st.one_of(st.none(), st.integers(0, 9)),
)
sessions = st.builds(
    lambda register: {"kind": "session", "key": "session", "register_id": register},
    st.one_of(st.none(), st.sampled_from(["terse_v1", "convivial_v1"])),
)
records = st.lists(st.one_of(recognizers, candidates, sessions), max_size=12)


def _unique(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list({(r["kind"], r["key"]): r for r in rows}.values())


def _generation_dir(directory: Path, result: dict[str, Any]) -> Path:
    """The directory of the generation a checkpoint or open answered: missing is a FAIL."""
    generation = result["generation"]
    path = directory / f"gen-{generation:08d}"
    assert path.is_dir(), f"generation {generation}, as the engine reported it, is not on disk"
    return path


def _core_bytes(directory: Path, generation: int) -> bytes:
    """The full core of the *generation* the engine reported (its core.jsonl, or its base's
    with its delta.jsonl applied): missing is a FAIL."""
    path = directory / f"gen-{generation:08d}"
    held = [name for name in ("core.jsonl", "delta.jsonl") if (path / name).is_file()]
    assert held, f"generation {generation}, as the engine reported it, has no core.jsonl"
    return fmt.generation_core(path)


def _commit(stores: Stores, directory: Path, rows: list[dict[str, Any]]) -> dict[str, Any]:
    store = stores.open(directory)["store"]
    stores.engine.call("state.apply", {"store": store, "mutations": [put(r) for r in rows]})
    done = stores.engine.call("state.checkpoint", {"store": store})
    stores.close(store)
    return done


@requirement(
    "STATE-SCHEMA-001",
    "every shipped fixture (each past schema version, future, missing and malformed "
    "versions, bad pointers, out-of-order, duplicated and non-JSON records, a lone "
    "surrogate) loads or is refused exactly as expected",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § Step 2 ruling (tolerate version <= current, refuse newer)",
)
def schema_matrix(engine: EngineClient, _: object) -> None:
    expected = expected_fixtures()
    with scratch() as root:
        for name in fixture_names():
            want = expected[name]
            try:
                got = load(engine, copy_fixture(name, root))
            except EngineRefused as refusal:
                code = want.get("error")
                if want.get("capability", "state") not in engine.capabilities():
                    code = "STATE_SCHEMA_TOO_NEW"
                assert code, f"fixture {name}: refused {refusal.code}, expected {want}"
                assert refusal.code == code, f"fixture {name}: {refusal.code}, not {code}"
                continue
            assert "error" not in want, f"fixture {name}: loaded, expected {want['error']}"
            if want.get("capability", "state") not in engine.capabilities():
                raise AssertionError(f"fixture {name}: loaded without {want['capability']}")
            for key in ("identity", "generation", "turn_count", "schema_version"):
                assert got[key] == want[key], f"fixture {name}: {key} {got[key]!r} != {want[key]!r}"
            recovered = got.get("recovered")
            if want.get("recovered"):
                assert isinstance(recovered, str) and recovered, f"{name}: recovered {recovered!r}"
            else:
                assert recovered is None, f"{name}: recovered {recovered!r}, expected null"
            assert not got.get("fresh"), f"fixture {name} loaded as a fresh state"


VERSION_EDGES: list[tuple[object, str]] = [
    (2**53 - 1, "STATE_SCHEMA_TOO_NEW"),
    (2**53, "STATE_SCHEMA_MALFORMED"),
    (2**53 + 1, "STATE_SCHEMA_MALFORMED"),
    (True, "STATE_SCHEMA_MALFORMED"),
    (False, "STATE_SCHEMA_MALFORMED"),
    (0, "STATE_SCHEMA_MALFORMED"),
    (-1, "STATE_SCHEMA_MALFORMED"),
]
"""The edges of "an integer from 1 to 2^53 - 1": the largest is an integer (newer, not
malformed), one past it is not; a boolean is not an integer."""

BAD_VERSIONS = st.one_of(
    st.sampled_from(VERSION_EDGES),
    st.integers(oracle.DELTA_SCHEMA_VERSION + 1, 10**6).map(lambda v: (v, "STATE_SCHEMA_TOO_NEW")),
    st.integers(-(10**6), 0).map(lambda v: (v, "STATE_SCHEMA_MALFORMED")),
    st.sampled_from(
        [
            ("3", "STATE_SCHEMA_MALFORMED"),
            (3.0, "STATE_SCHEMA_MALFORMED"),
            (None, "STATE_SCHEMA_MALFORMED"),
            ([3], "STATE_SCHEMA_MALFORMED"),
        ]
    ),
)


@requirement(
    "STATE-SCHEMA-002",
    "a newer, missing or malformed schema version is refused by load and open with its code "
    "and field schema_version (at the edges: 2^53 - 1 newer, 2^53 and a boolean malformed), "
    "never a fresh start, and the refused open changes nothing",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § Step 2 ruling (REFUSE version > current; never silently mis-load)",
    strategy=lambda ctx: st.tuples(records, BAD_VERSIONS).map(list),
    cover=coverage.each("schema version edges", [[[], list(edge)] for edge in VERSION_EDGES]),
)
def schema_refusals(engine: EngineClient, scenario: list[Any]) -> None:
    from conformance.state.crashstates import snapshot

    rows, (version, code) = scenario
    with scratch() as directory:
        oracle.write_generation(directory, 1, oracle.encode_core(rows), version)
        before = snapshot(directory)
        for op in LOADS:
            refusal = _refusal_of(engine, op, {"dir": str(directory)})
            what = f"{op} of schema_version {version!r}"
            assert refusal is not None, f"{what}: loaded"
            assert refusal.code == code, f"{what}: {refusal.code}, not {code}"
            assert refusal.field == "schema_version", f"{what}: field {refusal.field!r}"
            assert "schema_version" in refusal.message, f"{what}: message {refusal.message!r}"
        changed = [p for p in _changed(before, snapshot(directory)) if p != "LOCK"]
        assert not changed, f"a refused open of schema_version {version!r} changed {changed}"


def _refusal_of(engine: EngineClient, op: str, args: EncodableObject) -> EngineRefused | None:
    """The refusal of *op*, or None when it succeeds (a store it opened is closed)."""
    try:
        answer = engine.call(op, args)
    except EngineRefused as refusal:
        return refusal
    if op == "state.open":
        engine.call("state.close", {"store": answer["store"]})
    return None


@requirement(
    "STATE-POINTER-001",
    "a garbage, empty or dangling pointer falls back to the newest valid generation, past "
    "invalid newer ones, and says so; with no valid generation the load fails "
    "(STATE_CORRUPT), never a fresh life",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § M4 (power loss is the common case)",
    strategy=lambda ctx: st.tuples(
        records,
        records,
        st.one_of(st.binary(max_size=40), st.just(b""), st.just(b"gen-00000009\n")),
    ).map(list),
)
def pointer_fallback(engine: EngineClient, scenario: list[Any]) -> None:
    older, newer, pointer = scenario
    with scratch() as directory:
        oracle.write_generation(directory, 1, oracle.encode_core(older))
        oracle.write_generation(directory, 2, oracle.encode_core(newer), point=False)
        if pointer in (b"gen-00000001\n", b"gen-00000002\n"):
            return
        (directory / "CURRENT").write_bytes(pointer)
        got = load(engine, directory)
        assert got["generation"] == 2, f"pointer {pointer!r}: loaded generation {got['generation']}"
        assert got["identity"] == oracle.identity(3, oracle.encode_core(newer))
        assert got.get("recovered"), f"pointer {pointer!r}: fell back without saying so"
        (directory / "gen-00000002" / "core.jsonl").write_bytes(b"torn")
        got = load(engine, directory)
        assert got["generation"] == 1, f"newest generation invalid: loaded {got['generation']}"
        assert got["identity"] == oracle.identity(3, oracle.encode_core(older))
        assert got.get("recovered"), f"pointer {pointer!r}: fell back to 1 without saying so"
        for gen in ("gen-00000001", "gen-00000002"):
            (directory / gen / "core.jsonl").write_bytes(b"torn")
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            assert refusal.code == "STATE_CORRUPT", f"no valid generation: {refusal.code}"
            return
        raise AssertionError(f"no valid generation, yet it loaded {got}")


@requirement(
    "STATE-ORDER-001",
    "any insertion order of the same records gives byte-identical core.jsonl, equal to the "
    "normative encoding, and the normative identity",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § 4 (byte-stable incl. deterministic line ordering)",
    strategy=lambda ctx: st.tuples(records, st.integers(0, 2**32)).map(list),
)
def byte_stable_ordering(engine: EngineClient, scenario: list[Any]) -> None:
    rows, shuffle_seed = scenario
    rows = _unique(rows)
    shuffled = rows[:]
    random.Random(shuffle_seed).shuffle(shuffled)
    expected = oracle.encode_core(rows)
    with scratch() as root, Stores(engine) as stores:
        for name, order in (("a", rows), ("b", shuffled), ("c", rows[::-1])):
            (root / name).mkdir()
            done = _commit(stores, root / name, order)
            assert _core_bytes(root / name, done["generation"]) == expected, f"order {name}"
            assert done["identity"] == oracle.identity(
                oracle.schema_of(engine.capabilities()), expected
            ), f"identity, order {name}"


@requirement(
    "STATE-ORDER-002",
    "save, load, save is the identity: a reopened store checkpoints the same bytes",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § 1 (byte-identity round trip)",
    strategy=lambda ctx: records,
)
def save_load_save(engine: EngineClient, rows: list[dict[str, Any]]) -> None:
    with scratch() as directory, Stores(engine) as stores:
        first = _commit(stores, directory, rows)
        store = stores.open(directory)["store"]
        second = engine.call("state.checkpoint", {"store": store})
        stores.close(store)
        assert second["identity"] == first["identity"], "identity changed after a reload"
        assert second["generation"] == first["generation"] + 1, (
            f"a checkpoint after the reopen answered generation {second['generation']}, not "
            f"{first['generation'] + 1}, one past the generation the reopen loaded"
        )
        assert _core_bytes(directory, second["generation"]) == _core_bytes(
            directory, first["generation"]
        ), "core.jsonl bytes changed after a reload"


@requirement(
    "STATE-ORDER-003",
    "additive-optional fields are omitted when default (bytes equal to the older encoding) "
    "and round trip when set",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § Step 2 ruling (omitted-when-default, byte-equality with older encodings)",
    strategy=lambda ctx: records,
)
def additive_optional(engine: EngineClient, rows: list[dict[str, Any]]) -> None:
    defaults = [{**r, **oracle.OPTIONAL_DEFAULTS.get(r["kind"], {})} for r in _unique(rows)]
    with scratch() as directory, Stores(engine) as stores:
        done = _commit(stores, directory, defaults)
        core = _core_bytes(directory, done["generation"])
        assert core == oracle.encode_core(defaults), "default-valued optional fields were written"
        assert b'"label":""' not in core and b'"evidence":0' not in core
        reopened = stores.open(directory)
        assert reopened["identity"] == done["identity"], "defaults did not round trip"


@requirement(
    "STATE-LINEAGE-001",
    "identity hashes schema version and core bytes; every boot appends a lineage event "
    "(fresh, resume, schema_migration) naming its parent, the identity state.open answered, "
    "its index and the schema versions it read and writes",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § 4 (lineage-chain identity); § Step 2 ruling (migration is a lineage event)",
)
def lineage(engine: EngineClient, _: object) -> None:
    with scratch() as root, Stores(engine) as stores:
        fresh = stores.open(root / "life")
        assert fresh["reason"] == "fresh", f"first boot reason {fresh['reason']!r}"
        assert fresh["parent"] is None, f"a fresh boot names a parent {fresh['parent']!r}"
        engine.call(
            "state.apply",
            {
                "store": fresh["store"],
                "mutations": [put({"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1})],
            },
        )
        done = engine.call("state.checkpoint", {"store": fresh["store"]})
        core = _core_bytes(root / "life", done["generation"])
        assert done["identity"] == oracle.identity(oracle.schema_of(engine.capabilities()), core), (
            "identity is not the spec's formula"
        )
        stores.close(fresh["store"])
        resumed = stores.open(root / "life")
        assert resumed["reason"] == "resume", f"second boot reason {resumed['reason']!r}"
        assert resumed["parent"] == done["identity"], f"resume parent {resumed['parent']!r}"
        stores.close(resumed["store"])
        migrated = stores.open(copy_fixture("v1", root))
        assert migrated["reason"] == "schema_migration", f"v1 boot: {migrated['reason']!r}"
        stores.close(migrated["store"])
        events = _lineage(engine, root / "life")
        assert [e["reason"] for e in events] == ["fresh", "resume"], f"lineage {events}"
        assert events[1]["parent"] == done["identity"], f"lineage parent {events[1]['parent']!r}"
        versions = [(e["boot"], e["from_version"], e["to_version"]) for e in events]
        now = oracle.schema_of(engine.capabilities())
        assert versions == [(1, None, now), (2, now, now)], (
            f"(boot, from, to) of fresh, resume: {versions}"
        )
        last = _lineage(engine, root / "v1")[-1]
        moved = (last["reason"], last["from_version"], last["to_version"])
        assert moved == ("schema_migration", 1, now), f"(reason, from, to) of a migration: {moved}"
        opened = [fresh["identity"], resumed["identity"], migrated["identity"]]
        recorded = [e["identity"] for e in events] + [last["identity"]]
        assert recorded == opened, (
            f"the boot events' identities {recorded} are not what state.open answered {opened}"
        )


def _lineage(engine: EngineClient, directory: Path) -> list[dict[str, Any]]:
    args: EncodableObject = {"dir": str(directory), "name": "lineage", "repair": False}
    entries: list[dict[str, Any]] = engine.call("state.journal", args)["entries"]
    return entries


LARGE_CORE_RECORDS = 1200
"""Enough recognizers for a core.jsonl of more than 64 KiB, past a single read buffer."""


@requirement(
    "STATE-SIZE-001",
    "a core.jsonl larger than 64 KiB loads whole: its identity, its record count, and a "
    "checkpoint of it byte-identical to it",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The persistent core; § Identity and lineage",
    strategy=lambda ctx: st.integers(0, 10**6),
    max_examples=2,
)
def large_core_loads(engine: EngineClient, salt: int) -> None:
    rows = [
        {"kind": "recognizer", "key": f"r{i:05d}", "pattern": f"{salt}-{'p' * 40}", "weight": i}
        for i in range(LARGE_CORE_RECORDS)
    ]
    core = oracle.encode_core(rows)
    assert len(core) > 1 << 16
    with scratch() as directory, Stores(engine) as stores:
        oracle.write_generation(directory, 1, core)
        got = load(engine, directory)
        assert got["identity"] == oracle.identity(3, core), "a large core loads another identity"
        assert got["records"] == len(rows), f"{got['records']} records of {len(rows)}"
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [{"op": "turn"}]})
        done = engine.call("state.checkpoint", {"store": store})
        assert _core_bytes(directory, done["generation"]) == core, "a large core changed bytes"


@requirement(
    "STATE-SHUTDOWN-001",
    "a clean shutdown's checkpoint is byte-identical to the last per-turn checkpoint",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § 1 (graceful-shutdown checkpoint byte-identical: kill-9 = clean exit)",
    strategy=lambda ctx: records,
)
def clean_shutdown(engine: EngineClient, rows: list[dict[str, Any]]) -> None:
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(r) for r in rows]})
        last = engine.call("state.checkpoint", {"store": store})
        before = {p.name: p.read_bytes() for p in _generation_dir(directory, last).iterdir()}
        closed = stores.close(store)
        assert closed["identity"] == last["identity"]
        after = load(engine, directory)
        gen = _generation_dir(directory, after)
        assert {p.name: p.read_bytes() for p in gen.iterdir()} == before, "shutdown changed bytes"


LIVE_MODES = (0o600, 0o640, 0o644, 0o444)
"""Modes given to the live generation's files, one each."""

MODE_STARTS = ("reopened", "fallen back")
"""Where the live generation L comes from: the one ``CURRENT`` names at the reopen, or the
one the open fell back to, older than the generation ``CURRENT`` names (proven invalid, its
files given other modes)."""

SESSION_ROW = {"kind": "session", "key": "session", "register_id": None}


def _give_modes(generation: Path, modes: list[int], shift: int) -> dict[str, int]:
    """Give each file of *generation* a mode of *modes* (sorted by name, from *shift* on)."""
    given = {}
    for index, path in enumerate(sorted(generation.iterdir())):
        given[path.name] = modes[(index + shift) % len(modes)]
        os.chmod(path, given[path.name])
    return given


def _checkpoint_fallen_back(
    stores: Stores, directory: Path, modes: list[int]
) -> tuple[dict[str, Any], dict[str, int]]:
    """Generation 1 (the engine's) given *modes*; a generation 2 that ``CURRENT`` names,
    proven invalid (its core cut short of its manifest's hash), its files given other
    modes; the open falls back to 1, then checkpoints. The checkpoint and generation 1's
    modes."""
    first = _commit(stores, directory, [])
    given = _give_modes(_generation_dir(directory, first), modes, 0)
    oracle.write_generation(directory, 2, oracle.encode_core([SESSION_ROW]))
    core = directory / "gen-00000002" / "core.jsonl"
    core.write_bytes(core.read_bytes() + b"\n")
    _give_modes(directory / "gen-00000002", modes, 1)
    opened = stores.open(directory)
    assert opened.get("recovered") and opened.get("generation") == 1, (
        f"CURRENT names an invalid generation 2: the open answered {opened}, not a fall back "
        "to generation 1"
    )
    store = opened["store"]
    stores.engine.call("state.apply", {"store": store, "mutations": [put(SESSION_ROW)]})
    done = stores.engine.call("state.checkpoint", {"store": store})
    stores.close(store)
    return done, given


@requirement(
    "STATE-MODE-001",
    "file modes of the live generation are preserved by the next checkpoint, each file "
    "keeping its own (the files given different modes), also when the live generation is "
    "the one the open fell back to, older than the generation CURRENT names (whose files "
    "have other modes)",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § M1 (operator's file system); docs/state.md § Commit protocol (\"A "
    'checkpoint from the live generation L (the one loaded, or last committed)"; step 2: '
    '"give each file the mode of the same file in the live generation")',
    strategy=lambda ctx: st.tuples(st.sampled_from(MODE_STARTS), st.permutations(LIVE_MODES)),
    cover=coverage.each(
        "where the live generation comes from", [[start, list(LIVE_MODES)] for start in MODE_STARTS]
    ),
)
def modes_preserved(engine: EngineClient, case: tuple[str, list[int]]) -> None:
    start, modes = case
    with scratch() as directory, Stores(engine) as stores:
        if start == "fallen back":
            second, given = _checkpoint_fallen_back(stores, directory, list(modes))
        else:
            first = _commit(stores, directory, [])
            given = _give_modes(_generation_dir(directory, first), list(modes), 0)
            second = _commit(stores, directory, [SESSION_ROW])
        shown = {name: f"{mode:04o}" for name, mode in given.items()}
        for path in _generation_dir(directory, second).iterdir():
            want = given.get(path.name)
            got = path.stat().st_mode & 0o777
            assert want is None or got == want, (
                f"{start}: {path.name}: {got:04o}, the live generation's {path.name} was "
                f"{want:04o} (modes given: {shown})"
            )


def _fallen_back_from_is_kept(engine: EngineClient, rows: list[dict[str, Any]]) -> None:
    """CURRENT names a generation proven invalid: the open falls back, and keeps it."""
    with scratch() as directory, Stores(engine) as stores:
        oracle.write_generation(directory, 1, oracle.encode_core([]))
        oracle.write_generation(directory, 2, oracle.encode_core(rows))
        core = directory / "gen-00000002" / "core.jsonl"
        core.write_bytes(core.read_bytes() + b"\n")
        opened = stores.open(directory)
        assert opened.get("recovered"), "the open did not fall back from the invalid generation 2"
        assert (directory / "gen-00000002").exists(), (
            "the open removed gen-00000002, which CURRENT names (it fell back from it)"
        )
        stores.close(opened["store"])


@requirement(
    "STATE-LEFTOVER-001",
    "leftovers of a crashed commit (staging entries, CURRENT.tmp, an invalid generation past "
    "CURRENT) are removed by the open and never leak into the next checkpoint; a valid "
    "generation past CURRENT is kept and numbered past, and so is the invalid generation "
    "CURRENT names (fallen back from)",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § M4 (kill -9 at any instruction); docs/state.md § Recovery rules "
    "(leftover removal at open)",
    strategy=lambda ctx: st.tuples(records, st.binary(max_size=64)).map(list),
)
def leftovers_do_not_leak(engine: EngineClient, scenario: list[Any]) -> None:
    rows, junk = scenario
    with scratch() as directory, Stores(engine) as stores:
        first = _commit(stores, directory, [])
        following = first["generation"] + 1
        for name in (f"staging-{following}", f"staging-{following:08d}", f"gen-{following:08d}"):
            (directory / name).mkdir()
            (directory / name / "core.jsonl").write_bytes(junk)
            (directory / name / "manifest.json").write_bytes(junk)
        (directory / f"staging-{following + 2}").write_bytes(junk)
        (directory / "CURRENT.tmp").write_bytes(junk)
        oracle.write_generation(directory, following + 1, oracle.encode_core([]), point=False)
        store = stores.open(directory)["store"]
        left = sorted(p.name for p in directory.iterdir() if p.name not in ("LOCK",))
        kept = [f"gen-{n:08d}" for n in (first["generation"], following + 1)]
        assert [n for n in left if n.startswith(("gen-", "staging-", "CURRENT."))] == kept, (
            f"after the open: {left}; it removes staging-* entries, CURRENT.tmp and the invalid "
            f"gen-{following:08d}, and keeps the valid gen-{following + 1:08d} past CURRENT"
        )
        stores.engine.call("state.apply", {"store": store, "mutations": [put(r) for r in rows]})
        done = stores.engine.call("state.checkpoint", {"store": store})
        stores.close(store)
        assert done["generation"] == following + 2, f"numbered {done['generation']}"
        assert _core_bytes(directory, done["generation"]) == oracle.encode_core(rows)
        assert not (directory / "CURRENT.tmp").exists(), "CURRENT.tmp left behind"
        assert not list(directory.glob("staging-*")), "staging directory left behind"
        assert load(engine, directory)["identity"] == done["identity"], "the commit did not load"
    _fallen_back_from_is_kept(engine, rows)


@requirement(
    "STATE-LOCK-001",
    "a second writer on the same directory is refused with STATE_LOCKED until the first "
    "closes; while open, LOCK holds a pid, and a close clears it; the refused open leaves "
    "every entry but LOCK of the holder's directory as it found it (a torn journal tail is not "
    "cut, no boot event is appended, a staging-* entry and CURRENT.tmp are not removed) and "
    "LOCK keeps the holder's pid; the holder still holds the lock and checkpoints",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § M1 (single-writer enforcement); docs/state.md § Single writer; "
    "docs/state.md § Confinement (\"A writer's open does every read that can refuse first "
    "(the load, the leftovers to remove, every journal) and only then removes leftovers, "
    "repairs journals and appends its boot event, so a refused open leaves every entry but "
    '`LOCK` as it found it")',
)
def second_writer_refused(engine: EngineClient, _: object) -> None:
    with scratch() as directory, Stores(engine) as stores:
        first = stores.open(directory)["store"]
        held = _lock_bytes(directory)
        assert re.fullmatch(rb"[0-9]+\n?", held), f"an open writer's LOCK holds {held!r}, no pid"
        _plant_under_holder(engine, first, directory)
        # Every entry but LOCK (docs/state.md § Confinement excepts it); LOCK holds the
        # holder's pid until the holder's close clears it (§ Single writer).
        before = _entries(directory)
        try:
            stores.open(directory)
        except EngineRefused as refusal:
            assert refusal.code == "STATE_LOCKED", f"second writer refused with {refusal.code}"
        else:
            raise AssertionError("a second writer opened a locked directory")
        after = _entries(directory)
        changed = sorted(e for e in set(before) | set(after) if before.get(e) != after.get(e))
        assert not changed, (
            "an open refused with STATE_LOCKED changed the holder's directory (a refused open "
            f"leaves every entry but LOCK as it found it): {changed}"
        )
        kept = _lock_bytes(directory)
        assert kept == held, (
            f"an open refused with STATE_LOCKED left {kept!r} in LOCK, where the holder wrote "
            f"{held!r} (the holder writes its pid into LOCK and clears it on close)"
        )
        following = put({**LOCKED_ROW, "key": "next"})
        engine.call("state.apply", {"store": first, "mutations": [following]})
        done = engine.call("state.checkpoint", {"store": first})
        assert done["generation"] == 2, f"the holder's checkpoint numbered {done['generation']}"
        again = _refusal(engine, "state.open", {"dir": str(directory)})
        assert again == "STATE_LOCKED", f"after a refused second writer a third got {again or 'in'}"
        stores.close(first)
        left = _lock_bytes(directory)
        assert not re.search(rb"[0-9]", left), f"after the close LOCK still holds {left!r}"
        stores.close(stores.open(directory)["store"])


LOCKED_ROW = {"kind": "recognizer", "key": "held", "pattern": "p", "weight": 1}


def _plant_under_holder(engine: EngineClient, store: str, directory: Path) -> None:
    """The holder commits generation 1 and queues a proposal; then a crash's leftovers
    appear beside it: a torn tail on ``lineage.journal`` and ``proposals.journal`` (which a
    writer's open would cut), a ``staging-*`` directory and ``CURRENT.tmp`` (which it would
    remove)."""
    engine.call("state.apply", {"store": store, "mutations": [put(LOCKED_ROW)]})
    engine.call("state.checkpoint", {"store": store})
    engine.call("state.propose", {"store": store, "proposal": PROPOSAL})
    torn = oracle.frame(TORN_PROPOSAL)[:-5]
    for journal in ("lineage.journal", "proposals.journal"):
        with open(directory / journal, "ab") as handle:
            handle.write(torn)
    (directory / "staging-7").mkdir()
    (directory / "staging-7" / "core.jsonl").write_bytes(b"in flight\n")
    (directory / "CURRENT.tmp").write_bytes(b"gen-00000002\n")


def _lock_bytes(directory: Path) -> bytes:
    """What ``LOCK`` holds (nothing when it does not exist)."""
    lock = directory / "LOCK"
    return lock.read_bytes() if lock.exists() else b""


@requirement(
    "STATE-LOCK-002",
    "a writer in another process is refused with a message naming the holder's pid, and so "
    "is the next one (a refused open leaves the holder's pid in LOCK), and a SIGKILLed "
    "holder does not block the next start",
    family="state",
    capabilities=STATE,
    seed=f"{BRIEF} § M1 (single writer); § M4 (power loss)",
)
def lock_across_processes(engine: EngineClient, _: object) -> None:
    import json
    import signal

    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as directory, Stores(engine) as stores:
        holder = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            request = {"id": 1, "op": "state.open", "args": {"dir": str(directory)}}
            assert holder.stdin is not None and holder.stdout is not None
            holder.stdin.write(json.dumps(request).encode() + b"\n")
            holder.stdin.flush()
            opened = json.loads(holder.stdout.readline())
            assert opened.get("ok"), f"the holder could not open: {opened}"
            for writer in ("a second", "after a refused writer, a third"):
                try:
                    stores.open(directory)
                except EngineRefused as refusal:
                    assert refusal.code == "STATE_LOCKED", f"{writer} refused with {refusal.code}"
                    assert str(holder.pid) in refusal.message, (
                        f"{writer} writer's refusal does not name the holder's pid "
                        f"{holder.pid}: {refusal.message!r}"
                    )
                else:
                    raise AssertionError(f"{writer} process opened a directory another holds")
        finally:
            os.killpg(holder.pid, signal.SIGKILL)
            holder.wait()
        deadline = time.monotonic() + 5
        while True:
            try:
                stores.close(stores.open(directory)["store"])
                return
            except EngineRefused as refusal:
                if time.monotonic() > deadline:
                    raise AssertionError(f"a SIGKILLed holder still blocks: {refusal}") from None
                time.sleep(0.05)


def _refusal(engine: EngineClient, op: str, args: dict[str, Any]) -> str | None:
    """The code *op* is refused with, or None when it succeeds (a store it opened is closed)."""
    refusal = _refusal_of(engine, op, args)
    return refusal.code if refusal else None


FOREIGN_PID = "424242"
"""A pid planted outside the state directory, behind a LOCK that is a link."""
NOT_A_PID = "\u00e9t\u00e9 42\n".encode() + b"\xff\xfe\n"
"""What another program left in LOCK: UTF-8 and bytes that are not UTF-8, no pid."""
LOOKALIKE_PIDS = {
    "Arabic-Indic digits": "\u0664\u0662\u0664\u0662\n",
    "fullwidth digits": "\uff14\uff12\uff14\uff12\n",
    "superscript digits": "\u2074\u00b2\u2074\u00b2\n",
}
"""A pid spelled with digits that are not ASCII `0` to `9`: no pid (docs/state.md § Single
writer: "bytes that are not ASCII digits")."""
LOCK_CHANGES = {
    "unlink": "unlinked",
    "replace": "replaced by an empty file",
    "link": "made a link",
    "garbage": "filled with non-ASCII bytes",
    **{name: f"filled with a pid in {name}" for name in LOOKALIKE_PIDS},
}


@requirement(
    "STATE-LOCK-003",
    "unlinking or replacing LOCK (by a file or a link) while a writer holds the directory "
    "does not let a second writer in: it gets STATE_LOCKED, naming the holder unknown when "
    "LOCK is gone, a link (never read through it) or holds no pid (empty, bytes that are not "
    "ASCII, a pid in Arabic-Indic, fullwidth or superscript digits)",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Single writer (the lock is on the directory, not on LOCK)",
    strategy=lambda ctx: st.sampled_from(list(LOCK_CHANGES)),
    max_examples=len(LOCK_CHANGES),
    cover=coverage.each("LOCK changes", list(LOCK_CHANGES)),
)
def lock_survives_unlink(engine: EngineClient, how: str) -> None:
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        first = stores.open(directory)["store"]
        (directory / "LOCK").unlink()
        if how == "replace":
            (directory / "LOCK").write_bytes(b"")
        if how == "link":
            (root / "pid").write_bytes(FOREIGN_PID.encode() + b"\n")
            (directory / "LOCK").symlink_to(root / "pid")
        if how == "garbage":
            (directory / "LOCK").write_bytes(NOT_A_PID)
        if how in LOOKALIKE_PIDS:
            (directory / "LOCK").write_bytes(LOOKALIKE_PIDS[how].encode())
        refusal = _refusal_of(engine, "state.open", {"dir": str(directory)})
        done = LOCK_CHANGES[how]
        code = refusal.code if refusal else None
        assert code == "STATE_LOCKED", f"after LOCK was {done}, a second writer got {code or 'in'}"
        if how == "link" and refusal is not None:
            assert FOREIGN_PID not in refusal.message, (
                f"the pid was read through a link: {refusal.message!r}"
            )
        if how in ("unlink", "replace", "link", "garbage", *LOOKALIKE_PIDS):
            message = refusal.message if refusal else ""
            assert re.search(r"(?<![A-Za-z])unknown(?![A-Za-z])", message), (
                f"after LOCK was {done}, the refusal does not name the holder unknown: {message!r}"
            )
        stores.close(first)


LINKABLE = (
    "LOCK",
    "CURRENT",
    "lineage.journal",
    "proposals.journal",
    "overflow.journal",
    "gen-00000002",
    "gen-00000002/core.jsonl",
    "gen-00000002/manifest.json",
    "staging-9",
    "CURRENT.tmp",
)
TORN_PROPOSAL = {"lemma": "torn", "claim": "a crash cut this line"}
PROPOSAL = {"lemma": "l", "claim": "c"}
"""A well-formed proposal, for ops that must fail before it is queued."""


def _entries(directory: Path) -> dict[str, object]:
    """Every entry below *directory* but LOCK: a link as its target, a file as its bytes."""
    found: dict[str, object] = {}
    for top, dirs, files in os.walk(directory):
        for name in (*dirs, *files):
            path = Path(top) / name
            rel = path.relative_to(directory).as_posix()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_file() and rel != "LOCK":
                found[rel] = path.read_bytes()
            elif path.is_dir():
                found[rel] = "dir"
    return found


def _plant_debris(directory: Path, entry: str) -> None:
    """What a crashed commit leaves, for the open to remove only once nothing can refuse:
    ``CURRENT.tmp`` and a staging directory (besides the entry that is the link)."""
    if entry != "CURRENT.tmp":
        (directory / "CURRENT.tmp").write_bytes(b"gen-00000003\n")
    if entry != "staging-9":
        (directory / "staging-8").mkdir()
        (directory / "staging-8" / "core.jsonl").write_bytes(b"debris\n")


def _plant_torn_journal(directory: Path, entry: str) -> None:
    """A proposals journal whose last line a crash tore (unless that entry is the link)."""
    if entry != "proposals.journal":
        line = oracle.frame(TORN_PROPOSAL)
        (directory / "proposals.journal").write_bytes(oracle.frame({"lemma": "ok"}) + line[:-5])


def _outside_target(entry: str, directory: Path, outside: Path) -> object:
    """Move or create what *entry* will link to, outside the state directory."""
    target = outside / entry.replace("/", "_")
    source = directory / entry
    if entry == "CURRENT":
        target.write_bytes(b"gen-00000001\n")
        source.unlink()
    elif source.exists():
        source.rename(target)
    else:
        target.write_bytes(b"outside data, no trailing newline")
    return target


@requirement(
    "STATE-SYMLINK-001",
    "an entry the store would read or write that is a symbolic link is refused with "
    "STATE_SYMLINK, nothing outside the state directory is written, and the refused open "
    "leaves every entry but LOCK as it found it (a torn journal is not cut, the leftovers of "
    "a crashed commit are not removed)",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Directory layout (confinement: never follow a link, O_NOFOLLOW; a "
    "refused open leaves every entry but LOCK as it found it)",
    strategy=lambda ctx: st.tuples(records, st.sampled_from(LINKABLE)).map(list),
    max_examples=len(LINKABLE) * 2,
    cover=lambda ctx: coverage.Plan(
        tuple(coverage.Case([[], entry], (("linked entries", entry),)) for entry in LINKABLE),
        (("linked entries", len(LINKABLE)),),
    ),
)
def symlinks_refused(engine: EngineClient, scenario: list[Any]) -> None:
    from conformance.state.crashstates import snapshot

    rows, entry = scenario
    with scratch() as root:
        directory, outside = root / "state", root / "outside"
        outside.mkdir()
        oracle.write_generation(directory, 1, oracle.encode_core([]))
        oracle.write_generation(directory, 2, oracle.encode_core(rows))
        (directory / entry).symlink_to(_outside_target(entry, directory, outside))
        _plant_torn_journal(directory, entry)
        _plant_debris(directory, entry)
        before, inside = snapshot(outside), _entries(directory)
        code = _refusal(engine, "state.open", {"dir": str(directory)})
        assert code == "STATE_SYMLINK", f"{entry} is a link: state.open answered {code or 'ok'}"
        assert snapshot(outside) == before, f"{entry} is a link: a file outside was written"
        changed = sorted(set(inside.items()) ^ set(_entries(directory).items()))
        assert not changed, f"{entry} is a link: the refused open changed {changed[:3]}"


UNREADABLE: dict[str, tuple[str, int]] = {
    "CURRENT": ("CURRENT", 0),
    "gen-00000002/core.jsonl": ("gen-00000002/core.jsonl", 0),
    "gen-00000002/manifest.json": ("gen-00000002/manifest.json", 0),
    "gen-00000002": ("gen-00000002", 0),
    "the state directory, listable only": (".", 0o400),
    "the state directory": (".", 0),
}
"""What is made unreadable, by name: the entry and its mode. The state directory is made
listable but not searchable (its listing reads and no entry in it opens), then mode 000
(it cannot even be opened)."""


def _loads_of(entry: str, mode: int) -> tuple[str, ...]:
    """The ops refused for *entry* made mode *mode*: a writer's open of a directory it can
    list but not search may first fail to write LOCK (STATE_IO), so that directory is loaded
    read-only only; one it cannot open at all (mode 000) refuses a writer's open with
    STATE_UNREADABLE too (docs/state.md § Confinement)."""
    return ("state.load",) if entry == "." and mode else LOADS


@requirement(
    "STATE-UNREADABLE-001",
    "a live generation, a pointer or the state directory that exists but cannot be read is "
    "refused with "
    "STATE_UNREADABLE by load and open, and every byte of the directory is left as it was",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Recovery rules 4 (never fall back from what could not be read)",
    strategy=lambda ctx: st.tuples(records, records).map(list),
    max_examples=2,
)
def unreadable_refused(engine: EngineClient, scenario: list[Any]) -> None:
    from conformance.state.crashstates import snapshot
    from conformance.state.unprivileged import bound_by_modes

    older, live = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        before = {}
        for number, (name, (entry, mode)) in enumerate(UNREADABLE.items()):
            directory = root / str(number)
            oracle.write_generation(directory, 1, oracle.encode_core(older))
            oracle.write_generation(directory, 2, oracle.encode_core(live))
            before[name] = snapshot(directory)
            os.chmod(directory / entry, mode)
        with bound_by_modes(command, engine.transcript) as bound:
            codes = {
                (name, op): _refusal(bound, op, {"dir": str(root / str(number))})
                for number, (name, (entry, mode)) in enumerate(UNREADABLE.items())
                for op in _loads_of(entry, mode)
            }
        for number, (_, (entry, _)) in enumerate(UNREADABLE.items()):
            os.chmod(root / str(number) / entry, 0o755 if entry in (".", "gen-00000002") else 0o644)
        changed = {
            name: _changed(before[name], snapshot(root / str(number)))
            for number, name in enumerate(UNREADABLE)
        }
    wrong = {
        f"{op} with {name} unreadable": c
        for (name, op), c in codes.items()
        if c != "STATE_UNREADABLE"
    }
    assert not wrong, f"not refused with STATE_UNREADABLE: {wrong}"
    touched = {entry: paths for entry, paths in changed.items() if paths not in ([], ["LOCK"])}
    assert not touched, f"an unreadable state was changed: {touched}"


@requirement(
    "STATE-UNREADABLE-002",
    "a checkpoint that meets a file-system failure (its live generation unreadable, the state "
    "directory or a leftover in it not writable) is refused with STATE_IO (STATE_UNREADABLE is "
    "for loads), and CURRENT still names the live generation; so is a writer's open that "
    "cannot create its missing directory (the parent not writable) or its LOCK (the "
    "directory read-only), and a proposal in a directory made unsearchable",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Confinement (every other file-system failure of a state op is STATE_IO)",
    max_examples=1,
)
def unreadable_at_checkpoint(engine: EngineClient, _: object) -> None:
    from conformance.state.unprivileged import bound_by_modes

    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    record = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
    codes, unnamed, pointers = {}, {}, {}
    with scratch() as root, bound_by_modes(command, engine.transcript) as bound:
        for what, (plant, locked, mode, named) in CHECKPOINT_FAILURES.items():
            directory = root / what.replace(" ", "-")
            oracle.write_generation(directory, 1, oracle.encode_core([]))
            store = bound.call("state.open", {"dir": str(directory)})["store"]
            bound.call("state.apply", {"store": store, "mutations": [put(record)]})
            plant(directory)
            os.chmod(directory / locked, mode)
            try:
                refusal = _refusal_of(bound, "state.checkpoint", {"store": store})
            finally:
                os.chmod(directory / locked, 0o755)
            codes[what] = refusal.code if refusal else None
            if refusal and named not in refusal.message:
                unnamed[what] = refusal.message
            pointers[what] = (directory / "CURRENT").read_bytes()
        for what, (refusal, named) in _writer_failures(bound, root).items():
            codes[what] = refusal.code if refusal else None
            if refusal and named not in refusal.message:
                unnamed[what] = refusal.message
    wrong = {what: code or "ok" for what, code in codes.items() if code != "STATE_IO"}
    assert not wrong, f"a writer's file-system failure not refused with STATE_IO: {wrong}"
    assert not unnamed, f"a STATE_IO message does not name the path: {unnamed}"
    moved = {what: p for what, p in pointers.items() if p != b"gen-00000001\n"}
    assert not moved, f"a refused checkpoint moved CURRENT: {moved}"


def _writer_failures(
    engine: EngineClient, root: Path
) -> dict[str, tuple[EngineRefused | None, str]]:
    """A writer's open of a missing directory under a read-only parent and of a read-only
    state directory without LOCK, and a proposal once the writer's directory is made
    unsearchable: each refusal, with the name its message must hold."""
    (root / "closed").mkdir()
    oracle.write_generation(root / "read-only", 1, oracle.encode_core([]))
    opens = {  # the directory made read-only, the one opened, the name the refusal holds
        "an open under an unwritable parent": (
            root / "closed",
            root / "closed" / "missing-state",
            "missing-state",
        ),
        "an open of a read-only directory": (root / "read-only", root / "read-only", "read-only"),
    }
    refusals = {}
    for what, (locked, target, named) in opens.items():
        os.chmod(locked, 0o555)
        try:
            refusals[what] = (_refusal_of(engine, "state.open", {"dir": str(target)}), named)
        finally:
            os.chmod(locked, 0o755)
    refusals["a proposal in an unsearchable directory"] = (
        _unsearchable_proposal(engine, root / "unsearchable"),
        "unsearchable",
    )
    return refusals


def _unsearchable_proposal(engine: EngineClient, directory: Path) -> EngineRefused | None:
    """The refusal of a proposal once the writer's *directory* is listable but unsearchable."""
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    os.chmod(directory, 0o400)
    try:
        return _refusal_of(engine, "state.propose", {"store": store, "proposal": PROPOSAL})
    finally:
        os.chmod(directory, 0o755)
        _refusal_of(engine, "state.close", {"store": store})


def _nothing(directory: Path) -> None:
    """Plant nothing."""


def _pointer_debris(directory: Path) -> None:
    (directory / "CURRENT.tmp").write_bytes(b"gen-00000009\n")


def _staging_debris(directory: Path) -> None:
    (directory / "staging-9").mkdir()
    (directory / "staging-9" / "core.jsonl").write_bytes(b"debris\n")


CHECKPOINT_FAILURES = {
    "live generation unreadable": (_nothing, "gen-00000001", 0, "gen-00000001"),
    "state directory read-only": (_nothing, ".", 0o555, "staging-"),
    "CURRENT.tmp in a read-only directory": (_pointer_debris, ".", 0o555, "CURRENT.tmp"),
    "read-only staging debris": (_staging_debris, "staging-9", 0o555, "staging-9"),
    "staging debris in an unsearchable directory": (_staging_debris, ".", 0o400, "unsearchable"),
}
"""What a checkpoint under the writer meets: what is planted, the entry then locked and its
mode, and what the STATE_IO message must name (the path that failed)."""


def _changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


LOADS = ("state.load", "state.open")


def _after_removal(engine: EngineClient, path: Path) -> dict[str, EngineRefused | None]:
    """The refusals of a checkpoint and a proposal once the open store's *path* is gone."""
    store = engine.call("state.open", {"dir": str(path)})["store"]
    shutil.rmtree(path)
    refusals = {
        "state.checkpoint": _refusal_of(engine, "state.checkpoint", {"store": store}),
        "state.propose": _refusal_of(
            engine, "state.propose", {"store": store, "proposal": PROPOSAL}
        ),
    }
    path.mkdir()
    _refusal_of(engine, "state.close", {"store": store})
    return refusals


def _unusable(root: Path) -> dict[str, tuple[Path, str]]:
    """Each unusable directory, with the name of the entry its refusal must name."""
    (root / "file").write_bytes(b"not a directory")
    named = root / "pointer-is-a-directory"
    oracle.write_generation(named, 1, oracle.encode_core([]))
    (named / "CURRENT").unlink()
    (named / "CURRENT").mkdir()
    os.mkfifo(root / "pipe")
    piped = root / "pointer-is-a-pipe"
    piped.mkdir()
    os.mkfifo(piped / "CURRENT")
    flat = root / "generation-is-a-file"
    oracle.write_generation(flat, 1, oracle.encode_core([]))
    shutil.rmtree(flat / "gen-00000001")
    (flat / "gen-00000001").write_bytes(b"not a generation")
    return {
        "a regular file": (root / "file", "file"),
        "a path under a regular file": (root / "file" / "state", "file"),
        "a 300-character name": (root / ("n" * 300), "n" * 300),
        "a directory named CURRENT": (named, "CURRENT"),
        "a named pipe": (root / "pipe", "pipe"),
        "a named pipe named CURRENT": (piped, "CURRENT"),
        "a regular file named by CURRENT as the generation": (flat, "gen-00000001"),
    }


@requirement(
    "STATE-IO-001",
    "a state op on an unusable directory (a regular file, under a regular file, a name too "
    "long, a directory or a named pipe named CURRENT, a named pipe, a generation that is a "
    "regular file), and a writer's checkpoint or proposal after its directory was removed, "
    "are refused with STATE_IO whose message names the unusable entry, never an internal "
    "error or a hang",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Directory layout (no file-system failure is ENGINE_INTERNAL); "
    "§ Error codes (STATE_IO: the message names the path)",
)
def unusable_directories(engine: EngineClient, _: object) -> None:
    wrong: dict[str, str | None] = {}
    unnamed: list[str] = []
    with scratch() as root:
        for what, (path, entry) in _unusable(root).items():
            for op in LOADS:
                refusal = _refusal_of(engine, op, {"dir": str(path)})
                if refusal is None or refusal.code != "STATE_IO":
                    wrong[f"{op} on {what}"] = refusal.code if refusal else None
                elif entry not in refusal.message:
                    unnamed.append(f"{op} on {what}: {refusal.message!r} does not name {entry}")
        for op, refusal in _after_removal(engine, root / "removed-while-open").items():
            if refusal is None or refusal.code != "STATE_IO":
                wrong[f"{op} after the directory was removed"] = refusal.code if refusal else None
            elif "removed-while-open" not in refusal.message:
                unnamed.append(
                    f"{op} after removal: {refusal.message!r} does not name the directory"
                )
    assert not wrong, f"not refused with STATE_IO: {wrong}"
    assert not unnamed, cases.lines(unnamed)
