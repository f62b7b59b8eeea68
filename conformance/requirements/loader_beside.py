"""Beside its report, a pack's structural refusal keeps its code unless it is REGISTER_MALFORMED.

docs/registers.md § Loading, step 5: "When the pack's report is beside it, a
`REGISTER_MALFORMED` of this step or of step 4 is reported as `REGISTER_TAMPERED` with the
same `field` ...; the other structural codes stay as they are." LOAD-ORDER-002 checks one
other code beside a report (`REGISTER_BAD_DEPTH_PREFERENCE`) and LOAD-ID-004 another
(`REGISTER_ID_MISMATCH`), so a loader that also turns a missing field, a bound or an unknown
name into `REGISTER_TAMPERED` ("it was ratified, so it was changed") passes them. Here a
ratified pack is edited, one structural fault per code of § Structural check order, written
back in normal form with its report left beside it: each code stays as it is, with its
field, and each `REGISTER_MALFORMED` becomes `REGISTER_TAMPERED` with the same field.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import sealed_json
from conformance.requirements.registry import requirement

RID = "beside_report_v1"
BASE = gen.pack(
    RID,
    overrides={
        "disclosure_domain_count": 2,
        "per_intent": {"CAUSE": {"disclosure_domain_count": 1}},
    },
    markers={"openings": ["So,", "Right,"], "transitions": [], "closings": [""]},
    depth_preference="terse",
)


def _set(path: tuple[str, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def edit(pack: dict[str, Any]) -> None:
        target = pack
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _drop(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(pack: dict[str, Any]) -> None:
        del pack[name]

    return edit


def _marker(bucket: str, index: int, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(pack: dict[str, Any]) -> None:
        pack["discourse_markers"][bucket][index] = value

    return edit


DM, RO = "discourse_markers", "realizer_overrides"
CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "description removed": (_drop("description"), "REGISTER_MISSING_FIELD", "description"),
    "discourse_markers removed": (_drop(DM), "REGISTER_MISSING_FIELD", DM),
    "schema_version 2.0.0": (
        _set(("schema_version",), "2.0.0"),
        "REGISTER_SCHEMA_VERSION",
        "schema_version",
    ),
    "register_id holding a space": (
        _set(("register_id",), "beside report"),
        "REGISTER_INVALID_ID",
        "register_id",
    ),
    "depth_preference loud": (
        _set(("depth_preference",), "loud"),
        "REGISTER_BAD_DEPTH_PREFERENCE",
        "depth_preference",
    ),
    "an unknown bucket asides": (
        _set((DM, "asides"), []),
        "REGISTER_UNKNOWN_BUCKET",
        f"{DM}.asides",
    ),
    "33 openings": (
        _set((DM, "openings"), [f"m{i}" for i in range(33)]),
        "REGISTER_BUCKET_TOO_LARGE",
        f"{DM}.openings",
    ),
    "opening 1 of 129 characters": (
        _marker("openings", 1, "x" * 129),
        "REGISTER_MARKER_TOO_LONG",
        f"{DM}.openings[1]",
    ),
    "an unknown override key colour": (
        _set((RO, "colour"), 1),
        "REGISTER_UNKNOWN_OVERRIDE",
        f"{RO}.colour",
    ),
    "disclosure_domain_count 4": (
        _set((RO, "disclosure_domain_count"), 4),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        f"{RO}.disclosure_domain_count",
    ),
    "per_intent CAUSE depth 0": (
        _set((RO, "per_intent", "CAUSE", "disclosure_domain_count"), 0),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        f"{RO}.per_intent.CAUSE.disclosure_domain_count",
    ),
    "per_intent key cause (not an intent name)": (
        _set((RO, "per_intent", "cause"), {}),
        "REGISTER_UNKNOWN_INTENT",
        f"{RO}.per_intent.cause",
    ),
    "version a number (malformed: tampered)": (
        _set(("version",), 1),
        "REGISTER_TAMPERED",
        "version",
    ),
    "opening 1 a number (malformed: tampered)": (
        _marker("openings", 1, 7),
        "REGISTER_TAMPERED",
        f"{DM}.openings[1]",
    ),
    "closings null (malformed: tampered)": (
        _set((DM, "closings"), None),
        "REGISTER_TAMPERED",
        f"{DM}.closings",
    ),
}
"""One structural fault per code, the refusal docs/registers.md § Loading step 5 gives it
beside the pack's report."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _normal_form(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


@requirement(
    "LOAD-BESIDE-001",
    "beside its report, a ratified pack edited with one structural fault keeps that fault's "
    "code and field (missing field, schema, invalid id, depth, unknown bucket, bucket size, "
    "marker length, unknown override, override bound, unknown intent); only "
    "REGISTER_MALFORMED becomes REGISTER_TAMPERED, with the same field",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 5: beside the report, REGISTER_MALFORMED is "
    "REGISTER_TAMPERED; the other structural codes stay as they are)",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("structural faults beside the report", sorted(CASES)),
)
def structural_codes_beside_report(engine: EngineClient, name: str) -> None:
    edit, code, field = CASES[name]
    files = ratified_files(engine, BASE)
    pack = json.loads(json.dumps(sealed_json(files, f"{RID}.json")))  # plain, editable
    edit(pack)
    edited = {**files, f"{RID}.json": _b64(_normal_form(pack))}
    try:
        engine.call("register.load", {"register_id": RID, "files": edited})
    except EngineRefused as refusal:
        assert refusal.code == code, (
            f"ratified pack, {name}, its report beside it: refused with {refusal.code}, "
            f"expected {code}"
        )
        assert refusal.field == field, (
            f"ratified pack, {name}, its report beside it: refusal field {refusal.field!r}, "
            f"expected {field!r}"
        )
        return
    raise AssertionError(f"ratified pack, {name}, its report beside it: loaded")
