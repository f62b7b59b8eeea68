"""The id ``unregistered`` is not loadable (docs/registers.md § No register)."""

from __future__ import annotations

from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement

SENTINEL = "unregistered"


def _refusal(engine: EngineClient, op: str, args: EncodableObject) -> str:
    """What *op* answered: its refusal's code and field, or what it returned."""
    try:
        answer = engine.call(op, args)
    except EngineRefused as refusal:
        return f"{refusal.code} field {refusal.field!r}"
    if op == "session.open":
        engine.call("session.close", {"session": answer["session"]})
    return f"a result ({op} succeeded)"


@requirement(
    "LOAD-FOUND-101",
    "the sentinel's id unregistered is not a loadable id: register.load (and session.open, when "
    "the engine claims sessions) with register_id unregistered is REGISTER_NOT_FOUND, field "
    "register_id, never the UNREGISTERED sentinel",
    family="loader",
    capabilities=("registers.load",),
    seed='docs/registers.md § No register: "unregistered" never crosses the wire, and '
    '"unregistered" is not a loadable id (REGISTER_NOT_FOUND)',
    max_examples=1,
)
def sentinel_id_not_loadable(engine: EngineClient, _: object) -> None:
    want = "REGISTER_NOT_FOUND field 'register_id'"
    calls: list[tuple[str, EncodableObject]] = [
        ("register.load", {"register_id": SENTINEL, "files": {}})
    ]
    if "sessions" in engine.capabilities():
        calls.append(("session.open", {"register_id": SENTINEL}))
    for op, args in calls:
        got = _refusal(engine, op, args)
        assert got == want, f"{op} with register_id {SENTINEL!r} answered {got}, not {want}"
