"""Two faults at once, wherever the docs order the checks: the first check answers.

Each case holds exactly two faults that two different checks would report, and names the
answer of the check the docs put first: docs/protocol.md § Error codes (the line, the
envelope's id, op and args, the op, unknown then missing argument names, argument types,
then the op itself) and docs/registers.md (the structural check order, and loading
steps 5 to 10). A port that checks in another order passes every one-fault requirement
and fails here.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import sealed_json
from conformance.jsontypes import EncodableObject, JSONValue
from conformance.requirements.registry import requirement
from conformance.state.driver import copy_fixture, scratch

ERROR_ORDER = "docs/protocol.md § Error codes (checks run in this order, the first failure answers)"
STRUCTURE_ORDER = "docs/registers.md § Structural check order"
LOADING_ORDER = (
    "docs/registers.md § Loading (steps 5 to 10); § The ratification gate (steps 2 and 3)"
)

SELECT: dict[str, Any] = {
    "bucket": ["a", "b"],
    "trace_hash": "0" * 64,
    "register_id": "r",
    "turn_idx": 0,
    "bucket_name": "openings",
}


@dataclass(frozen=True)
class Expected:
    """The answer the first failing check gives: its code, its field, the id echoed."""

    code: str
    field: str | None
    echoed: JSONValue = None


def _without(args: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k not in names}


def _check_response(name: str, response: object, want: Expected) -> None:
    assert isinstance(response, dict) and response.get("ok") is False, (
        f"{name}: answered {str(response)[:200]}"
    )
    error = response.get("error") or {}
    got = (error.get("code"), error.get("field"))
    assert got == (want.code, want.field), (
        f"{name}: {got[0]} naming {got[1]!r}; the first check in the documented order gives "
        f"{want.code} naming {want.field!r}"
    )
    assert response.get("id") == want.echoed and type(response.get("id")) is type(want.echoed), (
        f"{name}: response id {response.get('id')!r}, expected {want.echoed!r}"
    )


def _expect_refusal(
    engine: EngineClient, name: str, op: str, args: EncodableObject, want: Expected
) -> None:
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == (want.code, want.field), (
            f"{name}: {op} refused with {got[0]} naming {got[1]!r}; the first check in the "
            f"documented order gives {want.code} naming {want.field!r}"
        )
        return
    raise AssertionError(f"{name}: {op} with two faults was answered with ok")


# docs/protocol.md § Error codes -------------------------------------------------------------

LINES: dict[str, tuple[bytes, Expected]] = {
    "a lone surrogate in the id, and no op (the line before the envelope)": (
        b'{"id":"\\ud800","args":{}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "NaN in an argument of an unknown op (the line before the op)": (
        b'{"id":1,"op":"no.such.op","args":{"x":NaN}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "a mistyped id and NaN in an argument (the line before the id)": (
        b'{"id":true,"op":"hello","args":{"x":NaN}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "a lone surrogate in the id of a chat on a session never opened (the line before the op "
    "itself)": (
        b'{"id":"\\ud800","op":"session.chat","args":{"session":"never-opened","text":"hi"}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "args a list holding NaN (the line before args)": (
        b'{"id":1,"op":"hello","args":[NaN]}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "NaN in an unknown argument of hello (the line before argument names)": (
        b'{"id":1,"op":"hello","args":{"colour":NaN}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "a lone surrogate in bucket_name, trace_hash missing (the line before missing names)": (
        b'{"id":1,"op":"variation.select","args":{"bucket":["a"],"register_id":"r",'
        b'"turn_idx":0,"bucket_name":"\\udc00"}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
    "turn_idx an integer of 1,001 digits, bucket a string (the line before types)": (
        b'{"id":1,"op":"variation.select","args":{"bucket":"a","trace_hash":"'
        + b"0" * 64
        + b'","register_id":"r","turn_idx":'
        + b"1" * 1001
        + b',"bucket_name":"openings"}}\n',
        Expected("PROTOCOL_BAD_JSON", None),
    ),
}
"""Two faults in one line, one of them the line's own."""

