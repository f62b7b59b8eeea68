"""Every refusal's message is text: never empty, never only spaces (protocol.md § Responses)."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject, JSONEncodable
from conformance.requirements.registry import requirement

SEED = "docs/protocol.md § Responses (error.message is never empty and never only spaces)"


def _pack(**changes: Any) -> dict[str, Any]:
    document = gen.pack("msg_probe")
    document.update(changes)
    return {key: value for key, value in document.items() if value is not None}


def _without(name: str) -> dict[str, Any]:
    document = gen.pack("msg_probe")
    del document[name]
    return document


def _validate(document: JSONEncodable) -> tuple[str, EncodableObject]:
    return "register.validate", {"pack": document, "expected_id": None}


def _load(content: bytes, register_id: str = "msg_probe") -> tuple[str, EncodableObject]:
    files = {f"{register_id}.json": base64.b64encode(content).decode("ascii")}
    return "register.load", {"register_id": register_id, "files": files}


REFUSALS: dict[str, tuple[str, EncodableObject]] = {
    "pack not an object": _validate([]),
    "missing field": _validate(_without("version")),
    "unknown field": _validate(_pack(colour="red")),
    "field not a string": _validate(_pack(version=1)),
    "schema version": _validate(_pack(schema_version="9.9.9")),
    "empty register id": _validate(_pack(register_id="")),
    "register id with a control character": _validate(_pack(register_id="a\u0001b")),
    "depth preference": _validate(_pack(depth_preference="loud")),
    "markers not an object": _validate(_pack(discourse_markers=[])),
    "unknown bucket": _validate(_pack(discourse_markers={"middles": []})),
    "bucket not a list": _validate(_pack(discourse_markers={"openings": "hi"})),
    "marker not a string": _validate(_pack(discourse_markers={"openings": [1]})),
    "marker too long": _validate(_pack(discourse_markers={"openings": ["x" * 129]})),
    "bucket too large": _validate(_pack(discourse_markers={"openings": ["x"] * 33})),
    "overrides not an object": _validate(_pack(realizer_overrides=[])),
    "unknown override": _validate(_pack(realizer_overrides={"loudness": 1})),
    "depth out of bounds": _validate(_pack(realizer_overrides={"disclosure_domain_count": 4})),
    "per_intent not an object": _validate(_pack(realizer_overrides={"per_intent": 1})),
    "unknown intent": _validate(_pack(realizer_overrides={"per_intent": {"SHOUT": {}}})),
    "pack file not an object": _load(b"[]"),
    "pack file not JSON": _load(b"{"),
    "pack file with a missing field": _load(json.dumps(_without("version")).encode()),
    "pack file never ratified": _load(json.dumps(gen.pack("msg_probe")).encode()),
    "invalid register id": _load(b"{}", "a..b"),
    "register not found": ("register.load", {"register_id": "no_such_register_probe", "files": {}}),
    "unknown op": ("no.such.op", {}),
}
"""Requests a core-engine/1 engine must refuse, one per kind of refusal (by name)."""


@requirement(
    "PROTO-ERROR-301",
    "every refusal's message holds a character other than a space: a malformed pack of "
    "each structural fault (validated, or a file loaded), an unknown register, an unknown op",
    family="protocol",
    capabilities=("registers.validate", "registers.load"),
    seed=SEED,
    strategy=lambda ctx: st.sampled_from(sorted(REFUSALS)),
    cover=coverage.each("refusals", sorted(REFUSALS)),
)
def messages_are_text(engine: EngineClient, name: str) -> None:
    op, args = REFUSALS[name]
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        assert refusal.message.strip(" "), (
            f"{name}: {refusal.code}'s message is {refusal.message!r}, and protocol.md § "
            "Responses says it is never empty and never only spaces"
        )
    else:
        raise AssertionError(f"{name}: {op} was answered with ok, not refused")
