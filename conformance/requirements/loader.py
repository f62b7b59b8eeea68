"""The loader and the ratification gate: every malformed or tampered pack is refused."""

from __future__ import annotations

import base64
import copy
import hashlib
import json

from hypothesis import strategies as st

from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineRefused
from conformance.requirements.registry import requirement

LOADER = "ADR-0070 § Trust boundaries; ADR-0071 § Trust boundaries (loader bounds)"
GATE = "ADR-0070 § The R3 ratification gate; ADR-0071 § Ratify gate widening"
SEAL = "ADR-0070 § The new pack (mastery_report_sha256 and the self-sealed report)"


def _validate(engine, document, expected_id=None) -> dict:
    return engine.call("register.validate", {"pack": document, "expected_id": expected_id})


def _refusal(call) -> EngineRefused | None:
    try:
        call()
    except EngineRefused as refusal:
        return refusal
    return None


def _expect_code(call, code: str, what: str) -> EngineRefused:
    refusal = _refusal(call)
    assert refusal is not None, f"{what}: accepted, expected {code}"
    assert refusal.code == code, f"{what}: refused with {refusal.code}, expected {code}"
    return refusal


@requirement(
    "LOAD-VALID-001",
    "every structurally valid pack is accepted by register.validate",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: gen.valid_packs(),
)
def valid_packs_accepted(engine, document):
    got = _validate(engine, document, document["register_id"])
    assert got["register_id"] == document["register_id"]


@requirement(
    "LOAD-ID-001",
    "invalid register ids (empty, separators, '..', control characters, over 64) are refused "
    "with REGISTER_INVALID_ID",
    family="loader",
    capabilities=("registers.validate",),
    seed="ADR-0070 § Trust boundaries (path-traversal protection)",
    strategy=lambda ctx: gen.invalid_ids,
)
def invalid_ids_refused(engine, register_id):
    _expect_code(
        lambda: _validate(engine, gen.pack(register_id)),
        "REGISTER_INVALID_ID",
        f"id {register_id!r}",
    )


REQUIRED = (
    "register_id",
    "version",
    "description",
    "schema_version",
    "display_name",
    "depth_preference",
    "realizer_overrides",
    "discourse_markers",
)


@requirement(
    "LOAD-FIELD-001",
    "a pack missing a required field is refused with REGISTER_MISSING_FIELD naming it",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(gen.valid_packs(), st.sampled_from(REQUIRED)).map(list),
)
def missing_field(engine, scenario):
    document, name = scenario
    broken = {k: v for k, v in document.items() if k != name}
    refusal = _expect_code(
        lambda: _validate(engine, broken), "REGISTER_MISSING_FIELD", f"without {name}"
    )
    assert name in (refusal.field or "") or name in refusal.message, (
        f"the refusal does not name {name}: {refusal.message!r}"
    )


@requirement(
    "LOAD-SCHEMA-001",
    "an unsupported schema_version is refused with REGISTER_SCHEMA_VERSION",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(
        gen.valid_packs(), st.text(max_size=10).filter(lambda v: v != "1.0.0")
    ).map(list),
)
def unsupported_schema(engine, scenario):
    document, version = scenario
    _expect_code(
        lambda: _validate(engine, {**document, "schema_version": version}),
        "REGISTER_SCHEMA_VERSION",
        f"schema_version {version!r}",
    )


@requirement(
    "LOAD-ID-002",
    "a pack whose register_id differs from the id it is loaded by is refused with "
    "REGISTER_ID_MISMATCH",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(gen.valid_packs(), gen.register_ids).map(list),
)
def id_mismatch(engine, scenario):
    document, other = scenario
    if other == document["register_id"]:
        other += "x"
    _expect_code(
        lambda: _validate(engine, document, other),
        "REGISTER_ID_MISMATCH",
        f"{document['register_id']!r} loaded as {other!r}",
    )


BUCKETS = ("openings", "transitions", "closings")


@requirement(
    "LOAD-BOUND-001",
    "a marker of exactly 128 characters is accepted and one of 129 is refused "
    "(REGISTER_MARKER_TOO_LONG)",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(
        gen.register_ids, st.sampled_from(BUCKETS), st.characters(codec="utf-8")
    ).map(list),
)
def marker_length_bound(engine, scenario):
    register_id, bucket, char = scenario
    markers = {name: ["x"] for name in BUCKETS}
    at_limit = gen.pack(register_id, markers={**markers, bucket: [char * 128]})
    _validate(engine, at_limit)
    past = gen.pack(register_id, markers={**markers, bucket: [char * 129]})
    _expect_code(lambda: _validate(engine, past), "REGISTER_MARKER_TOO_LONG", f"129 x {char!r}")


