"""An integer argument is read from its JSON literal, not from the value a double holds.

docs/protocol.md § Requests (Numbers): an integer is a JSON number written without a
fraction or exponent, so ``2e0`` is no more an integer than ``2.0``; JSON itself has no
leading zeros and no ``+`` sign, so ``01`` and ``+1`` are not JSON. A port that checks
``Number.isInteger`` after ``JSON.parse``, looks for a ``.`` in the literal only, or reads
numbers with ``strtol`` gets these wrong. Every line goes out in one write.
"""

from __future__ import annotations

from typing import Any

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

SELECT = (
    b'{"id":"%s","op":"variation.select","args":{"bucket":["a","b","c"],'
    b'"trace_hash":"' + b"0" * 64 + b'","register_id":"r","bucket_name":"openings",'
    b'"turn_idx":%s}}'
)
DECORATE = (
    b'{"id":"%s","op":"variation.decorate","args":{"surface":"s",'
    b'"discourse_markers":{"openings":["So,","Well,","Right,"],"closings":[""]},'
    b'"register_id":"r","trace_hash":"' + b"0" * 64 + b'","turn_idx":%s}}'
)
NOT_INTEGERS = (b"2e0", b"2E0", b"2e+0", b"20e-1", b"0.2e1", b"2.0", b"2.00", b"-0.0")
"""Whole values written with a fraction or an exponent: PROTOCOL_BAD_ARGS, field turn_idx."""
NOT_JSON = (b"01", b"+1", b"-01", b"00", b"1.", b".5", b"0x1")
"""Literals JSON does not have: the line is PROTOCOL_BAD_JSON (id null, no field)."""
SAME_AS = ((b"-0", b"0"), (b"2", b"2"))
"""Integer literals and the literal they must select exactly as."""


def _lines(template: bytes, cases: list[tuple[str, bytes]]) -> bytes:
    return b"".join(template % (rid.encode(), literal) + b"\n" for rid, literal in cases)


def _refusal(response: Any, what: str) -> dict[str, Any]:
    assert isinstance(response, dict), f"{what}: response {response!r} is not an object"
    assert response.get("ok") is False, f"{what}: answered with ok: {response.get('result')!r}"
    error = response.get("error")
    assert isinstance(error, dict), f"{what}: error {error!r}"
    return error


@requirement(
    "PROTO-NUMBER-001",
    "an integer argument is read from its literal: turn_idx written 2e0, 2E0, 2e+0, 20e-1, "
    "0.2e1, 2.0, 2.00 or -0.0 is refused (PROTOCOL_BAD_ARGS, field turn_idx) by "
    "variation.select and variation.decorate; 01, +1, -01, 00, 1., .5 and 0x1 are not JSON "
    "(PROTOCOL_BAD_JSON); -0 is the integer 0",
    family="protocol",
    capabilities=("variation",),
    seed="docs/protocol.md § Requests (Numbers: an integer is written without a fraction or "
    "exponent; 2.0 and 2e0 are not integers); § Error codes",
    max_examples=1,
)
def integer_literals(engine: EngineClient, _: object) -> None:
    for op, template in (("variation.select", SELECT), ("variation.decorate", DECORATE)):
        floats = [(f"f{i}", literal) for i, literal in enumerate(NOT_INTEGERS)]
        garbage = [(f"g{i}", literal) for i, literal in enumerate(NOT_JSON)]
        same = [(f"s{i}", pair[k]) for i, pair in enumerate(SAME_AS) for k in (0, 1)]
        data = _lines(template, floats + garbage + same)
        responses = engine.raw_lines(data)
        answers = iter(responses)
        for (_, literal), response in zip(floats, answers, strict=False):
            what = f"{op} with turn_idx {literal.decode()}"
            error = _refusal(response, what)
            assert error.get("code") == "PROTOCOL_BAD_ARGS", (
                f"{what}: refused with {error.get('code')!r}; a number written with a fraction "
                "or an exponent is not an integer, so the argument is mistyped"
            )
            assert error.get("field") == "turn_idx", f"{what}: field {error.get('field')!r}"
        for (_, literal), response in zip(garbage, answers, strict=False):
            what = f"{op} with turn_idx {literal.decode()}"
            error = _refusal(response, what)
            assert error.get("code") == "PROTOCOL_BAD_JSON", (
                f"{what}: refused with {error.get('code')!r}; the line is not JSON"
            )
            assert response.get("id") is None, f"{what}: id {response.get('id')!r}, not null"
        rest = list(answers)
        for i, (literal, twin) in enumerate(SAME_AS):
            got, want = rest[2 * i], rest[2 * i + 1]
            what = f"{op} with turn_idx {literal.decode()}"
            assert isinstance(got, dict) and got.get("ok") is True, f"{what}: {got!r}"
            assert isinstance(want, dict) and want.get("ok") is True, f"{twin.decode()}: {want!r}"
            assert got["result"] == want["result"], (
                f"{what} answered {got['result']!r}, turn_idx {twin.decode()} {want['result']!r}"
            )
