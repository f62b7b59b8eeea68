"""A session's register is loaded when the session opens (docs/protocol.md § session.open):
what the client loads or opens afterwards under the same register id does not reach it."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import oracle
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

OPEN = "docs/protocol.md § session.open (the register is loaded now)"

FIRST = {"openings": ["First,"], "closings": [" (first pack)"], "transitions": []}
SECOND = {"openings": ["Second,"], "closings": [" (second pack)"], "transitions": []}
"""Two packs' markers whose decorations of one surface never coincide."""


def _decorated(response: dict[str, Any], markers: dict[str, Any], register_id: str) -> str:
    """The surface the decoration formula gives *response* under *markers*."""
    expected = oracle.decorate(
        response["pre_decoration_surface"],
        markers["openings"],
        markers["closings"],
        register_id,
        response["trace_hash"],
        response["turn_idx"],
    )
    decorated: str = expected["decorated"]
    return decorated


@requirement(
    "REG-OPEN-401",
    "session.open loads its register when the session opens: two sessions opened under one "
    "register id with two different ratified packs (each turn alternating between them, "
    "and the pack given to register.load again in between) each decorate every turn with "
    "the markers of the pack it was opened with",
    family="registers",
    capabilities=("sessions", "registers.ratify"),
    seed=OPEN,
    strategy=lambda ctx: st.tuples(gen.register_ids, gen.sessions(ctx, 3)).map(list),
    max_examples=15,
)
def register_loaded_at_open(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, script = scenario
    packs = (FIRST, SECOND)
    files = [ratified_files(engine, gen.pack(register_id, markers=m)) for m in packs]
    sessions = [
        engine.call("session.open", {"register_id": register_id, "files": f})["session"]
        for f in files
    ]
    for text in script:
        for which in (1, 0):
            if "registers.load" in engine.capabilities():
                engine.call(
                    "register.load", {"register_id": register_id, "files": files[1 - which]}
                )
            response = engine.call("session.chat", {"session": sessions[which], "text": text})
            want = _decorated(response, packs[which], register_id)
            assert response["surface"] == want, (
                f"session opened with the {('first', 'second')[which]} pack of {register_id!r}: "
                f"surface {response['surface']!r}, its pack's markers give {want!r}"
            )
    for session in sessions:
        engine.call("session.close", {"session": session})
