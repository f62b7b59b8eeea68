"""An argument of ``session.open`` that a capability gates is refused as unknown by an engine
that does not claim it: ``store`` without ``state.life`` (docs/protocol.md § Sessions on a
store), ``files`` without ``registers.load`` (docs/protocol.md § session.open)."""

from __future__ import annotations

from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement


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
    if "state.life" in engine.capabilities():
        return
    try:
        answer = engine.call("session.open", {"register_id": None, "store": "s1"})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == ("PROTOCOL_BAD_ARGS", "store"), (
            f"session.open with store, state.life not claimed: answered {refusal.code} field "
            f"{refusal.field!r}, the docs say PROTOCOL_BAD_ARGS field 'store'"
        )
        return
    engine.call("session.close", {"session": answer["session"]})
    raise AssertionError(
        "session.open with store, state.life not claimed: a session was opened, the docs say "
        "PROTOCOL_BAD_ARGS field 'store' (an unknown argument)"
    )


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
    if "registers.load" in engine.capabilities():
        return
    try:
        answer = engine.call("session.open", {"register_id": None, "files": {}})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == ("PROTOCOL_BAD_ARGS", "files"), (
            f"session.open with files, registers.load not claimed: answered {refusal.code} "
            f"field {refusal.field!r}, the docs say PROTOCOL_BAD_ARGS field 'files'"
        )
        return
    engine.call("session.close", {"session": answer["session"]})
    raise AssertionError(
        "session.open with files, registers.load not claimed: a session was opened, the docs "
        "say PROTOCOL_BAD_ARGS field 'files' (an unknown argument)"
    )
