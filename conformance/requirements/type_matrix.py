"""The type-confusion matrix (conformance/typed_fields.py) sent to an engine: every argument
of every op, every manifest member and every record field, each with every value of the
wrong type that applies, and the outcome the docs require for it."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.canonical import canonical_json, digest
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, load_many, scratch
from conformance.typed_fields import (
    ENVELOPE_FIELDS,
    LINEAGE_FIELDS,
    MANIFEST_FIELDS,
    MUTATION_FIELDS,
    MV_ZERO,
    PACK_FIELDS,
    PROTOCOL_FIELDS,
    RECORD_FIELDS,
    REPORT_FIELDS,
    Field,
    matrix,
)

HASH = "0" * 64
BIVECTOR = [0, 0, 0, 1, *MV_ZERO[4:]]
LIFE_ONLY = ("life", "vault")

OP_CAPABILITY = {
    "register.validate": "registers.validate",
    "register.ratify": "registers.ratify",
    "register.ratify_file": "registers.ratify_file",
    "register.load": "registers.load",
    "variation.select": "variation",
    "variation.decorate": "variation",
    "overrides.resolve": "overrides",
    "session.open": "sessions",
    "session.chat": "sessions",
    "session.close": "sessions",
    "batch": "batch",
    "engine.fork": "fork",
    "state.soak": "state.soak",
    "state.trace_checkpoint": "state.trace",
}
"""The capability gating each op (docs/protocol.md § Capabilities); ``algebra.*`` and the
other ``state.*`` ops are gated by ``algebra`` and ``state``."""


def op_capability(op: str) -> str:
    return OP_CAPABILITY.get(op) or op.split(".")[0]


def base_args(op: str, directory: Path) -> dict[str, Any]:
    """Well-typed arguments of *op*: one replaced by a wrong value makes the only fault."""
    place = str(directory / "absent")
    mv = {"a": MV_ZERO, "b": MV_ZERO, "x": MV_ZERO, "versor": [1, *MV_ZERO[1:]]}
    bases: dict[str, dict[str, Any]] = {
        "hello": {},
        "lexicon.list": {},
        "register.validate": {"pack": {}},
        "register.ratify": {"pack": {}},
        "register.ratify_file": {"path": f"{place}/x.json"},
        "register.load": {"register_id": "x", "files": {}},
        "variation.select": {
            "bucket": ["So,"],
            "trace_hash": HASH,
            "register_id": "r",
            "turn_idx": 0,
            "bucket_name": "openings",
        },
        "variation.decorate": {
            "surface": "s",
            "discourse_markers": {"openings": [], "closings": []},
            "register_id": "r",
            "trace_hash": HASH,
            "turn_idx": 0,
        },
        "overrides.resolve": {"realizer_overrides": {}, "intent": "DEFINITION"},
        "session.open": {"register_id": None},
        "session.chat": {"session": "no-such-session", "text": "hi"},
        "session.close": {"session": "no-such-session"},
        "batch": {"requests": []},
        "algebra.product": {"a": mv["a"], "b": mv["b"]},
        "algebra.reverse": {"a": mv["a"]},
        "algebra.grade": {"a": mv["a"], "grade": 0},
        "algebra.rotor": {"bivector": BIVECTOR, "angle": 1},
        "algebra.versor_apply": {"versor": mv["versor"], "x": mv["x"]},
        "algebra.versor_condition": {"versor": mv["versor"]},
        "engine.fork": {"socket": f"{place}/socket"},
        "state.open": {"dir": place},
        "state.load": {"dir": place},
        "state.journal": {"dir": place, "name": "proposals"},
        "state.soak": {"dir": place, "iterations": 0, "seed": 0},
        "state.apply": {"store": "no-such-store", "mutations": []},
        "state.propose": {"store": "no-such-store", "proposal": {}},
    }
    return copy.deepcopy(bases.get(op, {"store": "no-such-store"}))


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _claimed_protocol_cases(engine: EngineClient) -> list[tuple[Field, Any]]:
    claimed = engine.capabilities()
    return [
        (field, value)
        for field, value in matrix(PROTOCOL_FIELDS)
        if op_capability(field.place.split(":", 1)[1]) in claimed
        and not (
            field.place == "protocol:session.open"
            and field.name == "files"
            and "registers.load" not in claimed
        )
    ]


@requirement(
    "PROTO-TYPE-001",
    "every argument of every claimed op, given each value of the wrong type that applies "
    "(true/false, 1.0, a numeric string, null unless nullable, -1 for a count, an array or "
    "object for a scalar, an out-of-range integer), is refused with PROTOCOL_BAD_ARGS naming "
    "it; a request's id, op or args of the wrong type is PROTOCOL_BAD_REQUEST naming it",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § Requests (members; Numbers); § Error codes; the Args "
    "of every op; conformance/typed_fields.py",
    max_examples=1,
)
def protocol_types(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        pairs = _claimed_protocol_cases(engine)
        if not pairs:
            return
        pairs = matrix(ENVELOPE_FIELDS) + pairs
        lines = []
        for number, (field, value) in enumerate(pairs):
            if field.place == "request":
                request: dict[str, Any] = {"id": number, "op": "hello", "args": {}}
            else:
                op = field.place.split(":", 1)[1]
                args = base_args(op, root)
                args[field.name] = value
                request = {"id": number, "op": op, "args": args}
            if field.place == "request":
                request[field.name] = value
            lines.append(json.dumps(request, ensure_ascii=False, allow_nan=False))
        responses = engine.raw_lines(("\n".join(lines) + "\n").encode("utf-8"))
    for (field, value), response in zip(pairs, responses, strict=True):
        what = f"{field.place.rpartition(':')[2]} with {field.name} = {_shown(value)}"
        error = response.get("error") if isinstance(response, dict) else None
        if not isinstance(error, dict) or response.get("ok") is not False:
            problems.append(f"{what}: answered {_shown(response)[:80]}, not refused")
        elif (error.get("code"), error.get("field")) != (field.outcome, field.name):
            problems.append(
                f"{what}: {error.get('code')} with field {error.get('field')!r}, expected "
                f"{field.outcome} with field {field.name!r}"
            )
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped argument(s) not refused:")


RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}


def _mistyped_generation(directory: Path, field: Field, value: Any) -> None:
    """gen-1 (named by CURRENT) with *field* of its manifest set to *value* and its checksum
    recomputed (unless the checksum is the field), beside a valid gen-2."""
    oracle.write_generation(directory, 1, oracle.encode_core([RECORD]), turn_count=1)
    oracle.write_generation(directory, 2, oracle.encode_core([]), point=False)
    path = directory / "gen-00000001" / "manifest.json"
    body = {k: v for k, v in json.loads(path.read_bytes()).items() if k != "checksum"}
    body[field.name] = value
    checksum: Any = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    body["checksum"] = value if field.name == "checksum" else checksum
    path.write_bytes(canonical_json(body).encode("utf-8") + b"\n")


@requirement(
    "STATE-TYPE-001",
    "a manifest member of the wrong type (true/false, 1.0, a numeric string, null, -1, an "
    "array or object; its checksum recomputed) makes the generation proven invalid and the "
    "load falls back from it; a mistyped schema_version is STATE_SCHEMA_MALFORMED",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The manifest; § Schema versions; § Recovery rules (load) 4 and 6; "
    "conformance/typed_fields.py",
    max_examples=1,
)
def manifest_types(engine: EngineClient, _: object) -> None:
    pairs = matrix(MANIFEST_FIELDS)
    with scratch() as root:
        directories = []
        for number, (field, value) in enumerate(pairs):
            directory = root / str(number)
            _mistyped_generation(directory, field, value)
            directories.append(directory)
        answers = load_many(engine, directories)
    problems = []
    for (field, value), answer in zip(pairs, answers, strict=True):
        what = f"manifest {field.name} = {_shown(value)}"
        if field.outcome == "STATE_SCHEMA_MALFORMED":
            if answer.get("error") != field.outcome:
                got = (
                    answer.get("error") or f"a load of generation {answer['result']['generation']}"
                )
                problems.append(f"{what}: {got}, expected STATE_SCHEMA_MALFORMED")
            continue
        if "error" in answer:
            problems.append(f"{what}: refused {answer['error']}, not a fall back to gen-00000002")
        elif answer["result"].get("generation") != 2 or not answer["result"].get("recovered"):
            problems.append(
                f"{what}: loaded generation {answer['result'].get('generation')!r} "
                f"(recovered {answer['result'].get('recovered')!r}), not a fall back to 2"
            )
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped manifest(s) misread:")


ADDRESS = "0123456789abcdef" * 4
RECORDS: dict[str, dict[str, Any]] = {
    "candidate": {"kind": "candidate", "key": "k", "lemma": "l", "score": 1, "status": "coherent"},
    "recognizer": RECORD,
    "session": {"kind": "session", "key": "session", "register_id": None},
    "life": {
        "kind": "life",
        "key": "life",
        "turns": 1,
        "context": None,
        "rotor": ["3ff0000000000000"] + ["0000000000000000"] * 31,
    },
    "vault": {
        "kind": "vault",
        "key": ADDRESS,
        "lemma": "light",
        "count": 1,
        "first_turn": 0,
        "last_turn": 0,
        "latest_claim": None,
        "said": [{"claim": None, "text": "t", "turn_idx": 0}],
    },
}
"""A valid record of each kind: one field replaced by a wrong value makes the only fault."""


def _mistyped_mutation(field: Field, value: Any) -> Any:
    """A put (a delete for ``kind`` and ``key``) with *field* set to *value*: a record
    field, or a member of the mutation (the mutation itself for ``mutations[0]``)."""
    if field.place != "mutation":
        record = copy.deepcopy(RECORDS[field.place.split(":", 1)[1]])
        record[field.name] = value
        return {"op": "put", "record": record}
    member = field.name.rpartition(".")[2]
    if member in ("kind", "key"):
        return {"op": "delete", "kind": "recognizer", "key": "k", member: value}
    if member == "mutations[0]":
        return value
    return {"op": "put", "record": copy.deepcopy(RECORD), member: value}


@requirement(
    "STATE-TYPE-002",
    "a state.apply put whose record has one field of the wrong type (true/false, 1.0, -0.0, a "
    "numeric string, null unless nullable, -1 for a count, an array or object for a scalar), "
    "or a mutation, its op, a put's record or a delete's kind or key of the wrong type, is "
    "refused with STATE_BAD_MUTATION naming its path, and changes nothing",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The persistent core (the kinds table); § Mutations; § Refusals; "
    "conformance/typed_fields.py",
    max_examples=1,
)
def record_types(engine: EngineClient, _: object) -> None:
    life = "state.life" in engine.capabilities()
    pairs = [
        (field, value)
        for field, value in matrix(RECORD_FIELDS)
        if life or field.place.split(":", 1)[1] not in LIFE_ONLY
    ] + matrix(MUTATION_FIELDS)
    problems = []
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        before = engine.call("state.digest", {"store": store})
        lines = []
        for number, (field, value) in enumerate(pairs):
            mutation = _mistyped_mutation(field, value)
            request = {
                "id": number,
                "op": "state.apply",
                "args": {"store": store, "mutations": [mutation]},
            }
            lines.append(json.dumps(request, ensure_ascii=False, allow_nan=False))
        responses = engine.raw_lines(("\n".join(lines) + "\n").encode("utf-8"))
        for (field, value), response in zip(pairs, responses, strict=True):
            what = f"{field.place} {field.name} = {_shown(value)}"
            path = field.name if field.place == "mutation" else f"mutations[0].record.{field.name}"
            want = ("STATE_BAD_MUTATION", path)
            error = response.get("error") if isinstance(response, dict) else None
            if not isinstance(error, dict) or response.get("ok") is not False:
                problems.append(f"{what}: stored, not refused")
            elif (error.get("code"), error.get("field")) != want:
                problems.append(
                    f"{what}: {error.get('code')} with field {error.get('field')!r}, expected "
                    f"{want[0]} with field {want[1]!r}"
                )
        after = engine.call("state.digest", {"store": store})
        if (after["identity"], after["dirty"]) != (before["identity"], before["dirty"]):
            problems.append("the refused puts changed the store's identity or made it dirty")
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped record(s) not refused:")


PACK: dict[str, Any] = {
    "register_id": "typed_v1",
    "version": "1",
    "description": "d",
    "schema_version": "1.0.0",
    "display_name": "Typed",
    "depth_preference": "standard",
    "realizer_overrides": {
        "disclosure_domain_count": 2,
        "per_intent": {"DEFINITION": {"disclosure_domain_count": 1}},
    },
    "discourse_markers": {"openings": ["So,"], "transitions": ["Then"], "closings": [""]},
    "mastery_report_sha256": "",
}
"""A structurally valid pack: one member replaced by a wrong value makes the only fault."""


def _set_path(document: dict[str, Any], path: str, value: Any) -> None:
    """Set the member at the dotted *path* (``a.b[0]``) of *document* to *value*."""
    *parents, last = path.split(".")
    node: Any = document
    for name in parents:
        node = node[name]
    if last.endswith("]"):
        name, index = last[:-1].split("[")
        node[name][int(index)] = value
    else:
        node[last] = value


@requirement(
    "LOAD-TYPE-002",
    "every typed member of a register pack (its nine fields, the marker buckets and markers, "
    "disclosure_domain_count and per_intent at both levels), given each value of the wrong "
    "type (true/false, 1.0, a numeric string, null, an array or object, an out-of-range "
    "integer), is refused by register.validate (and register.ratify) with its documented "
    "code naming its path",
    family="loader",
    capabilities=("registers.validate",),
    seed="docs/registers.md § Pack format; § Structural check order; § Error codes; "
    "conformance/typed_fields.py",
    max_examples=1,
)
def pack_types(engine: EngineClient, _: object) -> None:
    ops = ["register.validate"]
    if "registers.ratify" in engine.capabilities():
        ops.append("register.ratify")
    cases_sent = [(op, field, value) for op in ops for field, value in matrix(PACK_FIELDS)]
    lines = []
    for number, (op, field, value) in enumerate(cases_sent):
        pack = copy.deepcopy(PACK)
        _set_path(pack, field.name, value)
        request = {"id": number, "op": op, "args": {"pack": pack}}
        lines.append(json.dumps(request, ensure_ascii=False, allow_nan=False))
    responses = engine.raw_lines(("\n".join(lines) + "\n").encode("utf-8"))
    problems = []
    for (op, field, value), response in zip(cases_sent, responses, strict=True):
        what = f"{op} of a pack with {field.name} = {_shown(value)}"
        error = response.get("error") if isinstance(response, dict) else None
        if not isinstance(error, dict) or response.get("ok") is not False:
            problems.append(f"{what}: answered ok, not refused")
        elif (error.get("code"), error.get("field")) != (field.outcome, field.name):
            problems.append(
                f"{what}: {error.get('code')} with field {error.get('field')!r}, expected "
                f"{field.outcome} with field {field.name!r}"
            )
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped pack member(s):")


BOOT_EVENT: dict[str, Any] = {
    "boot": 1,
    "from_version": None,
    "identity": HASH,
    "parent": None,
    "reason": "fresh",
    "recovered": None,
    "to_version": oracle.BASE_SCHEMA_VERSION,
}
"""A recorded boot event; the mistyped one beside it carries ``boot`` of each wrong type."""


@requirement(
    "STATE-TYPE-003",
    "a recorded lineage event whose boot is not an integer (true/false, 9.0, a numeric "
    "string, null, an array or object) does not count: the next open's event is numbered one "
    "more than the highest integer boot",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Identity and lineage (boot numbering); conformance/typed_fields.py",
    max_examples=1,
)
def lineage_types(engine: EngineClient, _: object) -> None:
    pairs = matrix(LINEAGE_FIELDS)
    problems = []
    with scratch() as root, Stores(engine) as stores:
        for number, (field, value) in enumerate(pairs):
            directory = root / str(number)
            oracle.write_generation(directory, 1, oracle.encode_core([]))
            mistyped = {**BOOT_EVENT, "reason": "resume", field.name: value}
            lineage = oracle.frame(BOOT_EVENT) + oracle.frame(mistyped)
            (directory / "lineage.journal").write_bytes(lineage)
            stores.close(stores.open(directory)["store"])
            entries = engine.call("state.journal", {"dir": str(directory), "name": "lineage"})
            last = entries["entries"][-1] if entries["entries"] else {}
            if last.get("boot") != 2:
                problems.append(
                    f"after an event with boot = {_shown(value)}, the open recorded boot "
                    f"{last.get('boot')!r}, not 2"
                )
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped boot(s) counted:")


REPORT_FIELD = {
    "seal": "mastery_report",
    "register_id": "mastery_report.register_id",
    "verdict": "mastery_report.verdict",
    "pack_source_sha256": "pack_source_sha256",
}
"""The ``field`` of the refusal of each mistyped report member (docs/registers.md § Loading)."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _normal_form(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def _mistyped_pair(files: dict[str, str], rid: str, name: str, value: Any) -> dict[str, str]:
    """The ratified pair with the report's *name* set to *value*, resealed (unless the seal is
    the member) and the pack naming the new seal."""
    report = json.loads(base64.b64decode(files[f"{rid}.mastery_report.json"]))
    body = {k: v for k, v in report.items() if k != "seal"}
    body[name] = value
    seal: Any = value if name == "seal" else digest(body)
    pack = base64.b64decode(files[f"{rid}.json"])
    if name != "seal":
        pack = pack.replace(report["seal"].encode(), seal.encode())
    return {
        f"{rid}.json": _b64(pack),
        f"{rid}.mastery_report.json": _b64(_normal_form({**body, "seal": seal})),
    }