REQUESTS: dict[str, tuple[EncodableObject, Expected]] = {
    "id true and op a number (id before op)": (
        {"id": True, "op": 5, "args": {}},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
    "id missing and args a list (id before args)": (
        {"op": "hello", "args": []},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
    "op a number and args a string (op before args)": (
        {"id": 3, "op": 5, "args": "x"},
        Expected("PROTOCOL_BAD_REQUEST", "op", 3),
    ),
    "op missing and args a list (op before args)": (
        {"id": "o", "args": []},
        Expected("PROTOCOL_BAD_REQUEST", "op", "o"),
    ),
    "args a list for session.chat, which requires session and text (args before missing names)": (
        {"id": 6, "op": "session.chat", "args": []},
        Expected("PROTOCOL_BAD_REQUEST", "args", 6),
    ),
    "args a list and an unknown op (the envelope before the op)": (
        {"id": 4, "op": "no.such.op", "args": []},
        Expected("PROTOCOL_BAD_REQUEST", "args", 4),
    ),
    "a mistyped id on a chat in a session never opened (the envelope before the op itself)": (
        {"id": True, "op": "session.chat", "args": {"session": "never-opened", "text": "hi"}},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
    "an unknown op and an unknown argument (the op before argument names)": (
        {"id": 5, "op": "no.such.op", "args": {"colour": 1}},
        Expected("PROTOCOL_UNKNOWN_OP", "op", 5),
    ),
    "id a float and an unknown op (the envelope before the op)": (
        {"id": 1.5, "op": "no.such.op", "args": {}},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
    "id null and an unknown argument (the envelope before argument names)": (
        {"id": None, "op": "hello", "args": {"colour": 1}},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
    "id a list and a missing argument (the envelope before argument names)": (
        {"id": [], "op": "session.chat", "args": {"session": "s"}},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
    "id an object and a mistyped argument (the envelope before argument types)": (
        {"id": {}, "op": "session.chat", "args": {"session": 1, "text": "hi"}},
        Expected("PROTOCOL_BAD_REQUEST", "id"),
    ),
}
"""Two faults in one request's envelope and op."""

CALLS: dict[str, tuple[str, EncodableObject, Expected]] = {
    "an unknown argument sorted after a missing one (unknown names before missing ones)": (
        "variation.select",
        {**_without(SELECT, "bucket"), "zzz": 1},
        Expected("PROTOCOL_BAD_ARGS", "zzz"),
    ),
    "an unknown argument and a mistyped one (names before types)": (
        "variation.select",
        {**SELECT, "turn_idx": True, "colour": 1},
        Expected("PROTOCOL_BAD_ARGS", "colour"),
    ),
    "a missing argument and a mistyped one (names before types)": (
        "variation.select",
        {**_without(SELECT, "trace_hash"), "turn_idx": "0"},
        Expected("PROTOCOL_BAD_ARGS", "trace_hash"),
    ),
    "an unknown argument zzz sorted after a mistyped bucket (names before types)": (
        "variation.select",
        {**SELECT, "bucket": "a", "zzz": 1},
        Expected("PROTOCOL_BAD_ARGS", "zzz"),
    ),
    "an unknown argument ttz sorted after a mistyped trace_hash (names before types)": (
        "variation.select",
        {**SELECT, "trace_hash": 5, "ttz": 1},
        Expected("PROTOCOL_BAD_ARGS", "ttz"),
    ),
    "bucket_name missing, bucket mistyped before it in Args order (names before types)": (
        "variation.select",
        {**_without(SELECT, "bucket_name"), "bucket": "a"},
        Expected("PROTOCOL_BAD_ARGS", "bucket_name"),
    ),
    "turn_idx missing, bucket_name sorted before it mistyped (names before types)": (
        "variation.select",
        {**_without(SELECT, "turn_idx"), "bucket_name": 5},
        Expected("PROTOCOL_BAD_ARGS", "turn_idx"),
    ),
    "session.chat without text, on a session that is a number (names before types)": (
        "session.chat",
        {"session": 7},
        Expected("PROTOCOL_BAD_ARGS", "text"),
    ),
    "session.chat without text on a session never opened (names before the op)": (
        "session.chat",
        {"session": "never-opened-by-the-suite"},
        Expected("PROTOCOL_BAD_ARGS", "text"),
    ),
    "session.chat with a number for text on a session never opened (types before the op)": (
        "session.chat",
        {"session": "never-opened-by-the-suite", "text": 5},
        Expected("PROTOCOL_BAD_ARGS", "text"),
    ),
    "session.chat with an unknown argument on a session never opened (names before the op)": (
        "session.chat",
        {"session": "never-opened-by-the-suite", "text": "hi", "colour": 1},
        Expected("PROTOCOL_BAD_ARGS", "colour"),
    ),
}
"""Two faults among a call's arguments, or an argument's and the op's own."""

CASES = sorted([*LINES, *REQUESTS, *CALLS])


@requirement(
    "PROTO-ORDER-001",
    "a request with two faults gets the answer of the check docs/protocol.md runs first: the "
    "line, then the envelope (id, op, args), the op, unknown then missing argument names, "
    "argument types (each over every argument: an unknown name sorted, or a missing one "
    "listed, after a mistyped argument still answers), then the op itself (a mistyped text "
    "before an unknown session)",
    family="protocol",
    capabilities=("variation", "sessions"),
    seed=ERROR_ORDER,
    strategy=lambda ctx: st.sampled_from(CASES),
    cover=coverage.each("two-fault requests", CASES),
)
def protocol_order(engine: EngineClient, name: str) -> None:
    if name in LINES:
        line, want = LINES[name]
        (response,) = engine.raw_lines(line)
        _check_response(name, response, want)
    elif name in REQUESTS:
        request, want = REQUESTS[name]
        _check_response(name, engine.raw(request, checked=False), want)
    else:
        op, args, want = CALLS[name]
        _expect_refusal(engine, name, op, args, want)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


REGISTER_CALLS: dict[str, tuple[str, EncodableObject, Expected]] = {
    "register.validate of a pack missing every field, expected_id a number": (
        "register.validate",
        {"pack": {}, "expected_id": 5},
        Expected("PROTOCOL_BAD_ARGS", "expected_id"),
    ),
    "register.load of an invalid id with a file name holding a separator": (
        "register.load",
        {"register_id": "", "files": {"a/x.json": _b64(b"{}")}},
        Expected("PROTOCOL_BAD_ARGS", "files"),
    ),
    "session.open of a register no file holds, with a file that is not base64": (
        "session.open",
        {"register_id": "no_such_register_v9", "files": {"x.json": "*"}},
        Expected("PROTOCOL_BAD_ARGS", "files"),
    ),
}
"""An argument type fault beside a register refusal the op itself would give."""


@requirement(
    "PROTO-ORDER-002",
    "a mistyped argument is refused before the register op runs: register.validate, "
    "register.load and session.open answer PROTOCOL_BAD_ARGS for it, not the pack's refusal",
    family="protocol",
    capabilities=("registers.validate", "registers.load", "sessions"),
    seed=ERROR_ORDER,
    strategy=lambda ctx: st.sampled_from(sorted(REGISTER_CALLS)),
    cover=coverage.each("two-fault register calls", sorted(REGISTER_CALLS)),
)
def register_call_order(engine: EngineClient, name: str) -> None:
    op, args, want = REGISTER_CALLS[name]
    _expect_refusal(engine, name, op, args, want)


STATE_CALLS = sorted(
    [
        "state.propose of a proposal that is a number to a store never opened",
        "state.apply of mutations that are not a list to a store never opened",
        "state.journal of an unknown journal name in a directory that is a regular file",
    ]
)


def _state_call(name: str, workdir: Path) -> tuple[str, EncodableObject, Expected]:
    if name.startswith("state.propose"):
        return (
            "state.propose",
            {"store": "never-opened-by-the-suite", "proposal": 5},
            Expected("PROTOCOL_BAD_ARGS", "proposal"),
        )
    if name.startswith("state.apply"):
        return (
            "state.apply",
            {"store": "never-opened-by-the-suite", "mutations": {}},
            Expected("PROTOCOL_BAD_ARGS", "mutations"),
        )
    plain = workdir / "a-regular-file"
    plain.write_bytes(b"x")
    return (
        "state.journal",
        {"dir": str(plain), "name": "pending"},
        Expected("PROTOCOL_BAD_ARGS", "name"),
    )


@requirement(
    "PROTO-ORDER-003",
    "a state op with a mistyped argument and a fault of its own (a store never opened, a "
    "directory that is a file) answers PROTOCOL_BAD_ARGS naming the argument",
    family="protocol",
    capabilities=("state",),
    seed=f"{ERROR_ORDER}; docs/state.md § Refusals",
    strategy=lambda ctx: st.sampled_from(STATE_CALLS),
    cover=coverage.each("two-fault state calls", STATE_CALLS),
)
def state_call_order(engine: EngineClient, name: str) -> None:
    with scratch() as workdir:
        op, args, want = _state_call(name, workdir)
        _expect_refusal(engine, name, op, args, want)


FILE_FAULT = "iterations 2^53 (past 2^53 - 1), in a directory that is a regular file"
"""A soak that would never end if accepted: its directory is a file, so an engine that takes
the count answers the file's STATE_IO at once instead of PROTOCOL_BAD_ARGS."""

SOAK_FAULTS: dict[str, tuple[dict[str, Any], str]] = {
    "iterations a string": ({"iterations": "3", "seed": 1}, "iterations"),
    "iterations negative": ({"iterations": -1, "seed": 1}, "iterations"),
    "seed a float": ({"iterations": 2, "seed": 1.0}, "seed"),
    "seed true": ({"iterations": 2, "seed": True}, "seed"),
    FILE_FAULT: ({"iterations": 2**53, "seed": 1}, "iterations"),
}


@requirement(
    "PROTO-ORDER-004",
    "state.soak with a mistyped iterations or seed, or iterations past 2^53 - 1, is refused "
    "(PROTOCOL_BAD_ARGS naming it) before it opens anything: the directory is left as it "
    "was, with no lock or lineage",
    family="protocol",
    capabilities=("state.soak",),
    seed=f"{ERROR_ORDER} (argument types, then the op itself)",
    strategy=lambda ctx: st.sampled_from(sorted(SOAK_FAULTS)),
    cover=coverage.each("mistyped soak arguments", sorted(SOAK_FAULTS)),
)
def soak_types_first(engine: EngineClient, name: str) -> None:
    faults, field = SOAK_FAULTS[name]
    with scratch() as workdir:
        target = workdir / "state"
        if name == FILE_FAULT:
            target.write_bytes(b"x")
        _expect_refusal(
            engine,
            name,
            "state.soak",
            {"dir": str(target), **faults},
            Expected("PROTOCOL_BAD_ARGS", field),
        )
        if name == FILE_FAULT:
            assert target.read_bytes() == b"x", f"{name}: the refused soak changed the file"
            return
        left = sorted(p.name for p in target.iterdir()) if target.exists() else None
        assert left is None, f"{name}: the refused soak left {left} in its directory"


# docs/registers.md § Structural check order -------------------------------------------------


def _base() -> dict[str, Any]:
    markers = {"openings": ["So,"], "closings": [""], "transitions": []}
    return gen.pack("order_v1", overrides={"disclosure_domain_count": 2}, markers=markers)


def _edited(**changes: Any) -> dict[str, Any]:
    pack = _base()
    for key, value in changes.items():
        if value is _DROP:
            del pack[key]
        else:
            pack[key] = value
    return pack


_DROP = object()
TOO_MANY = [f"m{i}" for i in range(33)]
TOO_LONG = "x" * 129


def _markers(**buckets: Any) -> dict[str, Any]:
    return {"openings": ["So,"], "closings": [""], **buckets}


STRUCTURE: dict[str, tuple[dict[str, Any], str | None, Expected]] = {
    "version and schema_version missing (REQUIRED_FIELDS order, not sorted)": (
        _edited(version=_DROP, schema_version=_DROP),
        None,
        Expected("REGISTER_MISSING_FIELD", "version"),
    ),
    "realizer_overrides and discourse_markers missing (REQUIRED_FIELDS order, not sorted)": (
        _edited(realizer_overrides=_DROP, discourse_markers=_DROP),
        None,
        Expected("REGISTER_MISSING_FIELD", "realizer_overrides"),
    ),
    "a missing field and an unknown one (step 2 before 3)": (
        {**_edited(description=_DROP), "colour": "red"},
        None,
        Expected("REGISTER_MISSING_FIELD", "description"),
    ),
    "an unknown field and a non-string version (step 3 before 4)": (
        {**_edited(version=5), "colour": "red"},
        None,
        Expected("REGISTER_MALFORMED", "colour"),
    ),
    "description and version not strings (version first in step 4)": (
        _edited(description=5, version=[]),
        None,
        Expected("REGISTER_MALFORMED", "version"),
    ),
    "mastery_report_sha256 and depth_preference not strings (depth_preference first)": (
        _edited(mastery_report_sha256=5, depth_preference=5),
        None,
        Expected("REGISTER_MALFORMED", "depth_preference"),
    ),
    "a non-string display_name and an unsupported schema_version (step 4 before 5)": (
        _edited(display_name=None, schema_version="9.9.9"),
        None,
        Expected("REGISTER_MALFORMED", "display_name"),
    ),
    "an unsupported schema_version and an empty register_id (step 5 before 6)": (
        _edited(schema_version="9.9.9", register_id=""),
        None,
        Expected("REGISTER_SCHEMA_VERSION", "schema_version"),
    ),
    "an invalid register_id and another expected id (step 6 before 7)": (
        _edited(register_id="bad id"),
        "other_v1",
        Expected("REGISTER_INVALID_ID", "register_id"),
    ),
    "another expected id and an unknown depth_preference (step 7 before 8)": (
        _edited(depth_preference="loud"),
        "other_v1",
        Expected("REGISTER_ID_MISMATCH", "register_id"),
    ),
    "an unknown depth_preference and 33 openings (step 8 before 9)": (
        _edited(depth_preference="loud", discourse_markers=_markers(openings=TOO_MANY)),
        None,
        Expected("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"),
    ),
    "a missing field and an unknown override (step 2 before 10)": (
        _edited(description=_DROP, realizer_overrides={"colour": 1}),
        None,
        Expected("REGISTER_MISSING_FIELD", "description"),
    ),
    "an unknown bucket and an unknown override (step 9 before 10)": (
        _edited(
            discourse_markers=_markers(middles=[]),
            realizer_overrides={"colour": 1},
        ),
        None,
        Expected("REGISTER_UNKNOWN_BUCKET", "discourse_markers.middles"),
    ),
    "an unknown bucket and openings that are not a list (bucket names first)": (
        _edited(discourse_markers=_markers(middles=[], openings="So,")),
        None,
        Expected("REGISTER_UNKNOWN_BUCKET", "discourse_markers.middles"),
    ),
    "transitions and closings not lists (transitions before closings)": (
        _edited(discourse_markers=_markers(transitions="t", closings="c")),
        None,
        Expected("REGISTER_MALFORMED", "discourse_markers.transitions"),
    ),
    "33 openings and transitions not a list (openings first)": (
        _edited(discourse_markers=_markers(openings=TOO_MANY, transitions="t")),
        None,
        Expected("REGISTER_BUCKET_TOO_LARGE", "discourse_markers.openings"),
    ),
    "33 openings, the first a number (a bucket's size before its markers)": (
        _edited(discourse_markers=_markers(openings=[5, *TOO_MANY[1:]])),
        None,
        Expected("REGISTER_BUCKET_TOO_LARGE", "discourse_markers.openings"),
    ),
    "opening 0 too long and opening 1 a number (markers in index order)": (
        _edited(discourse_markers=_markers(openings=[TOO_LONG, 5])),
        None,
        Expected("REGISTER_MARKER_TOO_LONG", "discourse_markers.openings[0]"),
    ),
    "opening 0 a number and opening 1 too long (markers in index order)": (
        _edited(discourse_markers=_markers(openings=[5, TOO_LONG])),
        None,
        Expected("REGISTER_MALFORMED", "discourse_markers.openings[0]"),
    ),
    "an unknown override key and a flat depth out of bounds (keys before values)": (
        _edited(realizer_overrides={"colour": 1, "disclosure_domain_count": 9}),
        None,
        Expected("REGISTER_UNKNOWN_OVERRIDE", "realizer_overrides.colour"),
    ),
    "a flat depth out of bounds and per_intent not an object (flat values first)": (
        _edited(realizer_overrides={"disclosure_domain_count": 9, "per_intent": 5}),
        None,
        Expected("REGISTER_OVERRIDE_OUT_OF_BOUNDS", "realizer_overrides.disclosure_domain_count"),
    ),
    "an unknown intent and a known one out of bounds (intent names first)": (
        _edited(
            realizer_overrides={
                "per_intent": {
                    "definition": {"disclosure_domain_count": 2},
                    "CAUSE": {"disclosure_domain_count": 9},
                }
            }
        ),
        None,
        Expected("REGISTER_UNKNOWN_INTENT", "realizer_overrides.per_intent.definition"),
    ),
    "DEFINITION out of bounds and CAUSE with an unknown key (intents sorted)": (
        _edited(
            realizer_overrides={
                "per_intent": {
                    "DEFINITION": {"disclosure_domain_count": 9},
                    "CAUSE": {"colour": 1},
                }
            }
        ),
        None,
        Expected("REGISTER_UNKNOWN_OVERRIDE", "realizer_overrides.per_intent.CAUSE.colour"),
    ),
    "one intent with two unknown keys, verbosity before colour (its keys sorted)": (
        _edited(realizer_overrides={"per_intent": {"CAUSE": {"verbosity": 1, "colour": 1}}}),
        None,
        Expected("REGISTER_UNKNOWN_OVERRIDE", "realizer_overrides.per_intent.CAUSE.colour"),
    ),
    "one intent with a depth out of bounds and an unknown key (keys before values)": (
        _edited(
            realizer_overrides={
                "per_intent": {"CAUSE": {"disclosure_domain_count": 9, "colour": 1}}
            }
        ),
        None,
        Expected("REGISTER_UNKNOWN_OVERRIDE", "realizer_overrides.per_intent.CAUSE.colour"),
    ),
}
"""Packs with two structural faults, and the refusal of the step that comes first."""

STRING_MEMBERS = (
    "version",
    "description",
    "display_name",
    "depth_preference",
    "mastery_report_sha256",
)
"""The members step 4 checks are strings, in its list's order; ``schema_version`` aside, whose
fault of step 5 touches the same member. A step that checks several members is faulted once
per member, so a port that checks one of them at another step shows it."""

STEP_FAULTS: tuple[tuple[int, str, dict[str, Any], str | None, Expected], ...] = (
    (
        2,
        "description missing",
        {"description": _DROP},
        None,
        Expected("REGISTER_MISSING_FIELD", "description"),
    ),
    (
        3,
        "an unknown field colour",
        {"colour": "red"},
        None,
        Expected("REGISTER_MALFORMED", "colour"),
    ),
    *(
        (4, f"{name} a number", {name: 5}, None, Expected("REGISTER_MALFORMED", name))
        for name in STRING_MEMBERS
    ),
    (
        5,
        "schema_version 9.9.9",
        {"schema_version": "9.9.9"},
        None,
        Expected("REGISTER_SCHEMA_VERSION", "schema_version"),
    ),
    (
        6,
        "register_id bad id",
        {"register_id": "bad id"},
        None,
        Expected("REGISTER_INVALID_ID", "register_id"),
    ),
    (7, "another expected id", {}, "other_v1", Expected("REGISTER_ID_MISMATCH", "register_id")),
    (
        8,
        "depth_preference loud",
        {"depth_preference": "loud"},
        None,
        Expected("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"),
    ),
    (
        9,
        "an unknown bucket",
        {"discourse_markers": _markers(middles=[])},
        None,
        Expected("REGISTER_UNKNOWN_BUCKET", "discourse_markers.middles"),
    ),
    (
        10,
        "an unknown override",
        {"realizer_overrides": {"colour": 1}},
        None,
        Expected("REGISTER_UNKNOWN_OVERRIDE", "realizer_overrides.colour"),
    ),
)
"""One fault of each structural step 2 to 10 (of step 4, one per member), each touching its
own member."""


def _step_pairs() -> dict[str, tuple[dict[str, Any], str | None, Expected]]:
    """Every pair of STEP_FAULTS (i before j, members of one step in their list's order) that
    touch distinct members: both faults in one pack, the first one's refusal."""
    pairs = {}
    for n, (i, first, edits_i, expected_i, want) in enumerate(STEP_FAULTS):
        for j, second, edits_j, expected_j, _ in STEP_FAULTS[n + 1 :]:
            if set(edits_i) & set(edits_j):
                continue
            pack = _edited(**edits_i, **edits_j)
            pairs[f"step {i} before step {j}: {first}, {second}"] = (
                pack,
                expected_i or expected_j,
                want,
            )
    return pairs


STRUCTURE.update(_step_pairs())


@requirement(
    "LOAD-ORDER-001",
    "a pack with two structural faults is refused for the one the structural check order "
    "reaches first: missing fields in REQUIRED_FIELDS order, then unknown fields, string "
    "types, schema, id, expected id, depth, markers (buckets in order, size before markers, "
    "markers by index), overrides (keys before values, intents sorted)",
    family="loader",
    capabilities=("registers.validate",),
    seed=STRUCTURE_ORDER,
    strategy=lambda ctx: st.sampled_from(sorted(STRUCTURE)),
    cover=coverage.each("two-fault packs", sorted(STRUCTURE)),
)
def structural_order(engine: EngineClient, name: str) -> None:
    pack, expected_id, want = STRUCTURE[name]
    args: dict[str, Any] = {"pack": pack}
    if expected_id is not None:
        args["expected_id"] = expected_id
    _expect_refusal(engine, name, "register.validate", args, want)


# docs/registers.md § Loading ---------------------------------------------------------------


def _normal_form(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def _other_seal(seal: str) -> str:
    return ("0" if seal[0] != "0" else "1") + seal[1:]


LOADS = sorted(
    [
        "an unratified pack with an unknown depth_preference (step 5 before 6)",
        "a pack that is not readable JSON (NaN) and lacks fields, no report (step 4 before 5)",
        "a ratified pack edited to an unknown depth_preference, its report beside it (step 5)",
        "a ratified pack whose seal is emptied, its report not JSON (step 6 before 7)",
        "a report that is not JSON and a pack seal that differs (step 7 before 8)",
        "a pack seal that differs and an edited description (step 8 before 9)",
        "an edited description out of normal form (step 9 before 10)",
    ]
)
LOAD_ID = "order_load_v1"
RATIFIES: dict[str, tuple[dict[str, Any], Expected]] = {
    "register.ratify of an empty pack claiming pedagogical depth, version a number "
    "(gate step 2 before the null rule)": (
        {**gen.pack(LOAD_ID, depth_preference="pedagogical"), "version": 5},
        Expected("REGISTER_MALFORMED", "version"),
    ),
    "register.ratify of an empty pack with an unknown depth_preference "
    "(gate step 2 before the null rule)": (
        gen.pack(LOAD_ID, depth_preference="loud"),
        Expected("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"),
    ),
}
"""Packs the ratification gate refuses at its step 2 although its null rule would too."""

BAD_ID = "order load"
UNSEARCHED: dict[str, dict[str, str]] = {
    "an invalid id that no file holds (step 2 before 3)": {},
    "an invalid id whose file is not JSON (step 2 before 4)": {f"{BAD_ID}.json": _b64(b"x")},
    "an invalid id whose file misses every field (step 2 before 5)": {
        f"{BAD_ID}.json": _b64(b"{}\n")
    },
}
"""Loads of the invalid id BAD_ID (a space): refused at step 2 whatever its file holds."""


LOUD = {"depth_preference": "loud"}
EDITED = {"description": "edited"}
BAD_DEPTH = Expected("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference")
NOT_RATIFIED = Expected("REGISTER_NOT_RATIFIED", "mastery_report_sha256")
BAD_REPORT = Expected("REGISTER_SEAL_MISMATCH", "mastery_report")
OTHER_SEAL = Expected("REGISTER_SEAL_MISMATCH", "mastery_report_sha256")
FAR_PAIRS: dict[str, tuple[dict[str, Any], bool, str, bool, Expected]] = {
    "an unknown depth_preference, the report not JSON (step 5 before 7)": (
        LOUD,
        False,
        "not json",
        False,
        BAD_DEPTH,
    ),
    "an unknown depth_preference, a seal that differs (step 5 before 8)": (
        LOUD,
        True,
        "kept",
        False,
        BAD_DEPTH,
    ),
    "an unknown depth_preference out of normal form (step 5 before 10)": (
        LOUD,
        False,
        "kept",
        True,
        BAD_DEPTH,
    ),
    "no report beside an edited description (step 6 before 9)": (
        EDITED,
        False,
        "absent",
        False,
        NOT_RATIFIED,
    ),
    "no report beside a pack out of normal form (step 6 before 10)": (
        {},
        False,
        "absent",
        True,
        NOT_RATIFIED,
    ),
    "the report not JSON and an edited description (step 7 before 9)": (
        EDITED,
        False,
        "not json",
        False,
        BAD_REPORT,
    ),
    "the report not JSON and a pack out of normal form (step 7 before 10)": (
        {},
        False,
        "not json",
        True,
        BAD_REPORT,
    ),
    "a seal that differs and a pack out of normal form (step 8 before 10)": (
        {},
        True,
        "kept",
        True,
        OTHER_SEAL,
    ),
}
"""Two loading faults steps apart: the pack's edits, whether its seal is changed, the
report (kept, absent or not JSON), whether the pack is written out of normal form, and
the answer of the earlier step."""


def _far_case(name: str, pack: dict[str, Any], report: bytes) -> tuple[dict[str, str], Expected]:
    edits, reseal, report_kind, spaced, want = FAR_PAIRS[name]
    edited = {**pack, **edits}
    if reseal:
        edited["mastery_report_sha256"] = _other_seal(pack["mastery_report_sha256"])
    text = _normal_form(edited)
    if spaced:
        text = text.replace(b"{\n", b"{\n\n", 1)
    files = {f"{LOAD_ID}.json": _b64(text)}
    if report_kind != "absent":
        files[f"{LOAD_ID}.mastery_report.json"] = _b64(
            report if report_kind == "kept" else b"not json"
        )
    return files, want


def _load_case(name: str, pack: dict[str, Any], report: bytes) -> tuple[dict[str, str], Expected]:
    """The files of case *name*, made from a sealed *pack* and its *report* bytes."""
    pack_name, report_name = f"{LOAD_ID}.json", f"{LOAD_ID}.mastery_report.json"
    seal = pack["mastery_report_sha256"]
    if name.startswith("an unratified pack"):
        bare = {k: v for k, v in pack.items() if k != "mastery_report_sha256"}
        bare["depth_preference"] = "loud"
        return {pack_name: _b64(_normal_form(bare))}, Expected(
            "REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"
        )
    if name.startswith("a pack that is not readable"):
        return {pack_name: _b64(b'{"register_id": "order_load_v1", "version": NaN}\n')}, Expected(
            "REGISTER_MALFORMED", None
        )
    files = {report_name: _b64(report)}
    if name.startswith("a ratified pack edited"):
        edited = {**pack, "depth_preference": "loud"}
        want = Expected("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference")
    elif name.startswith("a ratified pack whose seal"):
        edited = {**pack, "mastery_report_sha256": ""}
        files[report_name] = _b64(b"not json")
        want = Expected("REGISTER_NOT_RATIFIED", "mastery_report_sha256")
    elif name.startswith("a report that is not JSON"):
        edited = {**pack, "mastery_report_sha256": _other_seal(seal)}
        files[report_name] = _b64(b"not json")
        want = Expected("REGISTER_SEAL_MISMATCH", "mastery_report")
    elif name.startswith("a pack seal that differs"):
        edited = {**pack, "mastery_report_sha256": _other_seal(seal), "description": "edited"}
        want = Expected("REGISTER_SEAL_MISMATCH", "mastery_report_sha256")
    else:
        edited = {**pack, "description": "edited"}
        files[pack_name] = _b64(_normal_form(edited).replace(b"{\n", b"{\n\n", 1))
        return files, Expected("REGISTER_TAMPERED", "pack_source_sha256")
    files[pack_name] = _b64(_normal_form(edited))
    return files, want


LOAD_CASES = sorted([*LOADS, *RATIFIES, *UNSEARCHED, *FAR_PAIRS])


@requirement(
    "LOAD-ORDER-002",
    "a pack file with two loading faults is refused at the first loading step that fails: "
    "an invalid id before any file is searched or read, a structural fault before the "
    "ratification check (and, beside its report, not turned into REGISTER_TAMPERED unless "
    "it is REGISTER_MALFORMED), the seal before the report, the report before the seal "
    "comparison, the seal before the content, the content before the normal form; the "
    "ratification gate's structural checks before its null rule; session.open, loading like "
    "register.load, refuses each two-fault pair given in files at the same step",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed=f"{LOADING_ORDER}; docs/protocol.md § session.open (loaded like register.load)",
    strategy=lambda ctx: st.sampled_from(LOAD_CASES),
    cover=coverage.each("two-fault pack files", LOAD_CASES),
)
def loading_order(engine: EngineClient, name: str) -> None:
    if name in UNSEARCHED:
        args: EncodableObject = {"register_id": BAD_ID, "files": UNSEARCHED[name]}
        _expect_load_refusal(engine, name, args, Expected("REGISTER_INVALID_ID", "register_id"))
        return
    if name in RATIFIES:
        pack, want = RATIFIES[name]
        _expect_refusal(engine, name, "register.ratify", {"pack": pack}, want)
        return
    sealed = ratified_files(engine, gen.pack(LOAD_ID))
    pack = sealed_json(sealed, f"{LOAD_ID}.json")
    report = base64.b64decode(sealed[f"{LOAD_ID}.mastery_report.json"])
    files, want = (_far_case if name in FAR_PAIRS else _load_case)(name, pack, report)
    _expect_load_refusal(engine, name, {"register_id": LOAD_ID, "files": files}, want)


def _expect_load_refusal(
    engine: EngineClient, name: str, args: EncodableObject, want: Expected
) -> None:
    """register.load refuses *args* with *want*; so does session.open, which loads its
    register "like register.load" (docs/protocol.md § session.open), when sessions are
    claimed."""
    _expect_refusal(engine, name, "register.load", args, want)
    if "sessions" in engine.capabilities():
        _expect_refusal(engine, name, "session.open", args, want)


# docs/state.md § Schema versions -------------------------------------------------------------

SCHEMA_FIRST: dict[str, tuple[str, str]] = {
    "a newer schema version and a checksum that does not match": (
        "v6-future",
        "STATE_SCHEMA_TOO_NEW",
    ),
    "a schema version that is a string and a checksum that does not match": (
        "string-version",
        "STATE_SCHEMA_MALFORMED",
    ),
}
"""Fixtures whose manifest gets a second fault, and the refusal the schema check gives."""

FIELDS_FIRST: dict[str, tuple[str, str]] = {
    "a newer schema version in a manifest without its checksum": ("v6-future", "checksum"),
    "a schema version that is a string in a manifest without files": ("string-version", "files"),
}
"""Fixtures whose manifests lose a required field: the schema version is read only once the
manifest has its required fields, so the generation is invalid and, with no other, the
load is STATE_CORRUPT (its field is free, spec.md FREE-008)."""


def _drop_from_manifests(directory: Path, member: str) -> None:
    """Remove *member* from every generation's manifest."""
    for manifest in sorted(directory.glob("gen-*/manifest.json")):
        document = json.loads(manifest.read_text("utf-8"))
        document.pop(member, None)
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        manifest.write_text(text + "\n", "utf-8")


def _break_checksums(directory: Path) -> None:
    """Flip the first hex digit of every generation's manifest checksum."""
    for manifest in sorted(directory.glob("gen-*/manifest.json")):
        document = json.loads(manifest.read_text("utf-8"))
        checksum = str(document["checksum"])
        document["checksum"] = ("0" if checksum[0] != "0" else "1") + checksum[1:]
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        manifest.write_text(text + "\n", "utf-8")


@requirement(
    "STATE-FIRST-001",
    "a manifest with a schema version refusal and a checksum that does not match is refused "
    "for its schema version (STATE_SCHEMA_TOO_NEW or STATE_SCHEMA_MALFORMED, field "
    "schema_version) by load and open: the version is checked before the checksum, so "
    "neither STATE_CORRUPT nor a fall back; and after the required fields, so a manifest "
    "lacking one is invalid (STATE_CORRUPT) whatever its schema version",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Schema versions (checked as soon as the manifest parses, before "
    "its checksum)",
    strategy=lambda ctx: st.sampled_from(sorted([*SCHEMA_FIRST, *FIELDS_FIRST])),
    cover=coverage.each(
        "schema faults beside a bad checksum or a missing field",
        sorted([*SCHEMA_FIRST, *FIELDS_FIRST]),
    ),
)
def schema_before_checksum(engine: EngineClient, name: str) -> None:
    if name in FIELDS_FIRST:
        fixture, member = FIELDS_FIRST[name]
        for op in ("state.load", "state.open"):
            with scratch() as workdir:
                directory = copy_fixture(fixture, workdir)
                _drop_from_manifests(directory, member)
                try:
                    engine.call(op, {"dir": str(directory)}, checked=False)
                except EngineRefused as refusal:
                    assert refusal.code == "STATE_CORRUPT", (
                        f"{name} ({op}): refused with {refusal.code}; a manifest without its "
                        "required fields is invalid before its schema version is read "
                        "(STATE_CORRUPT: no valid generation)"
                    )
                else:
                    raise AssertionError(f"{name} ({op}): answered ok, the docs say STATE_CORRUPT")
        return
    fixture, code = SCHEMA_FIRST[name]
    for op in ("state.load", "state.open"):
        with scratch() as workdir:
            directory = copy_fixture(fixture, workdir)
            _break_checksums(directory)
            _expect_refusal(
                engine,
                f"{name} ({op})",
                op,
                {"dir": str(directory)},
                Expected(code, "schema_version"),
            )