@requirement(
    "LOAD-BOUND-002",
    "a bucket of exactly 32 markers is accepted and one of 33 is refused "
    "(REGISTER_BUCKET_TOO_LARGE)",
    family="loader",
    capabilities=("registers.validate",),
    seed=LOADER,
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(BUCKETS)).map(list),
)
def bucket_size_bound(engine, scenario):
    register_id, bucket = scenario
    markers = {name: ["x"] for name in BUCKETS}
    _validate(engine, gen.pack(register_id, markers={**markers, bucket: ["m"] * 32}))
    past = gen.pack(register_id, markers={**markers, bucket: ["m"] * 33})
    _expect_code(lambda: _validate(engine, past), "REGISTER_BUCKET_TOO_LARGE", f"33 in {bucket}")


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
)
def override_bounds(engine, scenario):
    register_id, value, intent, scoped = scenario
    entry = {"disclosure_domain_count": value}
    overrides = {"per_intent": {intent: entry}} if scoped else entry
    document = gen.pack(register_id, overrides=overrides, depth_preference="terse")
    if type(value) is int and value in (1, 2, 3):
        _validate(engine, document)
    else:
        _expect_code(
            lambda: _validate(engine, document),
            "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
            f"depth {value!r}",
        )


@requirement(
    "LOAD-KEY-001",
    "an override key outside the allow-list is refused with REGISTER_UNKNOWN_OVERRIDE naming it",
    family="loader",
    capabilities=("registers.validate",),
    seed=GATE,
    strategy=lambda ctx: st.tuples(
        gen.register_ids,
        st.text(min_size=1, max_size=20).filter(
            lambda k: k not in ("disclosure_domain_count", "per_intent")
        ),
        st.booleans(),
        gen.intents,
    ).map(list),
)
def unknown_override_key(engine, scenario):
    register_id, key, scoped, intent = scenario
    overrides = {"per_intent": {intent: {key: 1}}} if scoped else {key: 1}
    document = gen.pack(register_id, overrides=overrides, depth_preference="terse")
    refusal = _expect_code(
        lambda: _validate(engine, document), "REGISTER_UNKNOWN_OVERRIDE", f"key {key!r}"
    )
    assert key in (refusal.field or "") or key in refusal.message, "the refusal does not name it"


def _other_seal(seal: str) -> str:
    """A well-formed seal that differs from *seal* in its first hex digit."""
    return ("0" if seal[0] != "0" else "1") + seal[1:]


def _load(engine, register_id: str, files: dict[str, str]) -> dict:
    return engine.call("register.load", {"register_id": register_id, "files": files})


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@requirement(
    "LOAD-SEAL-001",
    "a pack that was never ratified does not load (REGISTER_NOT_RATIFIED)",
    family="loader",
    capabilities=("registers.load",),
    seed=SEAL,
    strategy=lambda ctx: gen.valid_packs(),
)
def not_ratified(engine, document):
    rid = document["register_id"]
    files = {f"{rid}.json": _b64(json.dumps(document, sort_keys=True, indent=2).encode() + b"\n")}
    _expect_code(lambda: _load(engine, rid, files), "REGISTER_NOT_RATIFIED", "unratified pack")


@requirement(
    "LOAD-SEAL-002",
    "a pack whose seal does not match its report does not load (REGISTER_SEAL_MISMATCH)",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed=SEAL,
    strategy=lambda ctx: st.tuples(gen.valid_packs(), gen.valid_packs()).map(list),
    max_examples=40,
)
def seal_mismatch(engine, scenario):
    first, second = scenario
    rid = first["register_id"]
    other = {**copy.deepcopy(second), "register_id": rid, "description": "another pack"}
    files, other_files = ratified_files(engine, first), ratified_files(engine, other)
    report = f"{rid}.mastery_report.json"
    swapped = {**files, report: other_files[report]}
    _expect_code(
        lambda: _load(engine, rid, swapped),
        "REGISTER_SEAL_MISMATCH",
        "pack with another pack's report",
    )
    raw = base64.b64decode(files[f"{rid}.json"])
    seal = json.loads(raw)["mastery_report_sha256"]
    forged = raw.replace(seal.encode(), _other_seal(seal).encode())
    _expect_code(
        lambda: _load(engine, rid, {**files, f"{rid}.json": _b64(forged)}),
        "REGISTER_SEAL_MISMATCH",
        "pack naming a seal its own report does not have",
    )