@requirement(
    "LOAD-TYPE-003",
    "a mastery report whose seal, register_id, verdict or pack_source_sha256 is of the wrong "
    "type (true/false, a number, null, an array or object; resealed, the pack naming the new "
    "seal) does not load: REGISTER_SEAL_MISMATCH or REGISTER_TAMPERED with the step's field",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (steps 7 and 9); § Seal scheme; conformance/typed_fields.py",
    max_examples=1,
)
def report_types(engine: EngineClient, _: object) -> None:
    rid = PACK["register_id"]
    files = engine.call("register.ratify", {"pack": PACK})["files"]
    pairs = matrix(REPORT_FIELDS)
    lines = []
    for number, (field, value) in enumerate(pairs):
        args = {"register_id": rid, "files": _mistyped_pair(files, rid, field.name, value)}
        lines.append(json.dumps({"id": number, "op": "register.load", "args": args}))
    responses = engine.raw_lines(("\n".join(lines) + "\n").encode("utf-8"))
    problems = []
    for (field, value), response in zip(pairs, responses, strict=True):
        what = f"a report with {field.name} = {_shown(value)}"
        want = (field.outcome, REPORT_FIELD[field.name])
        error = response.get("error") if isinstance(response, dict) else None
        if not isinstance(error, dict) or response.get("ok") is not False:
            problems.append(f"{what}: loaded, not refused")
        elif (error.get("code"), error.get("field")) != want:
            problems.append(
                f"{what}: {error.get('code')} with field {error.get('field')!r}, expected "
                f"{want[0]} with field {want[1]!r}"
            )
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped report(s) loaded:")


