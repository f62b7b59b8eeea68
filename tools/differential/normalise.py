"""A response with every member docs/spec.md § Freedoms grants dropped or replaced; each
dropped member names its FREE row."""

from __future__ import annotations

import functools
import json
import re

from conformance.protocol.validate import WireValidator, load_schemas
from tools.differential.shared import Json

FREE_FIELD_CODES = {
    # FREE-008: no table of docs/ states a field for these refusals.
    "STATE_SYMLINK",
    "STATE_UNREADABLE",
    "STATE_IO",
    "STATE_LOCKED",
    "STATE_CORRUPT",
    "STATE_RECORD_MALFORMED",
}
CHAT_FIELDS = frozenset(load_schemas()["result.session.chat"]["properties"])
"""The fields docs/protocol.md § session.chat lists; any other is an extra (FREE-201)."""


def _chat(result: Json, context: dict[str, Json]) -> Json:
    out = {k: v for k, v in result.items() if k in CHAT_FIELDS}  # FREE-201: extra fields
    out.pop("surface", None)  # FREE-002: the words of an answer (its decoration: below)
    out.pop("pre_decoration_surface", None)  # FREE-002
    out.pop("trace_hash", None)  # FREE-003: two engines' trace hashes may differ
    # FREE-005: the field's evolution is free beyond versor_condition < 1e-6 (REG-CLOSE-001)
    condition = out.pop("versor_condition", None)
    out["versor_condition<1e-6"] = isinstance(condition, (int, float)) and 0 <= condition < 1e-6
    # register_variant_id derives from the markers variation.select draws with the trace
    # hash (FREE-003), so only whether it is "" is engine-independent, and only when
    # every draw gives the same answer to "are both markers empty" (context "rvid").
    variant = out.pop("register_variant_id", None)
    if context.get("rvid") is not None:
        out["register_variant_id=''"] = variant == ""
    return out


def _error(error: Json, request: Json) -> Json:
    out = dict(error)
    out.pop("message", None)  # FREE-001: the text of error.message
    if out.get("code") in FREE_FIELD_CODES:
        out.pop("field", None)  # FREE-008
    if out.get("code") == "STATE_BAD_MUTATION" and isinstance(out.get("field"), str):
        # FREE-019: which member of the first bad mutation is named is free
        out["field"] = re.sub(r"^(mutations\[\d+\]).*", r"\1", out["field"])
    if out.get("code") == "PROTOCOL_BAD_ARGS" and len(_mistyped(request)) > 1:
        out["field"] = "<one of the mistyped arguments>"  # FREE-018
    return out


@functools.cache
def _arg_schemas() -> dict[str, Json]:
    return {
        name.removeprefix("args."): schema
        for name, schema in load_schemas().items()
        if name.startswith("args.")
    }


def _mistyped(request: Json) -> list[str]:
    """The arguments of *request* its op's schema does not type (FREE-018 lets a refusal
    name any one of them when there are several)."""
    if not isinstance(request, dict) or not isinstance(request.get("args"), dict):
        return []
    schema = _arg_schemas().get(str(request.get("op")))
    if schema is None:
        return []
    properties = schema.get("properties", {})
    return [
        name
        for name, value in request["args"].items()
        if name in properties and not WireValidator(properties[name]).is_valid(value)
    ]


