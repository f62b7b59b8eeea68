"""Request ids come back exactly as sent, whatever their magnitude or characters."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

IDS: tuple[int | str, ...] = (
    0,
    -1,
    2**53 - 1,
    2**53 + 1,
    2**63 + 1,
    2**64 + 1,
    -(2**63) - 3,
    10**40 + 1,
    10**999 + 7,
    -(10**999) - 7,
    "",
    "\U0001f600",
    "\ue000\ud7ff",
    "line\nbreak\u0000",
    " \tpadded\n",
    " ",
)
"""Ids a double, a 64-bit integer, a C string or a trim would not carry back unchanged (white
space first, last and alone, a NUL last, a line break inside); integers of
1,000 digits, the most the guarded reader accepts (the minus sign is not a digit)."""


@requirement(
    "PROTO-ID-001",
    "a request's id is echoed exactly: integers past 2^53 and 2^64 in every digit, strings "
    "with astral, private-use, NUL and line-break characters and white space first, last or "
    "alone",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § Requests (id: integer or string, any magnitude); § Responses",
    strategy=lambda ctx: st.one_of(st.integers(-(2**80), 2**80), st.text(max_size=12)),
    cover=lambda ctx: Plan(tuple(Case(i, (("ids", repr(i)),)) for i in IDS), (("ids", len(IDS)),)),
)
def id_echoed(engine: EngineClient, request_id: int | str) -> None:
    response = engine.raw({"id": request_id, "op": "hello", "args": {}}, checked=False)
    assert isinstance(response, dict), f"id {request_id!r}: response {response!r}"
    echoed = response.get("id")
    assert echoed == request_id and type(echoed) is type(request_id), (
        f"id {request_id!r} echoed as {echoed!r}"
    )
