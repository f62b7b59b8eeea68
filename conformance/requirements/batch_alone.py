"""A batch element answered exactly as the same request sent alone, for the requests the
suite otherwise sends only alone.

docs/protocol.md § batch: "one response per element, in order, each exactly what that element
would get if sent on its own line at that point". PROTO-BATCH-001 and PROTO-BATCH-003 send
well-formed variation and session requests (and a non-object element, one without an id)
as elements; the envelope's own cases (PROTO-ENVELOPE-001: an id, op or args of the wrong
type, ``args`` null), the ids PROTO-ID-001 echoes (past 2^53 and 2^64, 1,000 digits, NUL,
line breaks, white space) and the ops of an unclaimed capability or no capability at all
(PROTO-CAPS-001) were met alone only. A port whose batch decodes its elements into a
typed record (``args`` null read as absent, an id coerced to a double or trimmed) answers
them otherwise inside a batch. Here each such request is sent alone and as an element of
one batch: the two responses are the same JSON (``error.message`` aside, a text for people
that need only be one line, never empty).
"""

from __future__ import annotations

from typing import Any

from conformance import coverage
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.echo import IDS
from conformance.requirements.protocol import BAD_ENVELOPES
from conformance.requirements.protocol_raw import CAPABILITY_OPS
from conformance.requirements.registry import requirement

KINDS = ("malformed envelopes", "ids echoed", "ops not served")


def _requests(engine: EngineClient, kind: str) -> dict[str, EncodableObject]:
    """The requests of *kind*, by name."""
    if kind == "malformed envelopes":
        return {name: request for name, (request, _, _) in BAD_ENVELOPES.items()}
    if kind == "ids echoed":
        return {f"id {i!r}"[:60]: {"id": i, "op": "hello", "args": {}} for i in IDS}
    claimed = engine.capabilities()
    unserved: dict[str, EncodableObject] = {
        op: {"id": f"u-{op}", "op": op, "args": {}}
        for capability, ops in sorted(CAPABILITY_OPS.items())
        if capability not in claimed
        for op in ops
        if op != "batch"
    }
    return {"an unknown op": {"id": 9, "op": "no.such.op", "args": {}}, **unserved}


def comparable(response: Any) -> str:
    """*response* as canonical JSON, with ``error.message`` checked and left out."""
    if not isinstance(response, dict):
        return canonical_json(response)
    error = response.get("error")
    if isinstance(error, dict) and "message" in error:
        message = error["message"]
        assert isinstance(message, str) and message.strip(" ") and "\n" not in message, (
            f"error.message {message!r} is not one line of text"
        )
        response = {**response, "error": {k: v for k, v in error.items() if k != "message"}}
    return canonical_json(response)


@requirement(
    "PROTO-BATCH-004",
    "each request the suite sends alone to check the envelope (an id, op or args of the wrong "
    "type, args null; PROTO-ENVELOPE-001), the echo of ids (past 2^53 and 2^64, 1,000 "
    "digits, NUL, line breaks, white space; PROTO-ID-001) and unserved ops (an unknown op, "
    "each op of an unclaimed capability; PROTO-CAPS-001) gets, as an element of a batch, the "
    "response it gets alone (error.message aside)",
    family="protocol",
    capabilities=("batch",),
    seed="docs/protocol.md § batch (each exactly what that element would get if sent on its "
    "own line at that point)",
    cover=coverage.each("requests sent alone and in a batch", KINDS),
)
def batch_elements_as_alone(engine: EngineClient, kind: str) -> None:
    requests = _requests(engine, kind)
    alone = {name: engine.raw(request, checked=False) for name, request in requests.items()}
    batch: EncodableObject = {
        "id": "as-alone",
        "op": "batch",
        "args": {"requests": list(requests.values())},
    }
    response = engine.raw(batch, checked=False)
    assert isinstance(response, dict) and response.get("ok") is True, (
        f"{kind}: the batch was refused: {response!r}"
    )
    result = response.get("result")
    responses = result.get("responses") if isinstance(result, dict) else None
    assert isinstance(responses, list) and len(responses) == len(requests), (
        f"{kind}: the batch answered {responses!r}, not one response per element"
    )
    for (name, single), batched in zip(alone.items(), responses, strict=True):
        assert comparable(batched) == comparable(single), (
            f"{name}: as an element of a batch it got {batched!r}, sent alone {single!r}"
        )
