"""Reserved, sentinel and closed-list values, sent through every op they can arrive by.

The values, their sentences and their places are the table of
:mod:`conformance.reserved_values`; each requirement sends every (value x op x argument)
of its entries, and the near misses of each value, in batches on one engine, and checks
the documented outcome exactly: the code and the field the error names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import oracle
from conformance import reserved_values as table
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch
from conformance.strategies import pack

ZERO_HASH = "0" * 64
ID_RULE = re.compile(rf"{oracle.ID_HEAD}{oracle.ID_TAIL}*")
SCHEMAS = Path(__file__).resolve().parents[1] / "protocol" / "schemas"
BUCKET = ["a", "b", "c", "d", "e"]
REFUSED = "refused"

Probe = tuple[str, str, dict[str, Any], dict[str, Any]]
"""(what is sent, op, args, expected outcome: ``{"ok": True, ...}`` or code and field)."""


def _valid_id(register_id: str) -> bool:
    return len(register_id) <= oracle.MAX_ID_LEN and ID_RULE.fullmatch(register_id) is not None


def _refused(code: str | None, field: str | None) -> dict[str, Any]:
    return {"code": code, "field": field}


def _run(engine: EngineClient, probes: list[Probe]) -> list[Any]:
    """Send *probes* as one batch; fail naming each probe whose outcome is not expected."""
    requests: list[EncodableObject] = [
        {"id": i, "op": op, "args": args} for i, (_, op, args, _) in enumerate(probes)
    ]
    responses = engine.call("batch", {"requests": requests})["responses"]
    assert len(responses) == len(probes), f"{len(probes)} requests, {len(responses)} responses"
    wrong = []
    for (what, op, _, expected), response in zip(probes, responses, strict=True):
        got = _outcome(response)
        if "ok" in expected:
            if got.get("ok") is not True:
                wrong.append(f"{what}: {op} refused it ({got}), the docs accept it")
        elif got != expected:
            wrong.append(f"{what}: {op} answered {got}, the docs say {expected}")
    assert not wrong, f"{len(wrong)} of {len(probes)} wrong:\n" + "\n".join(wrong[:12])
    return list(responses)


def _outcome(response: Any) -> dict[str, Any]:
    if response.get("ok") is True:
        return {"ok": True}
    error = response.get("error") or {}
    return _refused(error.get("code"), error.get("field"))


def _id_rule(register_id: str, loaded: bool) -> dict[str, Any]:
    """The outcome of an ordinary id: *loaded* when valid, else REGISTER_INVALID_ID."""
    if not _valid_id(register_id):
        return _refused("REGISTER_INVALID_ID", "register_id")
    return {"ok": True} if loaded else _refused("REGISTER_NOT_FOUND", "register_id")


def _select(register_id: Any) -> dict[str, Any]:
    return {
        "bucket": BUCKET,
        "trace_hash": ZERO_HASH,
        "register_id": register_id,
        "turn_idx": 7,
        "bucket_name": "openings",
    }


def _decorate(register_id: Any) -> dict[str, Any]:
    return {
        "surface": "A surface.",
        "discourse_markers": {"openings": BUCKET, "closings": BUCKET},
        "register_id": register_id,
        "trace_hash": ZERO_HASH,
        "turn_idx": 7,
    }


def _spellings() -> tuple[str, ...]:
    return (table.UNREGISTERED_ID, *table.near_misses(table.UNREGISTERED_ID))


def _first_batch(spellings: tuple[str, ...]) -> list[Probe]:
    probes: list[Probe] = []
    for spelling in spellings:
        reserved = spelling == table.UNREGISTERED_ID
        what = f"register id {spelling!r}"
        structural = {"ok": True} if reserved else _id_rule(spelling, loaded=True)
        loading = (
            _refused("REGISTER_NOT_FOUND", "register_id")
            if reserved
            else _id_rule(spelling, loaded=False)
        )
        probes += [
            (what, "register.validate", {"pack": pack(spelling)}, structural),
            (what, "register.ratify", {"pack": pack(spelling)}, structural),
            (what, "register.load", {"register_id": spelling, "files": {}}, loading),
            (what, "session.open", {"register_id": spelling}, loading),
            (what, "variation.select", _select(spelling), {"ok": True}),
            (
                f"expected_id {spelling!r} for a pack {table.UNREGISTERED_ID!r}",
                "register.validate",
                {"pack": pack(table.UNREGISTERED_ID), "expected_id": spelling},
                {"ok": True} if reserved else _refused("REGISTER_ID_MISMATCH", "register_id"),
            ),
        ]
    valid = pack("x")
    for spelling in table.NULL_SPELLINGS:
        loading = _id_rule(spelling, loaded=False)
        probes.append(
            (f"the string {spelling!r}", "session.open", {"register_id": spelling}, loading)
        )
    probes += [
        ("null", "session.open", {"register_id": None}, {"ok": True}),
        ("null", "register.load", {"register_id": None, "files": {}}, _bad_args("register_id")),
        ("null", "register.validate", {"pack": valid, "expected_id": None}, {"ok": True}),
        ("null", "register.validate", {"pack": {**valid, "register_id": None}}, _invalid_id()),
        ("null", "variation.select", _select(None), _bad_args("register_id")),
        ('""', "session.open", {"register_id": ""}, _invalid_id()),
        ('""', "register.load", {"register_id": "", "files": {}}, _invalid_id()),
        (
            '""',
            "register.validate",
            {"pack": valid, "expected_id": ""},
            _refused("REGISTER_ID_MISMATCH", "register_id"),
        ),
        ('""', "register.validate", {"pack": pack("")}, _invalid_id()),
        ('""', "variation.select", _select(""), {"ok": True}),
        ('""', "variation.decorate", _decorate(""), {"ok": True}),
        (
            repr(table.UNREGISTERED_ID),
            "variation.decorate",
            _decorate(table.UNREGISTERED_ID),
            {"ok": True},
        ),
    ]
    return probes


def _bad_args(field: str) -> dict[str, Any]:
    return _refused("PROTOCOL_BAD_ARGS", field)


def _invalid_id() -> dict[str, Any]:
    return _refused("REGISTER_INVALID_ID", "register_id")


@requirement(
    "REG-RESERVED-001",
    'the sentinel\'s id "unregistered" is refused by register.load and session.open '
    "(REGISTER_NOT_FOUND, field register_id) even beside its ratified file, passes "
    "register.validate and register.ratify, and is seed text to variation.select and "
    'variation.decorate (as is ""); its near '
    "misses (case, whitespace, prefix, suffix, look-alikes, NFD) follow the id rule; only "
    'null opens the sentinel and "" is no id',
    family="loader",
    capabilities=(
        "batch",
        "registers.validate",
        "registers.ratify",
        "registers.load",
        "sessions",
        "variation",
    ),
    seed="docs/registers.md § No register: the seed's `\"unregistered\"` and the protocol's "
    "`null`; § Loading (step 2); docs/protocol.md § session.open; § variation.select; "
    "§ variation.decorate",
    strategy=lambda ctx: st.just(_spellings()),
    max_examples=1,
)
def reserved_register_id(engine: EngineClient, spellings: tuple[str, ...]) -> None:
    probes = _first_batch(spellings)
    responses = _run(engine, probes)
    files: dict[str, Any] = {}
    opened: list[str] = []
    for (_, op, args, _), response in zip(probes, responses, strict=True):
        if op == "register.ratify" and response.get("ok") is True:
            files[args["pack"]["register_id"]] = dict(response["result"]["files"])
        if op == "register.validate" and response.get("ok") is True:
            echoed = response["result"].get("register_id")
            sent = args["pack"]["register_id"]
            assert echoed == sent, f"register.validate of {sent!r} answered {echoed!r}"
        if op == "variation.select" and response.get("ok") is True:
            index = response["result"].get("index")
            want = oracle.select_index(BUCKET, ZERO_HASH, args["register_id"], 7, "openings")
            assert index == want, (
                f"variation.select with register_id {args['register_id']!r}: index {index!r}, "
                f"the seed formula gives {want}"
            )
        if op == "session.open" and response.get("ok") is True:
            opened.append(response["result"]["session"])
    second: list[Probe] = []
    for spelling, written in sorted(files.items()):
        outcome = (
            _refused("REGISTER_NOT_FOUND", "register_id")
            if spelling == table.UNREGISTERED_ID
            else {"ok": True}
        )
        what = f"register id {spelling!r} beside its ratified file"
        second += [
            (what, "register.load", {"register_id": spelling, "files": written}, outcome),
            (what, "session.open", {"register_id": spelling, "files": written}, outcome),
        ]
    assert table.UNREGISTERED_ID in files, 'register.ratify refused a pack "unregistered"'
    reported: dict[str, Any] = {}
    for (_, op, args, _), response in zip(second, _run(engine, second), strict=True):
        if op == "session.open" and response.get("ok") is True:
            opened.append(response["result"]["session"])
            reported[response["result"]["session"]] = args["register_id"]
    bare = engine.call("session.open", {"register_id": None})["session"]
    reported[bare] = None
    opened.append(bare)
    for session, register_id in sorted(reported.items()):
        said = engine.call("session.chat", {"session": session, "text": "What is light?"})
        assert said.get("register_id") == register_id, (
            f"a session opened with register_id {register_id!r} reports "
            f"{said.get('register_id')!r} in session.chat"
        )
    for session in opened:
        engine.call("session.close", {"session": session})


def op_names() -> tuple[str, ...]:
    """Every op of core-engine/1: one ``args.<op>.json`` schema each."""
    return tuple(sorted(p.name[len("args.") : -len(".json")] for p in SCHEMAS.glob("args.*.json")))


def _with_buckets(extra: str) -> dict[str, list[str]]:
    return {**{name: [] for name in oracle.BUCKET_NAMES}, extra: []}


def _closed_probes() -> list[Probe]:
    probes: list[Probe] = []
    intents = tuple(oracle.INTENT_NAMES)
    for name in intents:
        per_intent = pack("x", overrides={"per_intent": {name: {}}})
        resolve = {"realizer_overrides": {}, "intent": name}
        probes += [
            (f"intent {name!r}", "overrides.resolve", resolve, {"ok": True}),
            (f"intent {name!r}", "register.validate", {"pack": per_intent}, {"ok": True}),
        ]
        for miss in table.near_misses(name, intents):
            field = f"realizer_overrides.per_intent.{miss}"
            probes += [
                (
                    f"intent {miss!r}",
                    "overrides.resolve",
                    {"realizer_overrides": {}, "intent": miss},
                    _bad_args("intent"),
                ),
                (
                    f"intent {miss!r}",
                    "register.validate",
                    {"pack": pack("x", overrides={"per_intent": {miss: {}}})},
                    _refused("REGISTER_UNKNOWN_INTENT", field),
                ),
            ]
    buckets = tuple(oracle.BUCKET_NAMES)
    decorate = {"surface": "s", "register_id": "x", "trace_hash": ZERO_HASH, "turn_idx": 0}
    full: dict[str, list[str]] = {name: [] for name in buckets}
    probes += [
        ("the three buckets", "register.validate", {"pack": pack("x", markers=full)}, {"ok": True}),
        (
            "the three buckets",
            "variation.decorate",
            {**decorate, "discourse_markers": full},
            {"ok": True},
        ),
    ]
    for name in buckets:
        for miss in table.near_misses(name, buckets):
            probes += [
                (
                    f"bucket {miss!r}",
                    "register.validate",
                    {"pack": pack("x", markers=_with_buckets(miss))},
                    _refused("REGISTER_UNKNOWN_BUCKET", f"discourse_markers.{miss}"),
                ),
                (
                    f"bucket {miss!r}",
                    "variation.decorate",
                    {**decorate, "discourse_markers": _with_buckets(miss)},
                    _bad_args("discourse_markers"),
                ),
            ]
    keys = tuple(oracle.OVERRIDE_KEYS)
    probes += [
        (
            "override key",
            "register.validate",
            {"pack": pack("x", overrides={oracle.DEPTH_KEY: 2})},
            {"ok": True},
        ),
        (
            "override key",
            "register.validate",
            {"pack": pack("x", overrides={"per_intent": {}})},
            {"ok": True},
        ),
    ]
    for name in keys:
        for miss in table.near_misses(name, keys):
            probes.append(
                (
                    f"override key {miss!r}",
                    "register.validate",
                    {"pack": pack("x", overrides={miss: 2})},
                    _refused("REGISTER_UNKNOWN_OVERRIDE", f"realizer_overrides.{miss}"),
                )
            )
    for name in table.DEPTH_PREFERENCES:
        probes.append(
            (
                f"depth {name!r}",
                "register.validate",
                {"pack": pack("x", depth_preference=name)},
                {"ok": True},
            )
        )
        for miss in table.near_misses(name, table.DEPTH_PREFERENCES):
            probes.append(
                (
                    f"depth {miss!r}",
                    "register.validate",
                    {"pack": pack("x", depth_preference=miss)},
                    _refused("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"),
                )
            )
    for miss in table.near_misses(oracle.SCHEMA_VERSION, (oracle.SCHEMA_VERSION,)):
        probes.append(
            (
                f"schema version {miss!r}",
                "register.validate",
                {"pack": {**pack("x"), "schema_version": miss}},
                _refused("REGISTER_SCHEMA_VERSION", "schema_version"),
            )
        )
    ops = op_names()
    probes.append(("op 'hello'", "hello", {}, {"ok": True}))
    for name in ops:
        for miss in table.near_misses(name, ops):
            probes.append((f"op {miss!r}", miss, {}, _refused("PROTOCOL_UNKNOWN_OP", "op")))
    return probes


@requirement(
    "PROTO-RESERVED-001",
    "every closed list (op names, intent names, marker buckets, override keys, depth "
    "preferences, schema versions) is matched exactly wherever it arrives: each member is "
    "accepted, and a near miss (case, whitespace, prefix, suffix, look-alike, fullwidth, NFD) "
    "gets the refusal of an unknown name, its code and field",
    family="protocol",
    capabilities=("batch", "registers.validate", "overrides", "variation"),
    seed="docs/protocol.md § Error codes (closed lists are matched exactly); "
    "docs/registers.md § Realizer overrides; § Error codes",
    strategy=lambda ctx: st.just(len(_closed_probes())),
    max_examples=1,
)
def closed_lists_exact(engine: EngineClient, count: int) -> None:
    probes = _closed_probes()
    assert len(probes) == count
    for start in range(0, len(probes), 400):
        _run(engine, probes[start : start + 400])


RECORDS: dict[str, dict[str, Any]] = {
    "candidate": {"key": "a", "lemma": "l", "score": 1, "status": "coherent"},
    "recognizer": {"key": "a", "pattern": "p", "weight": 1},
    "session": {"key": "session", "register_id": None},
}


def _apply(store: str, mutation: dict[str, Any]) -> dict[str, Any]:
    return {"store": store, "mutations": [mutation]}


def _state_probes(store: str) -> list[Probe]:
    probes: list[Probe] = [
        ("op 'turn'", "state.apply", _apply(store, {"op": "turn"}), {"ok": True})
    ]
    kinds = table.KINDS_OF_EVERY_VERSION
    for kind in kinds:
        record = {"kind": kind, **RECORDS[kind]}
        delete = {"op": "delete", "kind": kind, "key": record["key"]}
        probes += [
            (
                f"kind {kind!r}",
                "state.apply",
                _apply(store, {"op": "put", "record": record}),
                {"ok": True},
            ),
            (f"kind {kind!r}", "state.apply", _apply(store, delete), {"ok": True}),
        ]
        for miss in table.near_misses(kind, table.RECORD_KINDS):
            put = {"op": "put", "record": {**record, "kind": miss}}
            gone = {**delete, "kind": miss}
            probes += [
                (
                    f"kind {miss!r} (a put)",
                    "state.apply",
                    _apply(store, put),
                    _refused("STATE_BAD_MUTATION", "mutations[0].record.kind"),
                ),
                (
                    f"kind {miss!r} (a delete)",
                    "state.apply",
                    _apply(store, gone),
                    _refused("STATE_BAD_MUTATION", "mutations[0].kind"),
                ),
            ]
    for name in table.MUTATION_OPS:
        for miss in table.near_misses(name, table.MUTATION_OPS):
            probes.append(
                (
                    f"mutation op {miss!r}",
                    "state.apply",
                    _apply(store, {"op": miss}),
                    _refused("STATE_BAD_MUTATION", "mutations[0].op"),
                )
            )
    return probes


@requirement(
    "STATE-RESERVED-001",
    "the mutation ops (put, delete, turn) and the record kinds are matched exactly: each "
    "is applied, and a near miss (case, whitespace, prefix, suffix, look-alike, fullwidth, "
    "NFD) is STATE_BAD_MUTATION naming mutations[0].op, mutations[0].record.kind (a put) or "
    "mutations[0].kind (a delete)",
    family="state",
    capabilities=("state", "batch"),
    seed="docs/state.md § Mutations; § Refusals; docs/protocol.md § Error codes (closed "
    "lists are matched exactly)",
    strategy=lambda ctx: st.just(table.MUTATION_OPS),
    max_examples=1,
)
def closed_state_lists_exact(engine: EngineClient, ops: tuple[str, ...]) -> None:
    assert ops == table.MUTATION_OPS
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        _run(engine, _state_probes(store))


@requirement(
    "REG-RESERVED-002",
    'register.ratify_file takes the stem "unregistered" as any valid id: the pack file '
    "unregistered.json is ratified in place like its look-alikes, and each report names "
    "its stem",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § No register: the seed's `\"unregistered\"` and the protocol's "
    "`null`; § The ratification gate (step 1); docs/protocol.md § register.ratify_file",
    strategy=lambda ctx: st.just((table.UNREGISTERED_ID, "Unregistered", "unregistered_v1")),
    max_examples=1,
)
def reserved_stem_ratified(engine: EngineClient, stems: tuple[str, ...]) -> None:
    with scratch() as directory:
        for stem in stems:
            path = directory / f"{stem}.json"
            path.write_text(json.dumps(pack(stem), indent=1), encoding="utf-8")
            try:
                answer = engine.call("register.ratify_file", {"path": str(path)})
            except EngineRefused as refusal:
                raise AssertionError(
                    f"register.ratify_file of {path.name} refused it ({refusal.code}, field "
                    f"{refusal.field!r}); the docs take {stem!r} as any valid id"
                ) from None
            named = answer["report"].get("register_id")
            assert named == stem, f"the report of {path.name} names {named!r}"
