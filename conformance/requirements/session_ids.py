"""Opening a session validates its register id: only null is the UNREGISTERED sentinel."""

from __future__ import annotations

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement


@requirement(
    "LOAD-ID-003",
    "session.open refuses an invalid register id (the empty string included) with "
    "REGISTER_INVALID_ID; only null opens the UNREGISTERED sentinel",
    family="loader",
    capabilities=("sessions",),
    seed="docs/registers.md § Loading (steps 1 and 2); docs/protocol.md § session.open",
    strategy=lambda ctx: gen.invalid_ids,
    cover=coverage.broken_ids,
)
def session_ids_checked(engine: EngineClient, register_id: str) -> None:
    try:
        opened = engine.call("session.open", {"register_id": register_id})
    except EngineRefused as refusal:
        assert refusal.code == "REGISTER_INVALID_ID", (
            f"id {register_id!r}: refused with {refusal.code}, expected REGISTER_INVALID_ID"
        )
        return
    engine.call("session.close", {"session": opened["session"]})
    raise AssertionError(f"id {register_id!r}: session.open accepted it")
