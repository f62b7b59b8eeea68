"""A session resumes a store's life under the register it is opened with, not the one the
store's ``session`` record names (docs/protocol.md § Sessions on a store: every turn's
record is what the session that lived that life would have answered had it never
stopped, "under the register this session was opened with").

The life (turns, subject, rotor, vault) is what the truth side lived, the same under
every register (docs/state.md § The life: nothing else a turn reads changes from turn to
turn), so the turns after the switch are those of one uninterrupted session under the new
register. A port that restores the register from the ``session`` record, or refuses the
switch, fails.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import lemmas_of, uninterrupted
from conformance.state import format as fmt
from conformance.state.conversation import conversation, prompt
from conformance.state.driver import scratch
from conformance.state.life import record_of
from conformance.state.oracle import schema_of

LIFE = ("sessions", "state", "state.life")
BEFORE, AFTER = 3, 3
SWITCHES = [
    (lived, resumed)
    for lived in FOUR_REGISTERS
    for resumed in FOUR_REGISTERS
    if lived != resumed and None in (lived, resumed)
]
"""A life lived under one register and resumed under another (one side UNREGISTERED)."""
RESTARTS = ("same store", "store closed and reopened")


def _prompts(lemmas: list[str], seed: int) -> list[str]:
    """Teach first, then a generated conversation, so later turns recall the vault."""
    return [prompt("teach", lemmas[0], lemmas[1]), *conversation(lemmas, BEFORE + AFTER - 1, seed)]


def _live(
    engine: EngineClient, store: str, register_id: str | None, prompts: list[str]
) -> tuple[int, list[str]]:
    """Open a session on *store* under *register_id*, live *prompts*, close the session;
    the ``turn_idx`` the open answered and the turn records."""
    opened = engine.call("session.open", {"register_id": register_id, "store": store})
    records = [
        record_of(engine.call("session.chat", {"session": opened["session"], "text": text}))
        for text in prompts
    ]
    engine.call("session.close", {"session": opened["session"]})
    return opened["turn_idx"], records


@requirement(
    "STATE-LIFE-601",
    "a session opened on a store under another register than the one its life was lived "
    "under resumes that life under the register it was opened with: its turns are, byte "
    "for byte, those of one uninterrupted session under that register (on the same open "
    "store, and after the store was closed and reopened), and the store's session record "
    "names that register",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Open: under the register this session "
    "was opened with; Each turn: the session record naming the register); docs/state.md § "
    "The life",
    strategy=lambda ctx: st.tuples(
        st.sampled_from(SWITCHES), st.sampled_from(RESTARTS), st.integers(0, 2**16)
    ),
    max_examples=4,
    cover=coverage.each(
        "switches", [(switch, restart, 0) for switch in SWITCHES[:2] for restart in RESTARTS]
    ),
)
def resumed_under_its_own_register(engine: EngineClient, case: tuple[Any, str, int]) -> None:
    (lived_under, resumed_under), restart, seed = case
    prompts = _prompts(lemmas_of(engine, seed), seed)
    whole = uninterrupted(engine, resumed_under, prompts)
    with scratch() as root:
        directory = root / "life"
        store = engine.call("state.open", {"dir": str(directory)})["store"]
        try:
            _live(engine, store, lived_under, prompts[:BEFORE])
            if restart == RESTARTS[1]:
                engine.call("state.close", {"store": store})
                store = engine.call("state.open", {"dir": str(directory)})["store"]
            turn_idx, records = _live(engine, store, resumed_under, prompts[BEFORE:])
        finally:
            engine.call("state.close", {"store": store})
        version = schema_of(engine.capabilities())
        stored = fmt.read_core(fmt.live_core(directory), version)
    sessions = [r.get("register_id") for r in stored if r.get("kind") == "session"]
    assert sessions == [resumed_under], (
        f"lived under {lived_under}, resumed under {resumed_under} ({restart}): the store's "
        f"session records name {sessions}; each turn writes the session record naming the "
        "register the session was opened with"
    )
    assert turn_idx == BEFORE, f"the session resumed at turn {turn_idx}, not {BEFORE}"
    for index, record in enumerate(records, start=BEFORE):
        assert record == whole[index], (
            f"lived under {lived_under}, resumed under {resumed_under} ({restart}): turn "
            f"{index} ({prompts[index]!r}) answered {record}, not the uninterrupted {whole[index]}"
        )
