"""The ratification gate refuses every structural fault, with the code and field the
structural check order gives.

docs/protocol.md § register.ratify: the engine "validates the pack structurally", its
errors "the structural `REGISTER_*` codes"; docs/registers.md § The ratification gate, step
2: "Read and parse it exactly as the loader does". The structural codes are checked through
``register.validate`` (LOAD-BOUND-*, LOAD-SHAPE-001, LOAD-KEY-001, LOAD-ORDER-001); the
gate is sent two of them (LOAD-ORDER-002) and, through the quoting tables, unknown names. So a
gate that drops markers past the bounds (or never checks them) and seals the rest passes.
Here one pack per structural fault is sent to ``register.ratify`` and, when the engine
claims it, written to a file for ``register.ratify_file``: each is refused with that
fault's code and field, and the file is left as it was.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

RID = "gate_structure_v1"
DM, RO, D = "discourse_markers", "realizer_overrides", "disclosure_domain_count"


def _pack(**changes: Any) -> dict[str, Any]:
    markers = {"openings": ["So,"], "transitions": [], "closings": [""]}
    pack = gen.pack(RID, overrides={D: 2}, markers=markers, depth_preference="terse")
    for key, value in changes.items():
        if value is None:
            del pack[key]
        else:
            pack[key] = value
    return pack


def _markers(**buckets: Any) -> dict[str, Any]:
    return {"openings": ["So,"], "transitions": [], "closings": [""], **buckets}


CASES: dict[str, tuple[dict[str, Any], str, str]] = {
    "version left out": (_pack(version=None), "REGISTER_MISSING_FIELD", "version"),
    "an unknown top-level field": (
        {**_pack(), "colour": "red"},
        "REGISTER_MALFORMED",
        "colour",
    ),
    "display_name a number": (_pack(display_name=5), "REGISTER_MALFORMED", "display_name"),
    "schema_version 1.0": (
        _pack(schema_version="1.0"),
        "REGISTER_SCHEMA_VERSION",
        "schema_version",
    ),
    "depth_preference loud": (
        _pack(depth_preference="loud"),
        "REGISTER_BAD_DEPTH_PREFERENCE",
        "depth_preference",
    ),
    "an unknown bucket": (
        _pack(discourse_markers=_markers(asides=[])),
        "REGISTER_UNKNOWN_BUCKET",
        f"{DM}.asides",
    ),
    "33 closings": (
        _pack(discourse_markers=_markers(closings=[f"c{i}" for i in range(33)])),
        "REGISTER_BUCKET_TOO_LARGE",
        f"{DM}.closings",
    ),
    "33 transitions": (
        _pack(discourse_markers=_markers(transitions=["t"] * 33)),
        "REGISTER_BUCKET_TOO_LARGE",
        f"{DM}.transitions",
    ),
    "an opening of 129 characters": (
        _pack(discourse_markers=_markers(openings=["So,", "x" * 129])),
        "REGISTER_MARKER_TOO_LONG",
        f"{DM}.openings[1]",
    ),
    "an astral closing of 129 code points": (
        _pack(discourse_markers=_markers(closings=["\U0001f600" * 129])),
        "REGISTER_MARKER_TOO_LONG",
        f"{DM}.closings[0]",
    ),
    "a bucket null": (
        _pack(discourse_markers=_markers(transitions=None)),
        "REGISTER_MALFORMED",
        f"{DM}.transitions",
    ),
    "an unknown override key": (
        _pack(realizer_overrides={D: 2, "colour": 1}),
        "REGISTER_UNKNOWN_OVERRIDE",
        f"{RO}.colour",
    ),
    "a flat depth of 4": (
        _pack(realizer_overrides={D: 4}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        f"{RO}.{D}",
    ),
    "a per-intent depth of 0": (
        _pack(realizer_overrides={"per_intent": {"CAUSE": {D: 0}}}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        f"{RO}.per_intent.CAUSE.{D}",
    ),
    "a per_intent key that is not an intent": (
        _pack(realizer_overrides={"per_intent": {"Cause": {D: 1}}}),
        "REGISTER_UNKNOWN_INTENT",
        f"{RO}.per_intent.Cause",
    ),
}
"""One structural fault per pack, and the code and field docs/registers.md § Structural
check order gives it."""


def _refused(what: str, call: Any, code: str, field: str) -> None:
    try:
        call()
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == (code, field), (
            f"{what}: refused with {refusal.code} naming {refusal.field!r}; the structural "
            f"check gives {code} naming {field!r}"
        )
        return
    raise AssertionError(f"{what}: ratified; the structural check refuses it ({code})")


@requirement(
    "LOAD-RATIFY-103",
    "the ratification gate refuses every structural fault (missing or unknown field, a "
    "non-string, schema, depth, unknown bucket, bucket size, marker length, a null bucket, "
    "unknown override, override bound, unknown intent) with its code and field, in "
    "register.ratify and register.ratify_file alike, the file left as it was",
    family="loader",
    capabilities=("registers.ratify",),
    seed="docs/protocol.md § register.ratify (validates the pack structurally); "
    "docs/registers.md § The ratification gate (step 2: parse exactly as the loader does)",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("structural faults ratified", sorted(CASES)),
)
def gate_refuses_structural_faults(engine: EngineClient, name: str) -> None:
    pack, code, field = CASES[name]
    _refused(
        f"register.ratify of a pack with {name}",
        lambda: engine.call("register.ratify", {"pack": pack}),
        code,
        field,
    )
    if "registers.ratify_file" not in engine.capabilities():
        return
    with scratch() as directory:
        path = directory / f"{RID}.json"
        data = (json.dumps(pack, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
        path.write_bytes(data)
        _refused(
            f"register.ratify_file of a pack with {name}",
            lambda: engine.call("register.ratify_file", {"path": str(path)}),
            code,
            field,
        )
        assert path.read_bytes() == data, f"{name}: the refused pack file was rewritten"
        left = sorted(p.name for p in directory.iterdir())
        assert left == [path.name], f"{name}: the refused ratify left {left}"
