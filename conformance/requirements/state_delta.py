"""Delta generations (docs/state.md § Delta generations, schema version 5), built by the
suite from the words of the docs: a full base, then ``delta.jsonl`` of framed put and delete
entries in ``(kind, key)`` order, its manifest naming the base by number and the SHA-256 of
its core.

STATE-DELTA-351: such a directory loads to the state the full form of the same records
gives (identity, generation, turn count, records), also with a valid full generation
between the base and the delta, and a writer's next checkpoint holds those records and keeps
the base the previous live generation needs (commit step 6). STATE-DELTA-352: a damaged
delta (a torn or corrupt frame, a wrong base hash, a missing base, a base that is a delta)
is proven invalid, so the load falls back to the newest valid generation and says so.
STATE-DELTA-353: an entry whose frame checks but is malformed is STATE_RECORD_MALFORMED.
STATE-DELTA-354: a base that exists but cannot be read is STATE_UNREADABLE.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import bad_utf8, coverage
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.driver import Stores, load, put, refusal_code, scratch

DELTA = ("state", "state.delta")
VERSION = oracle.DELTA_SCHEMA_VERSION
Record = dict[str, Any]


def _frame(payload: dict[str, Any]) -> bytes:
    data = canonical_json(payload).encode("utf-8")
    return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"


def _order(pair: tuple[str, str]) -> tuple[bytes, bytes]:
    return pair[0].encode("utf-8"), pair[1].encode("utf-8")


def delta_bytes(base: list[Record], target: list[Record]) -> bytes:
    """``delta.jsonl`` taking *base* to *target*: a put of every record *target* holds that
    *base* lacks or holds otherwise, a delete of every one *base* holds and *target* does
    not, in ``(kind, key)`` order."""
    then = {(r["kind"], r["key"]): oracle.normalize(r) for r in base}
    now = {(r["kind"], r["key"]): oracle.normalize(r) for r in target}
    lines = []
    for pair in sorted(set(then) | set(now), key=_order):
        if pair not in now:
            lines.append(_frame({"op": "delete", "kind": pair[0], "key": pair[1]}))
        elif then.get(pair) != now[pair]:
            lines.append(_frame({"op": "put", "record": now[pair]}))
    return b"".join(lines)


def seal(body: dict[str, Any]) -> bytes:
    """A manifest of *body* with its checksum."""
    checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    return canonical_json({**body, "checksum": checksum}).encode("utf-8") + b"\n"


def write_delta(
    directory: Path,
    generation: int,
    base: int,
    data: bytes,
    identity: str,
    turn_count: int,
    *,
    base_core: str | None = None,
) -> None:
    """``gen-<generation>`` as a delta generation of *base* holding *data*; *base_core* (by
    default the SHA-256 of the base's ``core.jsonl``) is the hash its manifest names."""
    if base_core is None:
        base_core = hashlib.sha256(
            (directory / f"gen-{base:08d}" / "core.jsonl").read_bytes()
        ).hexdigest()
    gen = directory / f"gen-{generation:08d}"
    gen.mkdir(parents=True)
    (gen / "delta.jsonl").write_bytes(data)
    body = {
        "base": {"core": base_core, "generation": base},
        "files": {"delta.jsonl": hashlib.sha256(data).hexdigest()},
        "generation": generation,
        "identity": identity,
        "schema_version": VERSION,
        "turn_count": turn_count,
    }
    (gen / "manifest.json").write_bytes(seal(body))


def reseal(generation: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite a manifest with *change* applied and its checksum and files hashes right."""
    manifest = json.loads((generation / "manifest.json").read_bytes())
    manifest.pop("checksum")
    change(manifest)
    manifest["files"] = {
        name: hashlib.sha256((generation / name).read_bytes()).hexdigest()
        for name in manifest["files"]
    }
    (generation / "manifest.json").write_bytes(seal(manifest))


KEYS = ("a", "b", "c", "d", "\u00e9", "e\u0301")
RECORDS = st.dictionaries(
    st.sampled_from(KEYS),
    st.tuples(st.sampled_from(("recognizer", "candidate")), st.integers(-3, 3)),
    max_size=len(KEYS),
)


def _records(drawn: dict[str, tuple[str, int]]) -> list[Record]:
    found = []
    for key, (kind, value) in sorted(drawn.items()):
        if kind == "recognizer":
            found.append({"kind": kind, "key": key, "pattern": f"p{value}", "weight": value})
        else:
            status = "coherent" if value > 0 else "speculative"
            found.append({"kind": kind, "key": key, "lemma": key, "score": value, "status": status})
    return found


DELTA_SHAPES: dict[str, tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]]] = {
    "no change (an empty delta)": ({"a": ("recognizer", 1)}, {"a": ("recognizer", 1)}),
    "both empty": ({}, {}),
    "puts only (an empty base)": ({}, {"a": ("recognizer", 1), "b": ("candidate", 2)}),
    "deletes only (an empty target)": ({"a": ("recognizer", 1), "b": ("candidate", 2)}, {}),
    "a record changed in place": ({"a": ("candidate", 1)}, {"a": ("candidate", -2)}),
    "a key changing kind": ({"a": ("recognizer", 1)}, {"a": ("candidate", 1)}),
    "composed and decomposed keys": (
        {"\u00e9": ("recognizer", 0)},
        {"e\u0301": ("recognizer", 0), "\u00e9": ("recognizer", 3), "d": ("candidate", 0)},
    ),
    "puts, deletes and kept records": (
        {"a": ("recognizer", 1), "b": ("candidate", 2), "c": ("candidate", 3)},
        {"a": ("recognizer", 1), "c": ("candidate", -3), "d": ("recognizer", -1)},
    ),
}
"""Base and target records of each kind of delta docs/state.md § Delta generations
distinguishes by its entries: none, puts, deletes, a put replacing a record, a delete and a
put of one key (its (kind, key) changes), both orders of a key's UTF-8 bytes, all at once."""
BETWEEN = ("empty", "the base", "the target")
"""The valid full generation between the base and the delta: none of the records, or the
base's, or the target's (the delta names its base, never the newest full generation)."""


def _delta_plan(ctx: object) -> coverage.Plan:
    cases = tuple(
        coverage.Case(
            (base, {"empty": {}, "the base": base, "the target": target}[between], target, i),
            (("delta shapes", shape), ("generations between", between)),
        )
        for i, (shape, (base, target)) in enumerate(DELTA_SHAPES.items())
        for between in BETWEEN
    )
    return coverage.Plan(
        cases, (("delta shapes", len(DELTA_SHAPES)), ("generations between", len(BETWEEN)))
    )


def _identity(records: list[Record]) -> str:
    return oracle.identity(VERSION, oracle.encode_core(records))


EXTRA = {"kind": "recognizer", "key": "later", "pattern": "q", "weight": 9}


@requirement(
    "STATE-DELTA-351",
    "a delta generation written from docs/state.md § Delta generations (a full base, then "
    "framed puts and deletes of the records changed since, in (kind, key) order) loads to the "
    "identity, generation, turn count and records the full form of the same records gives, "
    "also with a valid full generation between the base and the delta; a writer's next "
    "checkpoint holds those records, and the base the previous live generation names stays "
    "on disk",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: the state of a delta generation is its base's "
    "records with each entry applied; commit step 6 keeps the base each kept generation names",
    strategy=lambda ctx: st.tuples(RECORDS, RECORDS, RECORDS, st.integers(0, 50)),
    max_examples=25,
    cover=_delta_plan,
)
def delta_loads_as_full(engine: EngineClient, drawn: tuple[Any, ...]) -> None:
    base, between, target = (_records(d) for d in drawn[:3])
    turns = drawn[3]
    with scratch() as directory:
        oracle.write_generation(directory, 2, oracle.encode_core(base), VERSION, turns)
        oracle.write_generation(directory, 3, oracle.encode_core(between), VERSION, turns)
        identity = _identity(target)
        write_delta(directory, 4, 2, delta_bytes(base, target), identity, turns + 1)
        (directory / "CURRENT").write_bytes(b"gen-00000004\n")
        want = {
            "identity": identity,
            "generation": 4,
            "turn_count": turns + 1,
            "schema_version": VERSION,
            "records": len(target),
        }
        got = load(engine, directory)
        seen = {key: got.get(key) for key in want}
        assert seen == want and not got.get("recovered"), (
            f"state.load of a delta generation on base 2: {got}, the full form gives {want}"
        )
        with Stores(engine) as stores:
            opened = stores.open(directory)
            store = opened["store"]
            digest = engine.call("state.digest", {"store": store})
            assert digest["identity"] == identity, (
                f"state.digest after opening the delta generation: {digest}, not {identity}"
            )
            engine.call("state.apply", {"store": store, "mutations": [put(EXTRA)]})
            done = engine.call("state.checkpoint", {"store": store})
            on_disk = sorted(int(p.name[4:]) for p in directory.glob("gen-*"))
            assert 2 in on_disk and 4 in on_disk, (
                f"after a checkpoint from the delta generation 4 (base 2): generations "
                f"{on_disk}; the previous live one and the base it names must stay"
            )
            core = fmt.generation_core(directory / f"gen-{done['generation']:08d}")
            want_core = oracle.encode_core([*target, EXTRA])
            assert core == want_core, (
                f"the checkpoint after the delta generation holds {core[:300]!r}, not the "
                f"delta's records and the put {want_core[:300]!r}"
            )


def _shape(base: list[Record], target: list[Record]) -> str:
    data = delta_bytes(base, target)
    puts, deletes = b'"op":"put"' in data, b'"op":"delete"' in data
    if puts and deletes:
        return "puts and deletes"
    return "puts only" if puts else "deletes only" if deletes else "empty"


BASE_ROWS = [
    {"kind": "recognizer", "key": "a", "pattern": "p", "weight": 1},
    {"kind": "recognizer", "key": "b", "pattern": "p", "weight": 2},
]
OLDER_ROWS = BASE_ROWS[:1]
TARGET_ROWS = [BASE_ROWS[1], {"kind": "recognizer", "key": "c", "pattern": "q", "weight": 3}]


def _planted(directory: Path) -> None:
    """gen 1 full (older), gen 2 full (the base), gen 3 a delta on 2; CURRENT names 3."""
    oracle.write_generation(directory, 1, oracle.encode_core(OLDER_ROWS), VERSION, 1)
    oracle.write_generation(directory, 2, oracle.encode_core(BASE_ROWS), VERSION, 2)
    data = delta_bytes(BASE_ROWS, TARGET_ROWS)
    write_delta(directory, 3, 2, data, _identity(TARGET_ROWS), 3)
    (directory / "CURRENT").write_bytes(b"gen-00000003\n")


def _torn(directory: Path) -> None:
    path = directory / "gen-00000003" / "delta.jsonl"
    path.write_bytes(path.read_bytes()[:-9])


def _torn_sealed(directory: Path) -> None:
    _torn(directory)
    reseal(directory / "gen-00000003", lambda manifest: None)


def _corrupt_sealed(directory: Path) -> None:
    path = directory / "gen-00000003" / "delta.jsonl"
    data = bytearray(path.read_bytes())
    data[9] = ord("0") if data[9] != ord("0") else ord("1")
    path.write_bytes(bytes(data))
    reseal(directory / "gen-00000003", lambda manifest: None)


def _wrong_base_hash(directory: Path) -> None:
    other = hashlib.sha256(oracle.encode_core(OLDER_ROWS)).hexdigest()
    reseal(directory / "gen-00000003", lambda manifest: manifest["base"].update(core=other))


def _missing_base(directory: Path) -> None:
    for path in sorted((directory / "gen-00000002").iterdir()):
        path.unlink()
    (directory / "gen-00000002").rmdir()


def _base_is_delta(directory: Path) -> None:
    """gen 2 rewritten as a delta of gen 1 (valid itself); gen 3 names it as its base."""
    for path in sorted((directory / "gen-00000002").iterdir()):
        path.unlink()
    (directory / "gen-00000002").rmdir()
    data = delta_bytes(OLDER_ROWS, BASE_ROWS)
    write_delta(directory, 2, 1, data, _identity(BASE_ROWS), 2)
    core = hashlib.sha256(oracle.encode_core(BASE_ROWS)).hexdigest()
    reseal(directory / "gen-00000003", lambda manifest: manifest["base"].update(core=core))


def _later_base(directory: Path) -> None:
    """gen 4 a full generation of the base's records; gen 3 names it as its base, a
    generation later than itself."""
    oracle.write_generation(directory, 4, oracle.encode_core(BASE_ROWS), VERSION, 4, point=False)
    reseal(directory / "gen-00000003", lambda manifest: manifest["base"].update(generation=4))


def _base_of_schema_4(directory: Path) -> None:
    """gen 1 rewritten as a full generation of schema version 4 holding the base's records;
    gen 3 names it as its base, with its core's hash."""
    core = oracle.encode_core(BASE_ROWS)
    for path in sorted((directory / "gen-00000001").iterdir()):
        path.unlink()
    oracle.write_generation(directory, 1, core, oracle.LIFE_SCHEMA_VERSION, 1, point=False)
    digest = hashlib.sha256(core).hexdigest()
    reseal(
        directory / "gen-00000003",
        lambda manifest: manifest["base"].update(generation=1, core=digest),
    )


def _base_at_schema_4(directory: Path) -> None:
    """gen 3's manifest at schema version 4, its identity the version 4 one of its records."""

    def change(manifest: dict[str, Any]) -> None:
        manifest["schema_version"] = oracle.LIFE_SCHEMA_VERSION
        manifest["identity"] = oracle.identity(
            oracle.LIFE_SCHEMA_VERSION, oracle.encode_core(TARGET_ROWS)
        )

    reseal(directory / "gen-00000003", change)


RIGHT_CORE = "the base's own core hash"
"""In a ``base`` member given to :func:`_base_member`: the SHA-256 of gen 2's core."""


def _base_member(value: object) -> Callable[[Path], None]:
    """gen 3's ``base`` made *value* (its :data:`RIGHT_CORE` the base's right hash), resealed."""

    def spoil(directory: Path) -> None:
        core = hashlib.sha256((directory / "gen-00000002" / "core.jsonl").read_bytes())
        member = value
        if isinstance(value, dict):
            member = {k: core.hexdigest() if v == RIGHT_CORE else v for k, v in value.items()}
        reseal(directory / "gen-00000003", lambda manifest: manifest.update(base=member))

    return spoil


def _base_zero_on_disk(directory: Path) -> None:
    """A ``gen-00000000`` holding the base's records (its manifest naming generation 0, all
    else checking), and gen 3's base numbered 0 with that core's hash: a port that only
    checks the number it reads against the base's own manifest loads the delta on it."""
    oracle.write_generation(directory, 0, oracle.encode_core(BASE_ROWS), VERSION, 2, point=False)
    _base_member({"core": RIGHT_CORE, "generation": 0})(directory)


def _invalid_base(directory: Path) -> None:
    """gen 2 (the base) made invalid: its manifest's turn count changed, its checksum not."""
    path = directory / "gen-00000002" / "manifest.json"
    body = json.loads(path.read_bytes())
    body["turn_count"] += 5
    path.write_bytes(canonical_json(body).encode("utf-8") + b"\n")


def _identity_of(rows: list[Record]) -> Callable[[Path], None]:
    """gen 3's manifest given the identity of *rows*, not of the state its entries give,
    resealed: everything else of it checks, so only the identity rule proves it invalid."""

    def spoil(directory: Path) -> None:
        reseal(
            directory / "gen-00000003", lambda manifest: manifest.update(identity=_identity(rows))
        )

    return spoil


DAMAGE: dict[str, tuple[Callable[[Path], None], int, list[Record]]] = {
    "a torn last frame (delta.jsonl no longer its SHA-256)": (_torn, 2, BASE_ROWS),
    "a torn last frame, the manifest resealed": (_torn_sealed, 2, BASE_ROWS),
    "a frame whose CRC-32 does not match, resealed": (_corrupt_sealed, 2, BASE_ROWS),
    "a base hash that is another core's": (_wrong_base_hash, 2, BASE_ROWS),
    "a missing base": (_missing_base, 1, OLDER_ROWS),
    "a base that is itself a delta generation": (_base_is_delta, 2, BASE_ROWS),
    "a base later than the generation itself": (_later_base, 4, BASE_ROWS),
    "a base that is a full generation of schema version 4": (_base_of_schema_4, 2, BASE_ROWS),
    "a base named by a manifest of schema version 4": (_base_at_schema_4, 2, BASE_ROWS),
    "a base that is not an object": (_base_member("gen-00000002"), 2, BASE_ROWS),
    "a base with a member no base has": (
        _base_member({"core": RIGHT_CORE, "generation": 2, "turn_count": 2}),
        2,
        BASE_ROWS,
    ),
    "a base without its core": (_base_member({"generation": 2}), 2, BASE_ROWS),
    "a base whose core is not a string": (
        _base_member({"core": None, "generation": 2}),
        2,
        BASE_ROWS,
    ),
    "a base numbered 0": (_base_member({"core": RIGHT_CORE, "generation": 0}), 2, BASE_ROWS),
    "a base numbered 0, a gen-00000000 of the base's records on disk": (
        _base_zero_on_disk,
        2,
        BASE_ROWS,
    ),
    "a base numbered true": (_base_member({"core": RIGHT_CORE, "generation": True}), 2, BASE_ROWS),
    "a base numbered as the generation itself": (
        _base_member({"core": RIGHT_CORE, "generation": 3}),
        2,
        BASE_ROWS,
    ),
    "an identity that is the base's state's (base, frames and entries all check)": (
        _identity_of(BASE_ROWS),
        2,
        BASE_ROWS,
    ),
    "an identity that is another state's (base, frames and entries all check)": (
        _identity_of(TARGET_ROWS[:1]),
        2,
        BASE_ROWS,
    ),
    "a base that is not a valid generation (its checksum does not match)": (
        _invalid_base,
        1,
        OLDER_ROWS,
    ),
}
"""Each damage to the delta generation 3, and the generation (and records) the load falls
back to: the newest valid one."""


@requirement(
    "STATE-DELTA-352",
    "a delta generation whose frames do not check (torn, or a CRC-32 that does not match, "
    "also with its manifest resealed), whose base hash is another core's, whose base is "
    "missing, is itself a delta, is of schema version 4, is not an earlier generation or is "
    "not valid, whose base member is not an object of exactly core (a string) and generation "
    "(an integer of at least 1, also with a gen-00000000 on disk), whose manifest's identity "
    "is not that of the state its entries give (all else checking), or that a manifest of "
    "schema version 4 names, is proven "
    "invalid: the load falls back to "
    "the newest valid generation and says so (recovered), never loading the delta as it "
    "stands",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: a missing base, a base that is a delta, a wrong "
    "base hash or a torn frame makes the delta generation proven invalid (recovery rule 4)",
    strategy=lambda ctx: st.sampled_from(sorted(DAMAGE)),
    max_examples=len(DAMAGE),
    cover=coverage.each("damage", sorted(DAMAGE)),
)
def damaged_delta_falls_back(engine: EngineClient, name: str) -> None:
    spoil, generation, rows = DAMAGE[name]
    with scratch() as directory:
        _planted(directory)
        spoil(directory)
        got = load(engine, directory)
        want = {"generation": generation, "identity": _identity(rows)}
        seen = {key: got.get(key) for key in want}
        assert seen == want, f"{name}: state.load gave {got}, the fall back gives {want}"
        assert got.get("recovered"), f"{name}: the load fell back without saying so: {got}"


MALFORMED: dict[str, list[dict[str, Any]]] = {
    "an entry of another op": [{"op": "turn"}],
    "an entry with a member no entry has": [
        {"op": "delete", "kind": "recognizer", "key": "a", "record": None}
    ],
    "a put of a record with an optional field at its default": [
        {"op": "put", "record": {**TARGET_ROWS[1], "label": ""}}
    ],
    "a put of a record of an unknown kind": [
        {"op": "put", "record": {"kind": "lemma", "key": "z", "pattern": "p", "weight": 1}}
    ],
    "entries out of (kind, key) order": [
        {"op": "put", "record": TARGET_ROWS[1]},
        {"op": "delete", "kind": "recognizer", "key": "a"},
    ],
    "one pair twice": [
        {"op": "delete", "kind": "recognizer", "key": "a"},
        {"op": "delete", "kind": "recognizer", "key": "a"},
    ],
    "a put without its record": [{"op": "put"}],
    "a put with a delete's members": [{"op": "put", "kind": "recognizer", "key": "a"}],
    "a delete without its key": [{"op": "delete", "kind": "recognizer"}],
    "a delete without its kind": [{"op": "delete", "key": "a"}],
    "a delete of an unknown kind": [{"op": "delete", "kind": "lemma", "key": "a"}],
    "a delete whose kind is not a string": [{"op": "delete", "kind": 1, "key": "a"}],
    "a delete of an empty key": [{"op": "delete", "kind": "recognizer", "key": ""}],
    "a delete of a key of 129 code points": [
        {"op": "delete", "kind": "recognizer", "key": "k" * 129}
    ],
    "a delete of a key of 129 code points, 65 characters with combining marks": [
        {"op": "delete", "kind": "recognizer", "key": "e\u0301" * 64 + "e"}
    ],
    "a delete whose key is not a string": [{"op": "delete", "kind": "recognizer", "key": 7}],
    "a delete whose key is null": [{"op": "delete", "kind": "recognizer", "key": None}],
}
"""Entries whose frames check but which are not what § Delta generations writes."""
NOT_UTF8: dict[str, bytes] = {
    **{
        f"an entry that is not UTF-8: {name}": b'{"key":"a'
        + inside
        + b'","kind":"recognizer","op":"delete"}'
        for name, inside in bad_utf8.INSIDE.items()
    },
    **{
        f"an entry that is not UTF-8: {name}": entry
        for name, entry in bad_utf8.outside(
            b'{"key":"a","kind":"recognizer","op":"delete"}'
        ).items()
    },
    "an entry that is a JSON array": b'["delete","recognizer","a"]',
    "an entry that is null": b"null",
}
"""Entry payloads whose frames check but which are not a JSON object: bytes that are not
UTF-8 (so not JSON), an array, ``null``."""


def _entries(name: str) -> bytes:
    """The ``delta.jsonl`` of case *name* of :data:`MALFORMED` or :data:`NOT_UTF8`."""
    if name in NOT_UTF8:
        data = NOT_UTF8[name]
        return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"
    return b"".join(_frame(entry) for entry in MALFORMED[name])


@requirement(
    "STATE-DELTA-353",
    "a delta generation whose frames check but hold an entry that is not a put or a delete of "
    "the docs' members, a malformed or non-canonical record, a delete of an unknown kind or "
    "of a key that is empty, past 128 code points or not a string, bytes that are not UTF-8, "
    "or entries out of (kind, key) order or a pair twice is STATE_RECORD_MALFORMED, never a "
    "fall back",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: a frame that checks but whose entry is not what "
    "the section says is STATE_RECORD_MALFORMED (recovery rule 6)",
    strategy=lambda ctx: st.sampled_from(sorted([*MALFORMED, *NOT_UTF8])),
    max_examples=len(MALFORMED) + len(NOT_UTF8),
    cover=coverage.each("entries", sorted([*MALFORMED, *NOT_UTF8])),
)
def malformed_delta_entry_refused(engine: EngineClient, name: str) -> None:
    with scratch() as directory:
        _planted(directory)
        data = _entries(name)
        (directory / "gen-00000003" / "delta.jsonl").write_bytes(data)
        reseal(directory / "gen-00000003", lambda manifest: None)
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            assert refusal.code == "STATE_RECORD_MALFORMED", (
                f"{name}: state.load refused with {refusal.code}, not STATE_RECORD_MALFORMED"
            )
            return
        raise AssertionError(f"{name}: state.load answered {got}, not STATE_RECORD_MALFORMED")


UNREADABLE_BASE: dict[str, tuple[str, int]] = {
    "the base's core.jsonl": ("gen-00000001/core.jsonl", 0),
    "the base's manifest.json": ("gen-00000001/manifest.json", 0),
    "the base's directory": ("gen-00000001", 0),
}
"""What of the base (generation 1) of the live delta generation 3 is made unreadable: the
entry and its mode."""


def _planted_on_first(directory: Path) -> None:
    """gen 1 full (the base), gen 2 full and valid (what a fall back would load), gen 3 a
    delta on 1; CURRENT names 3."""
    oracle.write_generation(directory, 1, oracle.encode_core(BASE_ROWS), VERSION, 1)
    oracle.write_generation(directory, 2, oracle.encode_core(OLDER_ROWS), VERSION, 2)
    data = delta_bytes(BASE_ROWS, TARGET_ROWS)
    write_delta(directory, 3, 1, data, _identity(TARGET_ROWS), 3)
    (directory / "CURRENT").write_bytes(b"gen-00000003\n")


@requirement(
    "STATE-DELTA-354",
    "a delta generation whose base exists but cannot be read (its core.jsonl, its manifest or "
    "its directory mode 000, read by an engine that file modes bind) is refused with "
    "STATE_UNREADABLE by state.load and state.open, never fallen back from, and every byte of "
    "the directory is left as it was",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: a base that exists but cannot be read is "
    "STATE_UNREADABLE, as for any entry a load needs",
    strategy=lambda ctx: st.sampled_from(sorted(UNREADABLE_BASE)),
    max_examples=len(UNREADABLE_BASE),
    cover=coverage.each("unreadable", sorted(UNREADABLE_BASE)),
)
def unreadable_base_refused(engine: EngineClient, name: str) -> None:
    from conformance.state.crashstates import snapshot
    from conformance.state.unprivileged import bound_by_modes

    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    entry, mode = UNREADABLE_BASE[name]
    with scratch() as directory:
        _planted_on_first(directory)
        before = snapshot(directory)
        os.chmod(directory / entry, mode)
        try:
            with bound_by_modes(command, engine.transcript) as bound:
                codes = {
                    op: refusal_code(bound, op, directory) for op in ("state.load", "state.open")
                }
        finally:
            os.chmod(directory / entry, 0o755 if entry == "gen-00000001" else 0o644)
        after = snapshot(directory)
    wrong = {op: code or "ok" for op, code in codes.items() if code != "STATE_UNREADABLE"}
    assert not wrong, f"{name} unreadable: not refused with STATE_UNREADABLE: {wrong}"
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    assert changed in ([], ["LOCK"]), f"{name} unreadable: the refused load changed {changed}"
