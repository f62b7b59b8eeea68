"""The loader and the ratification gate: every malformed or tampered pack is refused."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from collections.abc import Callable
from functools import partial
from typing import Any

from hypothesis import strategies as st

from conformance import coverage, near_misses
from conformance import strategies as gen
from conformance.canonical import digest
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import member, sealed_json
from conformance.jsontypes import JSONEncodable
from conformance.oracle import (
    BUCKET_NAMES,
    DEPTH_KEY,
    MAX_BUCKET,
    MAX_MARKER_LEN,
    OVERRIDE_KEYS,
    PACK_FIELDS,
    PER_INTENT_KEY,
    REPORT_KEYS,
    REQUIRED_PACK_FIELDS,
    SCHEMA_VERSION,
    SEAL_FIELD,
    STRING_FIELDS,
    valid_depth,
)
from conformance.requirements.registry import requirement

LOADER = "ADR-0070 § Trust boundaries; ADR-0071 § Trust boundaries (loader bounds)"
GATE = "ADR-0070 § The R3 ratification gate; ADR-0071 § Ratify gate widening"
SEAL = "ADR-0070 § The new pack (mastery_report_sha256 and the self-sealed report)"


def _validate(
    engine: EngineClient, document: JSONEncodable, expected_id: str | None = None
) -> dict[str, Any]:
    return engine.call("register.validate", {"pack": document, "expected_id": expected_id})


def _refusal(call: Callable[[], object]) -> EngineRefused | None:
    try:
        call()
    except EngineRefused as refusal:
        return refusal
    return None


def _expect_code(
    call: Callable[[], object], code: str, what: str, field: str | None = None
) -> EngineRefused:
    """The call is refused with *code*; with *field*, the refusal names that field too."""
    refusal = _refusal(call)
    assert refusal is not None, f"{what}: accepted, expected {code}"
    assert refusal.code == code, f"{what}: refused with {refusal.code}, expected {code}"
    if field is not None:
        _names_field(refusal, field, what)
    return refusal


def _expect_load_refusal(
    call: Callable[[], object], code: str, what: str, field: str | None
) -> EngineRefused:
    """The call is refused with *code* and exactly *field* (``None``: no field); the
    message of a load or seal refusal is free text (docs/registers.md § Loading)."""
    refusal = _expect_code(call, code, what)
    assert refusal.field == field, f"{what}: refusal field {refusal.field!r}, expected {field!r}"
    return refusal


def _names_field(refusal: EngineRefused, field: str, what: str) -> None:
    """``field`` is the offending field's dotted path, and the message names the field
    (its last path component, when that is printable)."""
    assert refusal.field == field, f"{what}: refusal field {refusal.field!r}, expected {field!r}"
    name = field.rsplit(".", 1)[-1]
    if name.isprintable() and not any(c in name for c in "'\\\""):
        assert name in refusal.message, f"{what}: message {refusal.message!r} omits {name!r}"


@requirement(
    "LOAD-VALID-001",
    "every structurally valid pack is accepted by register.validate",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: gen.valid_packs(),
    cover=coverage.override_packs,
)
def valid_packs_accepted(engine: EngineClient, document: dict[str, Any]) -> None:
    got = _validate(engine, document, document["register_id"])
    assert got["register_id"] == document["register_id"]


@requirement(
    "LOAD-ID-001",
    "invalid register ids (empty, separators, '..', control characters, over 64, a character "
    "outside the class), the offending character first, inside, last or alone (a trailing "
    "newline, a space a trim would drop), are refused with REGISTER_INVALID_ID",
    family="loader",
    capabilities=("registers.validate",),
    seed="ADR-0070 § Trust boundaries (path-traversal protection)",
    strategy=lambda ctx: gen.invalid_ids,
    cover=coverage.broken_ids,
)
def invalid_ids_refused(engine: EngineClient, register_id: str) -> None:
    _expect_code(
        lambda: _validate(engine, gen.pack(register_id)),
        "REGISTER_INVALID_ID",
        f"id {register_id!r}",
        "register_id",
    )


def _missing_fields(ctx: object) -> coverage.Plan:
    """Each required field left out of a null pack and of one with a marker in every
    bucket: a port that defaults one field (an empty ``realizer_overrides``) is refused."""
    packs = {
        "null pack": gen.pack("cover_missing"),
        "markers pack": gen.pack("cover_missing", markers={b: ["m"] for b in BUCKET_NAMES}),
    }
    cases = tuple(
        coverage.Case([document, name], (("required fields", name), ("pack kinds", kind)))
        for name in REQUIRED_PACK_FIELDS
        for kind, document in packs.items()
    )
    return coverage.Plan(
        cases, (("required fields", len(REQUIRED_PACK_FIELDS)), ("pack kinds", len(packs)))
    )


@requirement(
    "LOAD-FIELD-001",
    "a pack missing a required field is refused with REGISTER_MISSING_FIELD naming it",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(gen.valid_packs(), st.sampled_from(REQUIRED_PACK_FIELDS)).map(
        list
    ),
    cover=_missing_fields,
)
def missing_field(engine: EngineClient, scenario: list[Any]) -> None:
    document, name = scenario
    broken = {k: v for k, v in document.items() if k != name}
    _expect_code(
        lambda: _validate(engine, broken), "REGISTER_MISSING_FIELD", f"without {name}", name
    )


@requirement(
    "LOAD-SCHEMA-001",
    "an unsupported schema_version is refused with REGISTER_SCHEMA_VERSION",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(
        gen.valid_packs(), st.text(max_size=10).filter(lambda v: v != SCHEMA_VERSION)
    ).map(list),
    cover=near_misses.schema_versions,
)
def unsupported_schema(engine: EngineClient, scenario: list[Any]) -> None:
    document, version = scenario
    _expect_code(
        lambda: _validate(engine, {**document, "schema_version": version}),
        "REGISTER_SCHEMA_VERSION",
        f"schema_version {version!r}",
        "schema_version",
    )


@requirement(
    "LOAD-ID-002",
    "a pack whose register_id differs from the id it is loaded by is refused with "
    "REGISTER_ID_MISMATCH",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(gen.valid_packs(), gen.register_ids).map(list),
    cover=near_misses.expected_ids,
)
def id_mismatch(engine: EngineClient, scenario: list[Any]) -> None:
    document, other = scenario
    if other == document["register_id"]:
        other += "x"
    _expect_code(
        lambda: _validate(engine, document, other),
        "REGISTER_ID_MISMATCH",
        f"{document['register_id']!r} loaded as {other!r}",
        "register_id",
    )


@requirement(
    "LOAD-BOUND-001",
    f"a marker of exactly {MAX_MARKER_LEN} characters is accepted and one of "
    f"{MAX_MARKER_LEN + 1} is refused "
    "(REGISTER_MARKER_TOO_LONG)",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(
        gen.register_ids, st.sampled_from(BUCKET_NAMES), st.characters(codec="utf-8")
    ).map(list),
    cover=coverage.marker_widths,
)
def marker_length_bound(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, bucket, char = scenario
    markers = {name: ["x"] for name in BUCKET_NAMES}
    at_limit = gen.pack(register_id, markers={**markers, bucket: [char * MAX_MARKER_LEN]})
    _validate(engine, at_limit)
    past = gen.pack(register_id, markers={**markers, bucket: [char * (MAX_MARKER_LEN + 1)]})
    _expect_code(
        lambda: _validate(engine, past),
        "REGISTER_MARKER_TOO_LONG",
        f"{MAX_MARKER_LEN + 1} x {char!r}",
        f"discourse_markers.{bucket}[0]",
    )


@requirement(
    "LOAD-BOUND-002",
    f"a bucket of exactly {MAX_BUCKET} markers is accepted and one of {MAX_BUCKET + 1} is refused "
    "(REGISTER_BUCKET_TOO_LARGE)",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(BUCKET_NAMES)).map(list),
)
def bucket_size_bound(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, bucket = scenario
    markers = {name: ["x"] for name in BUCKET_NAMES}
    _validate(engine, gen.pack(register_id, markers={**markers, bucket: ["m"] * MAX_BUCKET}))
    past = gen.pack(register_id, markers={**markers, bucket: ["m"] * (MAX_BUCKET + 1)})
    _expect_code(
        lambda: _validate(engine, past),
        "REGISTER_BUCKET_TOO_LARGE",
        f"{MAX_BUCKET + 1} in {bucket}",
        f"discourse_markers.{bucket}",
    )


@requirement(
    "LOAD-BOUND-003",
    "disclosure_domain_count in {1, 2, 3} is accepted, anything else refused "
    "(REGISTER_OVERRIDE_OUT_OF_BOUNDS), flat or per_intent",
    family="loader",
    capabilities=("registers.validate",),
    seed=GATE,
    strategy=lambda ctx: st.tuples(
        gen.register_ids, st.one_of(gen.depths, gen.malformed_depths), gen.intents, st.booleans()
    ).map(list),
    cover=coverage.depth_bounds,
)
def override_bounds(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, value, intent, scoped = scenario
    entry = {DEPTH_KEY: value}
    overrides = {PER_INTENT_KEY: {intent: entry}} if scoped else entry
    where = f"realizer_overrides.per_intent.{intent}" if scoped else "realizer_overrides"
    document = gen.pack(register_id, overrides=overrides, depth_preference="terse")
    if valid_depth(value):
        _validate(engine, document)
    else:
        _expect_code(
            lambda: _validate(engine, document),
            "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
            f"depth {value!r}",
            f"{where}.{DEPTH_KEY}",
        )


@requirement(
    "LOAD-KEY-001",
    "an override key outside the allow-list is refused with REGISTER_UNKNOWN_OVERRIDE naming it",
    family="loader",
    capabilities=("registers.validate",),
    seed=GATE,
    strategy=lambda ctx: st.tuples(
        gen.register_ids,
        st.text(min_size=1, max_size=20).filter(lambda k: k not in OVERRIDE_KEYS),
        st.booleans(),
        gen.intents,
    ).map(list),
)
def unknown_override_key(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, key, scoped, intent = scenario
    overrides = {"per_intent": {intent: {key: 1}}} if scoped else {key: 1}
    where = f"realizer_overrides.per_intent.{intent}" if scoped else "realizer_overrides"
    document = gen.pack(register_id, overrides=overrides, depth_preference="terse")
    _expect_code(
        lambda: _validate(engine, document),
        "REGISTER_UNKNOWN_OVERRIDE",
        f"key {key!r}",
        f"{where}.{key}",
    )


def _other_seal(seal: str) -> str:
    """A well-formed seal that differs from *seal* in its first hex digit."""
    return ("0" if seal[0] != "0" else "1") + seal[1:]


def _load(engine: EngineClient, register_id: str, files: dict[str, str]) -> dict[str, Any]:
    return engine.call("register.load", {"register_id": register_id, "files": files})


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@requirement(
    "LOAD-SEAL-001",
    "a pack that was never ratified does not load (REGISTER_NOT_RATIFIED, field "
    "mastery_report_sha256)",
    family="loader",
    capabilities=("registers.load",),
    seed=SEAL,
    strategy=lambda ctx: gen.valid_packs(),
    max_examples=15,
    cover=coverage.unratified_packs,
)
def not_ratified(engine: EngineClient, document: dict[str, Any]) -> None:
    rid = document["register_id"]
    files = {f"{rid}.json": _b64(json.dumps(document, sort_keys=True, indent=2).encode() + b"\n")}
    _expect_load_refusal(
        lambda: _load(engine, rid, files), "REGISTER_NOT_RATIFIED", "unratified pack", SEAL_FIELD
    )


@requirement(
    "LOAD-SEAL-002",
    "a pack whose seal does not match its report does not load (REGISTER_SEAL_MISMATCH, "
    "field mastery_report_sha256)",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed=SEAL,
    strategy=lambda ctx: st.tuples(gen.valid_packs(), gen.valid_packs()).map(list),
    max_examples=25,
    cover=coverage.pack_pairs,
)
def seal_mismatch(engine: EngineClient, scenario: list[Any]) -> None:
    first, second = scenario
    rid = first["register_id"]
    other = {**copy.deepcopy(second), "register_id": rid, "description": "another pack"}
    files, other_files = ratified_files(engine, first), ratified_files(engine, other)
    report = f"{rid}.mastery_report.json"
    swapped = {**files, report: other_files[report]}
    _expect_load_refusal(
        lambda: _load(engine, rid, swapped),
        "REGISTER_SEAL_MISMATCH",
        "pack with another pack's report",
        SEAL_FIELD,
    )
    raw = base64.b64decode(files[f"{rid}.json"])
    seal = json.loads(raw)[SEAL_FIELD]
    forged = raw.replace(seal.encode(), _other_seal(seal).encode())
    _expect_load_refusal(
        lambda: _load(engine, rid, {**files, f"{rid}.json": _b64(forged)}),
        "REGISTER_SEAL_MISMATCH",
        "pack naming a seal its own report does not have",
        SEAL_FIELD,
    )


@requirement(
    "LOAD-SEAL-004",
    "a ratified pack whose mastery_report_sha256 is then left out or emptied does not load "
    "with its report still beside it: REGISTER_NOT_RATIFIED, field mastery_report_sha256 "
    "(a load needs both the seal and the report)",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 6: the seal non-empty and the report present)",
    strategy=lambda ctx: st.tuples(gen.valid_packs(), st.sampled_from(["absent", "empty"])).map(
        list
    ),
    max_examples=6,
    cover=coverage.unsealed_beside_report,
)
def seal_removed_beside_report(engine: EngineClient, scenario: list[Any]) -> None:
    document, how = scenario
    rid = document["register_id"]
    files = ratified_files(engine, document)
    pack = sealed_json(files, f"{rid}.json")
    if how == "absent":
        del pack[SEAL_FIELD]
    else:
        pack[SEAL_FIELD] = ""
    _expect_load_refusal(
        lambda: _load(engine, rid, {**files, f"{rid}.json": _b64(_normal_form(pack))}),
        "REGISTER_NOT_RATIFIED",
        f"ratified pack, its seal {how}, its report beside it",
        SEAL_FIELD,
    )


@requirement(
    "LOAD-TAMPER-001",
    "a ratified pack loads, and any edit of its file (a byte anywhere, a field's content, "
    "whitespace alone, bytes that are not JSON, an unknown field) makes it refuse to load, "
    "REGISTER_TAMPERED with the field of the fault",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="ADR-0070 § Trust boundaries (self-seal still verified)",
    strategy=lambda ctx: st.tuples(
        gen.valid_packs(), st.integers(0, 2**32), st.integers(1, 255), st.text(max_size=20)
    ).map(list),
    max_examples=50,
    cover=coverage.tampered_packs,
)
def tampered_pack_refused(engine: EngineClient, scenario: list[Any]) -> None:
    document, position, delta, description = scenario
    rid = document["register_id"]
    files = ratified_files(engine, document)
    assert _load(engine, rid, files)["pack"]["register_id"] == rid, "the ratified pack"
    raw = base64.b64decode(files[f"{rid}.json"])
    for what, edited, code, field in _edits(raw, position, delta, description):
        refusal = _refusal(partial(_load, engine, rid, {**files, f"{rid}.json": _b64(edited)}))
        assert refusal is not None, f"{what}, and the pack still loads"
        assert refusal.code.startswith(code), f"{what}: refused with {refusal.code}, not {code}"
        if field != ANY_FIELD:
            assert refusal.field == field, f"{what}: refusal field {refusal.field!r}, not {field!r}"


def _edits(raw: bytes, position: int, delta: int, description: str) -> list[Edit]:
    """A byte changed at a position spread evenly over the file (any REGISTER_ code: it may
    break the JSON or the seal); then REGISTER_TAMPERED (docs/registers.md § Loading) for a
    field's content (pack_source_sha256 no longer matches), whitespace alone (not the normal
    form: no field), the last bytes cut (not JSON: no field), a JSON array (not a pack: no
    field) and an unknown top-level field
    (malformed beside its report: that field)."""
    index = int(hashlib.sha256(b"%d" % position).hexdigest(), 16) % len(raw)
    flipped = bytearray(raw)
    flipped[index] = (flipped[index] + delta) % 256
    pack = json.loads(raw)
    old = json.dumps(pack["description"], ensure_ascii=False).encode()
    new = json.dumps(description + "!", ensure_ascii=False).encode()
    return [
        (f"byte {index} changed by +{delta}", bytes(flipped), "REGISTER_", ANY_FIELD),
        ("the description's content changed", raw.replace(old, new, 1), TAMPERED, SOURCE),
        ("a space added before the first newline", raw.replace(b"\n", b" \n", 1), TAMPERED, None),
        ("the closing brace cut (not JSON)", raw.rstrip()[:-1], TAMPERED, None),
        ("the pack replaced by a JSON array (not an object)", b"[]\n", TAMPERED, None),
        ("an unknown top-level field added", _normal_form({**pack, EXTRA: "x"}), TAMPERED, EXTRA),
    ]


TAMPERED = "REGISTER_TAMPERED"
SOURCE = "pack_source_sha256"
EXTRA = "zz_unratified"
ANY_FIELD = "<any field>"
Edit = tuple[str, bytes, str, str | None]


@requirement(
    "LOAD-ID-004",
    "a ratified pack and its report loaded under another id (both files renamed) are refused "
    "with REGISTER_ID_MISMATCH naming register_id: the file stem is the id",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 5: parse_pack with expected_id = id); "
    "§ Fields (register_id equal to the file stem)",
    strategy=lambda ctx: st.tuples(gen.valid_packs(), gen.register_ids).map(list),
    max_examples=10,
    cover=near_misses.numeric_twins,
)
def renamed_pack_refused(engine: EngineClient, scenario: list[Any]) -> None:
    document, other = scenario
    rid = document["register_id"]
    if other == rid:
        other = f"{rid[:60]}_alt"
    files = ratified_files(engine, document)
    renamed = {
        f"{other}.json": files[f"{rid}.json"],
        f"{other}.mastery_report.json": files[f"{rid}.mastery_report.json"],
    }
    what = f"the ratified pack {rid!r} loaded as {other!r}"
    _expect_code(
        partial(_load, engine, other, renamed), "REGISTER_ID_MISMATCH", what, "register_id"
    )


@requirement(
    "LOAD-FOUND-001",
    "loading an id with no pack file is refused with REGISTER_NOT_FOUND, field register_id",
    family="loader",
    capabilities=("registers.load",),
    seed=LOADER,
    strategy=lambda ctx: gen.register_ids.map(lambda r: f"absent_{r}"),
)
def not_found(engine: EngineClient, register_id: str) -> None:
    _expect_load_refusal(
        lambda: _load(engine, register_id, {}), "REGISTER_NOT_FOUND", register_id, "register_id"
    )


METHODS = {
    "null": ["byte_identity_null_lift"],
    "overrides": ["known_key_overrides_invariant_grounding"],
    "markers": ["seeded_variation_replay_equivalence"],
}


@requirement(
    "LOAD-RATIFY-001",
    "the ratify gate labels methods by pack kind, reports transitions as reserved, refuses an "
    "empty non-null pack (REGISTER_EMPTY_NON_NULL naming depth_preference) and is idempotent: "
    "the pack ratified again, or with its mastery_report_sha256 empty or stale, gives the "
    "same files",
    family="loader",
    capabilities=("registers.ratify",),
    seed=GATE,
    strategy=lambda ctx: gen.valid_packs(),
    max_examples=60,
)
def ratify_gate(engine: EngineClient, document: dict[str, Any]) -> None:

    result = engine.call("register.ratify", {"pack": document})
    report = result["report"]
    markers = document["discourse_markers"]
    expected = _methods(document)
    assert sorted(report["methods"]) == expected, f"methods {report['methods']}, want {expected}"
    reserved = report["evidence"]["transitions_reserved"]
    assert reserved == bool(markers["transitions"]), f"transitions_reserved {reserved}"
    sealed = sealed_json(result["files"], f"{document['register_id']}.json")
    again = engine.call("register.ratify", {"pack": sealed})
    assert again["files"] == result["files"], "ratifying the ratified pack changed its files"
    for label, seal in (("empty", ""), ("stale", "0" * 64)):
        resealed = engine.call("register.ratify", {"pack": {**document, SEAL_FIELD: seal}})
        assert resealed["files"] == result["files"], (
            f"ratifying the pack with an {label} mastery_report_sha256 gave other files: the "
            "gate recomputes the seal (docs/registers.md § The ratification gate)"
        )
    empty = {
        **document,
        "realizer_overrides": {},
        "depth_preference": "terse",
        "discourse_markers": {name: [] for name in BUCKET_NAMES},
    }
    _expect_code(
        lambda: engine.call("register.ratify", {"pack": empty}),
        "REGISTER_EMPTY_NON_NULL",
        "a terse pack with nothing in it",
        "depth_preference",
    )


@requirement(
    "LOAD-VALID-002",
    "every optional-part variant of a valid pack is accepted: buckets left out, "
    "mastery_report_sha256 absent, empty or any string, an id of 64 characters",
    family="loader",
    capabilities=("registers.validate",),
    seed="ADR-0070 § Trust boundaries; docs/registers.md § Pack format",
    strategy=lambda ctx: gen.pack_variants(),
    cover=near_misses.pack_variants,
)
def optional_variants_accepted(engine: EngineClient, document: dict[str, Any]) -> None:
    got = _validate(engine, document, document["register_id"])
    assert got["register_id"] == document["register_id"], f"register_id {got['register_id']!r}"


@requirement(
    "LOAD-FIELD-002",
    "a pack with an unknown top-level field is refused with REGISTER_MALFORMED naming it",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(
        gen.valid_packs(),
        st.text(min_size=1, max_size=20).filter(lambda k: k not in PACK_FIELDS),
    ).map(list),
    cover=near_misses.unknown_fields,
)
def unknown_top_level_field(engine: EngineClient, scenario: list[Any]) -> None:
    document, names = scenario
    names = names if isinstance(names, list) else [names]
    first = min(names)
    extra = {name: "extra" for name in names}
    _expect_code(
        lambda: _validate(engine, {**document, **extra}),
        "REGISTER_MALFORMED",
        f"unknown fields {names!r} (the first in code point order named)",
        first,
    )


def _retyped(
    document: dict[str, Any], where: str, value: object, index: int
) -> tuple[dict[str, Any], str, str]:
    """*document* with the part *where* replaced by a non-string *value*: (pack, code, field)."""
    broken = copy.deepcopy(document)
    if where in STRING_FIELDS:
        broken[where] = value
        return broken, "REGISTER_MALFORMED", where
    if where == "register_id":
        broken[where] = value
        return broken, "REGISTER_INVALID_ID", where
    bucket = where.split(".")[1]
    markers: dict[str, list[object]] = {name: ["m"] * (index + 1) for name in BUCKET_NAMES}
    markers[bucket][index] = value
    broken["discourse_markers"] = markers
    return broken, "REGISTER_MALFORMED", f"{where}[{index}]"


@requirement(
    "LOAD-TYPE-001",
    "a non-string where a string is required (string fields, register_id, a marker) is "
    "refused with its code and the field's path, bools and numbers included",
    family="loader",
    capabilities=("registers.validate",),
    seed="docs/registers.md § Structural check order (steps 4 and 6; markers in step 9)",
    strategy=lambda ctx: st.tuples(
        gen.valid_packs(),
        st.sampled_from(
            (*STRING_FIELDS, "register_id", *(f"discourse_markers.{b}" for b in BUCKET_NAMES))
        ),
        gen.non_strings,
        st.integers(0, 3),
    ).map(list),
    cover=coverage.wrong_types,
)
def non_strings_refused(engine: EngineClient, scenario: list[Any]) -> None:
    document, where, value, index = scenario
    broken, code, field = _retyped(document, where, value, index)
    _expect_code(lambda: _validate(engine, broken), code, f"{field} = {value!r}", field)


def _normal_pack(document: dict[str, Any]) -> dict[str, Any]:
    """The pack as the normal form carries it: all three buckets, no seal field."""
    markers = {name: document["discourse_markers"].get(name, []) for name in BUCKET_NAMES}
    body = {k: v for k, v in document.items() if k != SEAL_FIELD}
    return {**body, "discourse_markers": markers}


def expected_report(document: dict[str, Any]) -> dict[str, Any]:
    """The sealed report the gate must write for *document*, from docs/registers.md."""
    pack = _normal_pack(document)
    markers, overrides = pack["discourse_markers"], pack["realizer_overrides"]
    null = not _kinds(pack)
    report = {
        "register_id": pack["register_id"],
        "pack_version": pack["version"],
        "pack_source_sha256": digest(pack),
        "schema_version": SCHEMA_VERSION,
        "verdict": "ratified",
        "methods": _methods(pack),
        "evidence": {
            "marker_bucket_sizes": {name: len(markers[name]) for name in BUCKET_NAMES},
            "per_intent_keys": sorted(overrides.get(PER_INTENT_KEY, {})),
            "transitions_reserved": bool(markers["transitions"]),
            "realizer_overrides_keys": sorted(overrides),
            "null_register": null,
        },
    }
    return {**report, "seal": digest(report)}


def _kinds(pack: dict[str, Any]) -> set[str]:
    """What a pack changes: ``overrides``, ``markers`` (openings or closings), or nothing."""
    markers = pack["discourse_markers"]
    kinds = {"overrides"} if pack["realizer_overrides"] else set()
    return kinds | ({"markers"} if markers["openings"] or markers["closings"] else set())


def _methods(pack: dict[str, Any]) -> list[str]:
    """The sorted ratification methods of a pack: by what it changes, or the null method."""
    return sorted(m for kind in _kinds(pack) or {"null"} for m in METHODS[kind])


@requirement(
    "LOAD-RATIFY-002",
    "the ratify report has exactly the keys and values the seal scheme fixes (pack_version, "
    "pack_source_sha256, schema_version, verdict, methods, evidence with per_intent_keys, "
    "self-seal), in the report file and the result alike",
    family="loader",
    capabilities=("registers.ratify",),
    seed="ADR-0070 § The new pack (the self-sealed report); ADR-0071 § Ratify gate widening",
    strategy=lambda ctx: gen.pack_variants(),
    cover=coverage.canonical_strings,
)
def ratify_report_exact(engine: EngineClient, document: dict[str, Any]) -> None:
    result = engine.call("register.ratify", {"pack": document})
    want = expected_report(document)
    rid = document["register_id"]
    on_disk = sealed_json(result["files"], f"{rid}.mastery_report.json")
    for where, report in (("result", result["report"]), ("report file", on_disk)):
        assert sorted(report) == sorted(REPORT_KEYS), f"{where}: report keys {sorted(report)}"
        for key in REPORT_KEYS:
            assert report[key] == want[key], f"{where}: {key} {report[key]!r}, want {want[key]!r}"
    sealed = sealed_json(result["files"], f"{rid}.json")
    assert sealed.get(SEAL_FIELD) == want["seal"], "the pack does not store the seal"


def _normal_form(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


@requirement(
    "LOAD-SEAL-003",
    "an edited report does not load (REGISTER_SEAL_MISMATCH with the report's field): content "
    "changed under the same seal, no seal, a float under the old seal, bytes that are not "
    "JSON, the same content out of normal form, another register's sealed report, or a "
    "resealed verdict other than ratified",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="ADR-0070 § Trust boundaries (self-seal still verified)",
    strategy=lambda ctx: st.tuples(gen.valid_packs(), st.text(min_size=1, max_size=12)).map(list),
    max_examples=8,
    cover=coverage.sealed_packs,
)
def edited_report_refused(engine: EngineClient, scenario: list[Any]) -> None:
    document, label = scenario
    rid = document["register_id"]
    files = ratified_files(engine, document)
    name = f"{rid}.mastery_report.json"
    report = sealed_json(files, name)
    methods = [str(m) for m in member(report, "methods", "array")]
    edited = {**report, "methods": sorted([*methods, f"unreviewed {label}"])}
    compact = json.dumps(report, sort_keys=True, separators=(",", ":")).encode()
    other_id = f"{rid}x" if len(rid) < 64 else f"{rid[:-1]}x"
    other = ratified_files(engine, {**document, "register_id": other_id})
    foreign = base64.b64decode(other[f"{other_id}.mastery_report.json"])
    body = {key: value for key, value in report.items() if key != "seal"}
    weighed = {**report, "evidence": {**member(report, "evidence", "object"), "weight": 0.5}}
    edits = (
        ("methods edited", _normal_form(edited), REPORT),
        ("without its seal", _normal_form(body), REPORT),
        ("with a float under the old seal", _normal_form(weighed), REPORT),
        ("cut short (not JSON)", _normal_form(report).rstrip()[:-1], REPORT),
        ("compacted", compact, REPORT),
        ("another register's report", foreign, f"{REPORT}.register_id"),
    )
    for what, raw, field in edits:
        _expect_load_refusal(
            partial(_load, engine, rid, {**files, name: _b64(raw)}),
            "REGISTER_SEAL_MISMATCH",
            f"report {what}",
            field,
        )
    _expect_load_refusal(
        partial(_load, engine, rid, _rejected(files, rid, body)),
        "REGISTER_SEAL_MISMATCH",
        "report resealed with the verdict 'rejected', the pack resealed to match",
        f"{REPORT}.verdict",
    )


REPORT = "mastery_report"


def _rejected(files: dict[str, str], rid: str, body: dict[str, Any]) -> dict[str, str]:
    """The pair with the report's verdict set to ``rejected`` and sealed again, and the pack
    naming the new seal: every check but the verdict holds."""
    unsealed = {**body, "verdict": "rejected"}
    report = {**unsealed, "seal": digest(unsealed)}
    pack = base64.b64decode(files[f"{rid}.json"])
    old_seal = json.loads(pack)[SEAL_FIELD]
    return {
        f"{rid}.json": _b64(pack.replace(old_seal.encode(), report["seal"].encode())),
        f"{rid}.mastery_report.json": _b64(_normal_form(report)),
    }


SHAPES: dict[str, tuple[dict[str, Any], str, str]] = {
    "depth_preference unknown": (
        {"depth_preference": "loud"},
        "REGISTER_BAD_DEPTH_PREFERENCE",
        "depth_preference",
    ),
    "discourse_markers a list": (
        {"discourse_markers": []},
        "REGISTER_MALFORMED",
        "discourse_markers",
    ),
    "a bucket not a list": (
        {"discourse_markers": {"openings": "So,"}},
        "REGISTER_MALFORMED",
        "discourse_markers.openings",
    ),
    "an unknown bucket": (
        {"discourse_markers": {"asides": []}},
        "REGISTER_UNKNOWN_BUCKET",
        "discourse_markers.asides",
    ),
    "realizer_overrides a list": (
        {"realizer_overrides": []},
        "REGISTER_MALFORMED",
        "realizer_overrides",
    ),
    "per_intent a list": (
        {"realizer_overrides": {"per_intent": []}},
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.per_intent",
    ),
    "a per_intent value not an object": (
        {"realizer_overrides": {"per_intent": {"DEFINITION": 2}}},
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.per_intent.DEFINITION",
    ),
    "a per_intent key not an intent": (
        {"realizer_overrides": {"per_intent": {"definition": {}}}},
        "REGISTER_UNKNOWN_INTENT",
        "realizer_overrides.per_intent.definition",
    ),
    "unknown buckets, first in code point order": (
        {"discourse_markers": {"\U0001f600": [], "\ue000": []}},
        "REGISTER_UNKNOWN_BUCKET",
        "discourse_markers.\ue000",
    ),
    "unknown override keys, first in code point order": (
        {"realizer_overrides": {"\U0001f600": 1, "\ue000": 1}},
        "REGISTER_UNKNOWN_OVERRIDE",
        "realizer_overrides.\ue000",
    ),
    "unknown intents, first in code point order": (
        {"realizer_overrides": {"per_intent": {"\U0001f600": {}, "\ue000": {}}}},
        "REGISTER_UNKNOWN_INTENT",
        "realizer_overrides.per_intent.\ue000",
    ),
    "unknown integer-like buckets, first in code point order": (
        {"discourse_markers": {"9": [], "10": []}},
        "REGISTER_UNKNOWN_BUCKET",
        "discourse_markers.10",
    ),
    "unknown integer-like override keys, first in code point order": (
        {"realizer_overrides": {"9": 1, "10": 1}},
        "REGISTER_UNKNOWN_OVERRIDE",
        "realizer_overrides.10",
    ),
    "unknown integer-like intents, first in code point order": (
        {"realizer_overrides": {"per_intent": {"9": {}, "10": {}}}},
        "REGISTER_UNKNOWN_INTENT",
        "realizer_overrides.per_intent.10",
    ),
    "per_intent inside per_intent": (
        {"realizer_overrides": {"per_intent": {"CAUSE": {"per_intent": {}}}}},
        "REGISTER_UNKNOWN_OVERRIDE",
        "realizer_overrides.per_intent.CAUSE.per_intent",
    ),
}


@requirement(
    "LOAD-SHAPE-001",
    "a pack part of the wrong shape (depth_preference, discourse_markers and its buckets, "
    "realizer_overrides, per_intent and its entries) is refused with its code and field",
    family="loader",
    capabilities=("registers.validate",),
    seed="docs/registers.md § Structural check order (steps 8 to 10); § Error codes",
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(sorted(SHAPES))).map(list),
    cover=coverage.each("shapes", [["shape_v1", n] for n in sorted(SHAPES)]),
)
def wrong_shapes_refused(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, name = scenario
    change, code, field = SHAPES[name]
    document = {**gen.pack(register_id, depth_preference="terse"), **change}
    _expect_code(lambda: _validate(engine, document), code, name, field)