@requirement(
    "LOAD-TAMPER-001",
    "a ratified pack loads, and any edit of its file (a byte anywhere, a field's content, "
    "whitespace alone) makes it refuse to load",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="ADR-0070 § Trust boundaries (self-seal still verified)",
    strategy=lambda ctx: st.tuples(
        gen.valid_packs(), st.integers(0, 2**32), st.integers(1, 255), st.text(max_size=20)
    ).map(list),
    max_examples=60,
)
def tampered_pack_refused(engine, scenario):
    document, position, delta, description = scenario
    rid = document["register_id"]
    files = ratified_files(engine, document)
    assert _load(engine, rid, files)["pack"]["register_id"] == rid, "the ratified pack"
    raw = base64.b64decode(files[f"{rid}.json"])
    for what, edited in _edits(raw, position, delta, description):
        refusal = _refusal(lambda e=edited: _load(engine, rid, {**files, f"{rid}.json": _b64(e)}))
        assert refusal is not None, f"{what}, and the pack still loads"
        assert refusal.code.startswith("REGISTER_"), f"{what}: refused with {refusal.code}"


def _edits(raw: bytes, position: int, delta: int, description: str) -> list[tuple[str, bytes]]:
    """A byte changed at a position spread evenly over the file, a field's content, whitespace."""
    index = int(hashlib.sha256(b"%d" % position).hexdigest(), 16) % len(raw)
    flipped = bytearray(raw)
    flipped[index] = (flipped[index] + delta) % 256
    old = json.dumps(json.loads(raw)["description"], ensure_ascii=False).encode()
    new = json.dumps(description + "!", ensure_ascii=False).encode()
    return [
        (f"byte {index} changed by +{delta}", bytes(flipped)),
        ("the description's content changed", raw.replace(old, new, 1)),
        ("a space added before the first newline", raw.replace(b"\n", b" \n", 1)),
    ]


@requirement(
    "LOAD-FOUND-001",
    "loading an id with no pack file is refused with REGISTER_NOT_FOUND",
    family="loader",
    capabilities=("registers.load",),
    seed=LOADER,
    strategy=lambda ctx: gen.register_ids.map(lambda r: f"absent_{r}"),
)
def not_found(engine, register_id):
    _expect_code(lambda: _load(engine, register_id, {}), "REGISTER_NOT_FOUND", register_id)


METHODS = {
    "null": ["byte_identity_null_lift"],
    "overrides": ["known_key_overrides_invariant_grounding"],
    "markers": ["seeded_variation_replay_equivalence"],
}


@requirement(
    "LOAD-RATIFY-001",
    "the ratify gate labels methods by pack kind, reports transitions as reserved, refuses an "
    "empty non-null pack (REGISTER_EMPTY_NON_NULL) and is idempotent",
    family="loader",
    capabilities=("registers.ratify",),
    seed=GATE,
    strategy=lambda ctx: gen.valid_packs(),
    max_examples=60,
)
def ratify_gate(engine, document):

    result = engine.call("register.ratify", {"pack": document})
    report = result["report"]
    markers = document["discourse_markers"]
    kinds = [
        k
        for k, present in (
            ("overrides", bool(document["realizer_overrides"])),
            ("markers", bool(markers["openings"] or markers["closings"])),
        )
        if present
    ] or ["null"]
    expected = sorted(m for k in kinds for m in METHODS[k])
    assert sorted(report["methods"]) == expected, f"methods {report['methods']}, want {expected}"
    reserved = report["evidence"]["transitions_reserved"]
    assert reserved == bool(markers["transitions"]), f"transitions_reserved {reserved}"
    sealed = json.loads(base64.b64decode(result["files"][f"{document['register_id']}.json"]))
    again = engine.call("register.ratify", {"pack": sealed})
    assert again["files"] == result["files"], "ratifying the ratified pack changed its files"
    empty = {
        **document,
        "realizer_overrides": {},
        "depth_preference": "terse",
        "discourse_markers": {"openings": [], "transitions": [], "closings": []},
    }
    _expect_code(
        lambda: engine.call("register.ratify", {"pack": empty}),
        "REGISTER_EMPTY_NON_NULL",
        "a terse pack with nothing in it",
    )