def _identities(value: Json) -> Json:
    """FREE-022: once a session lived turns on a store, its life record's rotor is the
    engine's own field (FREE-005), and so is every identity hashed over that core."""
    if isinstance(value, dict):
        return {
            k: "<identity>"
            if k in ("identity", "parent") and isinstance(v, str)
            else _identities(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_identities(v) for v in value]
    return value


def _raw_op(line: Json) -> Json:
    try:
        request = json.loads(line)
    except (ValueError, TypeError):
        return None
    return request.get("op") if isinstance(request, dict) else None


def _op_result(op: Json, result: Json, context: dict[str, Json]) -> Json:
    """*result* of *op* with what its op's FREE rows grant replaced."""
    if op == "hello":
        # each engine names itself and claims its own capabilities (FREE-010 for
        # engine.language); only what both claim is generated
        return {"protocol": result.get("protocol")}
    if op == "session.open":
        result["session"] = "<handle>"  # FREE-007
    elif op == "state.open":
        result["store"] = "<handle>"  # FREE-007
        if result.get("recovered") is not None:
            result["recovered"] = "<reason>"  # FREE-009
    elif op == "session.chat":
        return _chat(result, context)
    elif op == "state.soak" and isinstance(result.get("identity"), str):
        result["identity"] = "<identity>"  # FREE-006: the soak's workload is the engine's own
    elif op == "state.trace_checkpoint" and isinstance(result.get("ops"), list):
        result["ops"] = _trace_ops(result["ops"])
    elif op == "state.load" and result.get("recovered") is not None:
        result["recovered"] = "<reason>"  # FREE-009
    elif op == "state.journal" and isinstance(result.get("entries"), list):
        result["entries"] = [_boot_event(e) for e in result["entries"]]
    return result


def _without_data(op: Json) -> Json:
    """A traced write with its bytes dropped, except the pointer's."""
    if isinstance(op, dict) and "data" in op and not str(op.get("path")).startswith("CURRENT"):
        return {k: v for k, v in op.items() if k != "data"}
    return op


def _boot_event(entry: Json) -> Json:
    """A lineage entry with its ``recovered`` reason replaced (FREE-009)."""
    if isinstance(entry, dict) and isinstance(entry.get("recovered"), str) and "boot" in entry:
        return {**entry, "recovered": "<reason>"}
    return entry


def _trace_ops(ops: list[Json]) -> list[Json]:
    """Traced file operations with a staging directory's suffix replaced (FREE-011), and
    without an ``unlink`` of a file a later ``remove_tree`` would have removed first anyway
    (FREE-025)."""
    out = [_trace_op(o) for o in ops]
    trees = [
        (i, o["path"])
        for i, o in enumerate(out)
        if isinstance(o, dict) and o.get("op") == "remove_tree"
    ]
    return [
        o
        for i, o in enumerate(out)
        if not (
            isinstance(o, dict)
            and o.get("op") == "unlink"
            and isinstance(o.get("path"), str)
            and any(j > i and o["path"].startswith(f"{tree}/") for j, tree in trees)
        )
    ]


def _trace_op(op: Json) -> Json:
    """A traced file operation with a staging directory's suffix replaced (FREE-011)."""
    if not isinstance(op, dict):
        return op
    return {
        k: re.sub(r"^staging-[^/]*", "staging-*", v)
        if k in ("path", "src", "dst") and isinstance(v, str)
        else v
        for k, v in op.items()
    }


def _batch_responses(request: Json, result: Json, context: dict[str, Json]) -> Json:
    """A batch's responses, each normalised against its own request."""
    inner = request["args"]["requests"]
    return [
        normalise(req, res, context)
        for req, res in zip(inner, result.get("responses", []), strict=False)
    ] + result.get("responses", [])[len(inner) :]


def normalise(request: Json, response: Json, context: dict[str, Json]) -> Json:
    """*response* with every member a FREE row grants replaced or dropped."""
    if not isinstance(response, dict):
        return response
    out = dict(response)
    if out.get("ok") is False and isinstance(out.get("error"), dict):
        out["error"] = _error(out["error"], request)
        return out
    op = request.get("op") if isinstance(request, dict) else _raw_op(request)
    if not isinstance(out.get("result"), dict):
        return out
    result = _op_result(op, dict(out["result"]), context)
    if str(op).startswith("state.") and (context.get("lived") or context.get("soaked")):
        result = _identities(result)
        if isinstance(result.get("ops"), list):
            # FREE-022 (FREE-006 after a soak): the core's and manifest's bytes hold the rotor
            # and the identities hashed over it
            result["ops"] = [_without_data(o) for o in result["ops"]]
        if context.get("soaked"):
            # FREE-006: which records a soak puts and deletes, so how many there are
            result.pop("records", None)
    if "$events" in out:
        # FREE-006: a soak's identities are the engine's own workload's
        out["$events"] = _identities(out["$events"])
    elif op == "batch":
        result["responses"] = _batch_responses(request, result, context)
    out["result"] = result
    return out