@requirement(
    "STATE-TYPE-004",
    "a generation whose checksums hold but whose core.jsonl holds a record with one field of "
    "the wrong type (the kinds table's types; true/false, 1.0, -0.0, a numeric string, null "
    "unless nullable, an array or object for a scalar) is refused with "
    "STATE_RECORD_MALFORMED, never fallen back from",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The persistent core (the kinds table); § Recovery rules (load) 6; "
    "conformance/typed_fields.py",
    max_examples=1,
)
def core_types(engine: EngineClient, _: object) -> None:
    life = "state.life" in engine.capabilities()
    pairs = [
        (field, value)
        for field, value in matrix(RECORD_FIELDS)
        if life or field.place.split(":", 1)[1] not in LIFE_ONLY
    ]
    with scratch() as root:
        directories = []
        for number, (field, value) in enumerate(pairs):
            kind = field.place.split(":", 1)[1]
            record = copy.deepcopy(RECORDS[kind])
            record[field.name] = value
            core = canonical_json(record).encode("utf-8") + b"\n"
            version = (
                oracle.LIFE_SCHEMA_VERSION if kind in LIFE_ONLY else oracle.BASE_SCHEMA_VERSION
            )
            directory = root / str(number)
            oracle.write_generation(directory, 2, oracle.encode_core([]), point=False)
            oracle.write_generation(directory, 3, core, schema_version=version)
            directories.append(directory)
        answers = load_many(engine, directories)
    problems = []
    for (field, value), answer in zip(pairs, answers, strict=True):
        what = f"a {field.place.split(':', 1)[1]} record with {field.name} = {_shown(value)}"
        if answer.get("error") != "STATE_RECORD_MALFORMED":
            got = answer.get("error") or f"a load of generation {answer['result']['generation']}"
            problems.append(f"{what}: {got}, expected STATE_RECORD_MALFORMED")
    assert not problems, cases.lines(problems, f"{len(problems)} mistyped record(s) read:")
