"""A member named twice: the last occurrence counts, in every object of the line.

docs/protocol.md § Requests: "When an object names the same member twice, the last
occurrence counts (as JavaScript's `JSON.parse` and Python's `json` read it)." PROTO-JSON-001
names the request's ``id`` twice, so only the top-level object is tried: a port that reads
``args`` into a typed record whose decoder refuses a duplicate field (Rust's serde derive
does) or keeps the first one passes it. Here the member named twice is ``op`` and ``args``
themselves, an argument (``turn_idx``, both orders: the value that counts is valid in one
and invalid in the other, and two valid values that pick different entries), a member of an
argument's object (a pack's ``register_id``), and, for an engine claiming ``batch``, the
``op`` of a batch element. Each line is answered as the same line with only the last
occurrence would be.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage, oracle
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

HASH = "ab" * 32
BUCKET = [f"m{i}" for i in range(32)]


def _two_valid_turns() -> tuple[int, int]:
    """Two turn indices that pick different entries of BUCKET (the first pair that does)."""
    first = 3
    for second in range(4, 100):
        a = oracle.select_index(BUCKET, HASH, "r", first, "openings")
        b = oracle.select_index(BUCKET, HASH, "r", second, "openings")
        if a != b:
            return first, second
    raise AssertionError("no two turn indices pick different entries")


TURN_A, TURN_B = _two_valid_turns()


def _select_line(rid: str, turns: str) -> str:
    bucket = ",".join(f'"{m}"' for m in BUCKET)
    return (
        f'{{"id":"{rid}","op":"variation.select","args":{{"bucket":[{bucket}],'
        f'"bucket_name":"openings","register_id":"r","trace_hash":"{HASH}",{turns}}}}}'
    )


def _pack_text(ids: str) -> str:
    return (
        '{"depth_preference":"standard","description":"d","discourse_markers":{},'
        f'"display_name":"D",{ids},"realizer_overrides":{{}},"schema_version":"1.0.0",'
        '"version":"1"}'
    )


# each case: the line (given its id) and what answers it: ("ok", check) or (code, field)
Answer = tuple[str, Any]
CASES: dict[str, tuple[Any, Answer]] = {
    "op twice, the last hello": (
        lambda rid: f'{{"id":"{rid}","op":"no.such.op","op":"hello"}}',
        ("ok", lambda result: result.get("protocol") == "core-engine/1"),
    ),
    "op twice, the last unknown": (
        lambda rid: f'{{"id":"{rid}","op":"hello","op":"no.such.op"}}',
        ("PROTOCOL_UNKNOWN_OP", "op"),
    ),
    "args twice, the last empty": (
        lambda rid: f'{{"id":"{rid}","op":"hello","args":{{"colour":1}},"args":{{}}}}',
        ("ok", lambda result: result.get("protocol") == "core-engine/1"),
    ),
    "args twice, the last with an unknown argument": (
        lambda rid: f'{{"id":"{rid}","op":"hello","args":{{}},"args":{{"colour":1}}}}',
        ("PROTOCOL_BAD_ARGS", "colour"),
    ),
    "turn_idx twice, the last valid": (
        lambda rid: _select_line(rid, f'"turn_idx":-1,"turn_idx":{TURN_B}'),
        (
            "ok",
            lambda result: (
                result.get("index") == oracle.select_index(BUCKET, HASH, "r", TURN_B, "openings")
            ),
        ),
    ),
    "turn_idx twice, the last -1": (
        lambda rid: _select_line(rid, f'"turn_idx":{TURN_B},"turn_idx":-1'),
        ("PROTOCOL_BAD_ARGS", "turn_idx"),
    ),
    "turn_idx twice, both valid (the last picks)": (
        lambda rid: _select_line(rid, f'"turn_idx":{TURN_A},"turn_idx":{TURN_B}'),
        (
            "ok",
            lambda result: (
                result.get("index") == oracle.select_index(BUCKET, HASH, "r", TURN_B, "openings")
            ),
        ),
    ),
    "a pack's register_id twice, the last valid": (
        lambda rid: (
            f'{{"id":"{rid}","op":"register.validate","args":{{"pack":'
            + _pack_text('"register_id":"bad id","register_id":"dup_v1"')
            + "}}"
        ),
        ("ok", lambda result: result.get("register_id") == "dup_v1"),
    ),
    "a pack's register_id twice, the last invalid": (
        lambda rid: (
            f'{{"id":"{rid}","op":"register.validate","args":{{"pack":'
            + _pack_text('"register_id":"dup_v1","register_id":"bad id"')
            + "}}"
        ),
        ("REGISTER_INVALID_ID", "register_id"),
    ),
}

BATCH_CASES: dict[str, tuple[Any, Answer]] = {
    "a batch element's op twice, the last hello": (
        lambda rid: (
            f'{{"id":"{rid}","op":"batch","args":{{"requests":'
            '[{"id":1,"op":"no.such.op","op":"hello"}]}}'
        ),
        (
            "ok",
            lambda result: (
                isinstance(result.get("responses"), list)
                and len(result["responses"]) == 1
                and isinstance(result["responses"][0], dict)
                and result["responses"][0].get("ok") is True
                and result["responses"][0].get("result", {}).get("protocol") == "core-engine/1"
            ),
        ),
    ),
}

ALL = {**CASES, **BATCH_CASES}


@requirement(
    "PROTO-DUP-001",
    "of a member named twice the last occurrence counts in every object of a line, not only "
    "the request: op, args, an argument (turn_idx, each order), a member of an argument's "
    "object (a pack's register_id) and a batch element's op",
    family="protocol",
    capabilities=("variation", "registers.validate"),
    seed="docs/protocol.md § Requests (when an object names the same member twice, the last "
    "occurrence counts)",
    strategy=lambda ctx: st.sampled_from(sorted(ALL)),
    cover=coverage.each("members named twice", sorted(ALL)),
)
def last_duplicate_counts(engine: EngineClient, name: str) -> None:
    if name in BATCH_CASES and "batch" not in engine.capabilities():
        return
    build, (want, check) = ALL[name]
    rid = "dup"
    (response,) = engine.raw_lines(build(rid).encode() + b"\n")
    assert isinstance(response, dict), f"{name}: response {response!r} is not an object"
    assert response.get("id") == rid, f"{name}: id {response.get('id')!r}, expected {rid!r}"
    if want == "ok":
        assert response.get("ok") is True, (
            f"{name}: refused with {response.get('error')!r}; the last occurrence counts, and "
            "with it the request is valid"
        )
        result = response.get("result")
        assert isinstance(result, dict) and check(result), (
            f"{name}: result {result!r} is not the answer to the last occurrence"
        )
        return
    error = response.get("error")
    assert response.get("ok") is False and isinstance(error, dict), (
        f"{name}: answered {response!r}; the last occurrence counts, and with it the request "
        f"is refused with {want}"
    )
    assert error.get("code") == want, f"{name}: refused with {error.get('code')!r}, not {want}"
    assert error.get("field") == check, (
        f"{name}: refusal field {error.get('field')!r}, expected {check!r}"
    )
