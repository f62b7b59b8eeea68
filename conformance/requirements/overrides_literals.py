"""A depth is an integer only when its JSON literal is one: ``2e0`` or ``2.00`` is not 2.

docs/registers.md § Pack format: ``disclosure_domain_count`` is "an integer in `{1, 2, 3}`
(`true`/`false` are not integers here, nor `2.0` or `"2"`)"; docs/protocol.md § Requests
(Numbers): "An *integer* is a JSON number written without a fraction or exponent ...; `2.0`
and `2e0` are not integers", and a parser that turns every number into a double "cannot
check arguments as specified"; § overrides.resolve: "a malformed value (not an integer in
{1, 2, 3}) clamps to 3". The suite wrote depths with ``json.dumps``, so the only whole value
it sent that is no integer was ``2.0``: a port that tests the parsed double
(``Number.isInteger``) is caught there only if it also looks for a ``.``, and one that looks
for a ``.`` in the literal passes. PROTO-NUMBER-001 sends exponents for ``turn_idx`` alone.
Here the depth is written with an exponent or a fraction (``2e0``, ``1E0``, ``3e+0``,
``20e-1``, ``0.2e1``, ``2.00``) and as ``-0`` (the integer 0): inside a pack sent to
``register.validate``, flat and under ``per_intent``; inside an unratified pack file staged
for ``register.load`` (a structural refusal, step 5, before REGISTER_NOT_RATIFIED); and in
the overrides of ``overrides.resolve``, which clamps it to 3.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from conformance import strategies as gen
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

NOT_INTEGERS = (b"2e0", b"1E0", b"3e+0", b"20e-1", b"0.2e1", b"2.00", b"-0")
"""Depth literals that are no integer in {1, 2, 3} (``-0`` is the integer 0)."""
INTEGERS = (b"2", b"1", b"3")
"""Controls: the same values written as integers."""
PLACE = b'"@@DEPTH@@"'
D = "disclosure_domain_count"
RID = "depth_literal_v1"


def _with_depth(value: Any, literal: bytes) -> bytes:
    """*value* as compact JSON with its one ``@@DEPTH@@`` string written as *literal*."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert text.count(PLACE) == 1
    return text.replace(PLACE, literal)


def _answers(engine: EngineClient, lines: list[bytes]) -> list[dict[str, Any]]:
    responses = engine.raw_lines(b"".join(line + b"\n" for line in lines))
    assert len(responses) == len(lines), f"{len(lines)} lines got {len(responses)} responses"
    for response in responses:
        assert isinstance(response, dict), f"response {response!r} is not an object"
    return responses


def _error(response: dict[str, Any]) -> tuple[Any, Any] | None:
    if response.get("ok") is True:
        return None
    error = response.get("error")
    return (error.get("code"), error.get("field")) if isinstance(error, dict) else (None, None)


PLACEMENTS: dict[str, tuple[dict[str, Any], str]] = {
    "flat": ({D: "@@DEPTH@@"}, f"realizer_overrides.{D}"),
    "per_intent CAUSE": (
        {"per_intent": {"CAUSE": {D: "@@DEPTH@@"}}},
        f"realizer_overrides.per_intent.CAUSE.{D}",
    ),
}


@requirement(
    "LOAD-BOUND-473",
    "disclosure_domain_count is an integer only when written as one: 2e0, 1E0, 3e+0, 20e-1, "
    "0.2e1, 2.00 and -0 are REGISTER_OVERRIDE_OUT_OF_BOUNDS, flat and under per_intent, in a "
    "pack sent to register.validate and in a pack file staged for register.load (before "
    "REGISTER_NOT_RATIFIED); 1, 2 and 3 written as integers are not",
    family="loader",
    capabilities=("registers.validate", "registers.load"),
    seed="docs/registers.md § Pack format (disclosure_domain_count: an integer in {1, 2, 3}); "
    "docs/protocol.md § Requests (Numbers: 2.0 and 2e0 are not integers)",
    max_examples=1,
)
def depth_literal_is_integer(engine: EngineClient, _: object) -> None:
    lines: list[bytes] = []
    wants: list[tuple[str, tuple[str, str] | None]] = []
    for where, (overrides, field) in PLACEMENTS.items():
        pack = gen.pack(RID, overrides=overrides, depth_preference="terse")
        for literal in (*NOT_INTEGERS, *INTEGERS):
            bad = literal in NOT_INTEGERS
            want = ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", field) if bad else None
            request = {"id": f"v{len(lines)}", "op": "register.validate", "args": {"pack": pack}}
            lines.append(_with_depth(request, literal))
            wants.append((f"register.validate, {where} depth written {literal.decode()}", want))
            data = base64.b64encode(_with_depth(pack, literal) + b"\n").decode("ascii")
            args = {"register_id": RID, "files": {f"{RID}.json": data}}
            lines.append(
                json.dumps({"id": f"l{len(lines)}", "op": "register.load", "args": args}).encode()
            )
            unratified = ("REGISTER_NOT_RATIFIED", "mastery_report_sha256")
            wants.append(
                (
                    f"register.load of an unratified file, {where} depth {literal.decode()}",
                    want or unratified,
                )
            )
    for (what, want), response in zip(wants, _answers(engine, lines), strict=True):
        got = _error(response)
        assert got == want, (
            f"{what}: answered {'acceptance' if got is None else got}, the docs give "
            f"{'acceptance' if want is None else want}: an integer is a JSON number written "
            "without a fraction or exponent"
        )


RESOLVES: dict[str, tuple[dict[str, Any], int]] = {
    "flat depth": ({D: "@@DEPTH@@"}, 3),
    "per_intent DEFINITION depth beside a flat depth 1": (
        {D: 1, "per_intent": {"DEFINITION": {D: "@@DEPTH@@"}}},
        3,
    ),
}
"""Overrides with one depth literal, and what a literal that is no integer resolves to."""


@requirement(
    "OVR-RESOLVE-471",
    "overrides.resolve reads a depth from its literal: 2e0, 1E0, 3e+0, 20e-1, 0.2e1, 2.00 and "
    "-0 are malformed and clamp to 3 (flat, and under per_intent where they still win over "
    "the flat depth); 1 and 2 written as integers resolve to themselves",
    family="overrides",
    capabilities=("overrides",),
    seed="docs/protocol.md § overrides.resolve (a malformed value, not an integer in {1, 2, "
    "3}, clamps to 3); § Requests (Numbers)",
    max_examples=1,
)
def resolve_reads_literal(engine: EngineClient, _: object) -> None:
    lines: list[bytes] = []
    wants: list[tuple[str, int]] = []
    for where, (overrides, clamped) in RESOLVES.items():
        for literal in (*NOT_INTEGERS, b"1", b"2"):
            want = clamped if literal in NOT_INTEGERS else int(literal)
            args = {"realizer_overrides": overrides, "intent": "DEFINITION"}
            request = {"id": f"r{len(lines)}", "op": "overrides.resolve", "args": args}
            lines.append(_with_depth(request, literal))
            wants.append((f"{where} written {literal.decode()}", want))
    for (what, want), response in zip(wants, _answers(engine, lines), strict=True):
        result = response.get("result") if response.get("ok") is True else None
        got = result.get(D) if isinstance(result, dict) else response.get("error")
        assert got == want, f"overrides.resolve, {what}: answered {got!r}, the docs give {want}"
