"""An argument of ``session.open`` that a capability gates is refused as unknown by an engine
that does not claim it: ``store`` without ``state.life`` (docs/protocol.md § Sessions on a
store), ``files`` without ``registers.load`` (docs/protocol.md § session.open)."""

from __future__ import annotations

from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import JSONEncodable
from conformance.requirements.registry import requirement


def _refused_unclaimed(
    engine: EngineClient, capability: str, argument: str, value: JSONEncodable
) -> None:
    """``session.open`` with *argument* from an engine that does not claim *capability*:
    ``PROTOCOL_BAD_ARGS`` naming the argument, never a session that ignores it."""
    if capability in engine.capabilities():
        return
    what = f"session.open with {argument}, {capability} not claimed"
    try:
        answer = engine.call("session.open", {"register_id": None, argument: value})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == ("PROTOCOL_BAD_ARGS", argument), (
            f"{what}: answered {refusal.code} field {refusal.field!r}, the docs say "
            f"PROTOCOL_BAD_ARGS field {argument!r}"
        )
        return
    engine.call("session.close", {"session": answer["session"]})
    raise AssertionError(
        f"{what}: a session was opened, the docs say PROTOCOL_BAD_ARGS field {argument!r} "
        f"(an unknown argument)"
    )


@requirement(
    "STATE-LIFE-101",
    "an engine that does not claim state.life refuses store in session.open as an unknown "
    "argument (PROTOCOL_BAD_ARGS, field store), never opening a session that ignores it "
    "(an engine claiming state.life is held to STATE-LIFE-001 to 004 instead)",
    family="state",
    capabilities=("sessions",),
    seed="docs/protocol.md § Sessions on a store: an engine that does not claim state.life "
    "refuses store as an unknown argument (PROTOCOL_BAD_ARGS)",
    max_examples=1,
)
def store_refused_without_life(engine: EngineClient, _: object) -> None:
    _refused_unclaimed(engine, "state.life", "store", "s1")


@requirement(
    "LOAD-GATE-101",
    "an engine that does not claim registers.load refuses files in session.open as an "
    "unknown argument (PROTOCOL_BAD_ARGS, field files), never opening a session that ignores "
    "them (an engine claiming registers.load is held to LOAD-SEARCH-002 instead)",
    family="loader",
    capabilities=("sessions",),
    seed="docs/protocol.md § session.open: an engine that does not claim registers.load "
    "refuses files as an unknown argument (PROTOCOL_BAD_ARGS, field files)",
    max_examples=1,
)
def files_refused_without_load(engine: EngineClient, _: object) -> None:
    _refused_unclaimed(engine, "registers.load", "files", {})
