"""The life survives a SIGKILL: resuming a conversation on a state store gives the records of
the uninterrupted conversation, byte for byte (docs/protocol.md § Sessions on a store)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.registry import requirement
from conformance.state.conversation import conversation, prompt
from conformance.state.driver import scratch
from conformance.state.life import KillPoint, live_until_killed, record_of, resume_and_finish

LIFE = ("sessions", "state", "state.life")
LEMMAS_PER_LIFE = 6
"""Lemmas one conversation talks about: few enough that subjects come back."""

SCENARIO = st.tuples(
    st.sampled_from(FOUR_REGISTERS),
    st.integers(0, 2**16),
    st.integers(4, 10),
    st.integers(1, 10),
    st.one_of(st.none(), st.integers(0, 999)),
).map(list)
"""``[register_id, seed, turns, answered before the kill, phase (None: between turns)]``."""

COVER = [
    [None, 29, 8, 3, None],
    ["default_neutral_v1", 30, 8, 4, 500],
    ["terse_v1", 31, 6, 2, 0],
    ["convivial_v1", 32, 9, 5, 999],
]
"""Every register once, kills between turns and in flight at both ends of the window."""


def lemmas_of(engine: EngineClient, seed: int) -> list[str]:
    """A few one-word lemmas of the engine's lexicon, chosen by *seed*."""
    rows = engine.call("lexicon.list", {})["lemmas"]
    words = sorted(row["lemma"] for row in rows if row["lemma"].isalpha())
    return random.Random(seed).sample(words, min(LEMMAS_PER_LIFE, len(words)))


def life_prompts(engine: EngineClient, seed: int, turns: int) -> list[str]:
    """A generated conversation that teaches first and ends by recalling the whole session,
    so what was taught before a kill is read after it."""
    lemmas = lemmas_of(engine, seed)
    body = conversation(lemmas, turns - 2, seed)
    return [prompt("teach", lemmas[0], lemmas[1]), *body, prompt("recall_all", "", "")]


def uninterrupted(engine: EngineClient, register_id: str | None, prompts: list[str]) -> list[str]:
    """The records of one session that lives every prompt without a store."""
    session = engine.call("session.open", {"register_id": register_id})["session"]
    try:
        return [
            record_of(engine.call("session.chat", {"session": session, "text": text}))
            for text in prompts
        ]
    finally:
        engine.call("session.close", {"session": session})


@requirement(
    "STATE-LIFE-001",
    "a generated conversation (teach, recall, correct, compare, under every register) lived in "
    "a session on a state store, SIGKILLed between turns or with a turn in flight and "
    "resumed by a fresh process on the same directory, gives the turn records (trace hash, "
    "surfaces, variant id, grounding, turn index) of the uninterrupted conversation byte for "
    "byte; the resumed session starts at the last answered turn or the one in flight",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store; docs/state.md § The life; issue 29 § Deliver 2",
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers and kill points", COVER),
    max_examples=6,
)
def life_survives_a_kill(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed, turns, answered, phase = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    prompts = life_prompts(engine, seed, turns)
    answered = min(answered, len(prompts) - 1)
    whole = uninterrupted(engine, register_id, prompts)
    with scratch() as root:
        directory = str(root / "life")
        point = KillPoint(answered, phase)
        before = live_until_killed(command, directory, register_id, prompts, point)
        assert len(before) == answered, f"{len(before)} turns answered before the kill"
        resumed_at, after = resume_and_finish(command, directory, register_id, prompts)
    allowed = {answered} if phase is None else {answered, answered + 1}
    assert resumed_at in allowed, (
        f"killed after {answered} answered turns"
        f"{'' if phase is None else ' with one in flight'}, the session resumed at turn "
        f"{resumed_at}, not {sorted(allowed)}"
    )
    lived = dict(enumerate(before)) | dict(enumerate(after, start=resumed_at))
    for index in sorted(lived):
        assert lived[index] == whole[index], (
            f"turn {index} ({prompts[index]!r}) after a kill at turn {answered}: "
            f"{lived[index]} is not the uninterrupted record {whole[index]}"
        )


def _refusal(engine: EngineClient, op: str, args: dict[str, Any]) -> tuple[str, str | None]:
    """``(code, field)`` of *op*'s refusal; AssertionError when it is answered."""
    try:
        engine.call(op, args)
    except EngineRefused as refusal:
        return refusal.code, refusal.field
    raise AssertionError(f"{op} {args} was answered")


@requirement(
    "STATE-LIFE-002",
    "a store carries the life of one session at a time: a second session.open on it is "
    "STATE_IN_USE (field store) until the first session closes; an unknown store is "
    "STATE_NOT_OPEN (field store); a turn whose store was closed answers STATE_NOT_OPEN "
    "and ends the session (SESSION_UNKNOWN from then on)",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Refusals)",
    max_examples=1,
)
def one_life_per_store(engine: EngineClient, _: object) -> None:
    with scratch() as root:
        store = engine.call("state.open", {"dir": str(root / "life")})["store"]
        first = engine.call("session.open", {"register_id": None, "store": store})["session"]
        engine.call("session.chat", {"session": first, "text": "What is light?"})
        second = _refusal(engine, "session.open", {"register_id": None, "store": store})
        assert second == ("STATE_IN_USE", "store"), f"a second session on a store: {second}"
        engine.call("session.close", {"session": first})
        again = engine.call("session.open", {"register_id": None, "store": store})
        assert again.get("turn_idx") == 1, f"the store's next session starts at {again}"
        unknown = _refusal(engine, "session.open", {"register_id": None, "store": "no-such"})
        assert unknown == ("STATE_NOT_OPEN", "store"), f"an unknown store: {unknown}"
        engine.call("state.close", {"store": store})
        turn = {"session": again["session"], "text": "What is light?"}
        closed = _refusal(engine, "session.chat", turn)
        assert closed == ("STATE_NOT_OPEN", "store"), f"a turn on a closed store: {closed}"
        ended = _refusal(engine, "session.chat", turn)
        assert ended[0] == "SESSION_UNKNOWN", f"the next turn of that session: {ended}"
