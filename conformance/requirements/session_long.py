"""A long session's turn index keeps counting (docs/protocol.md § session.chat: `turn_idx`,
"counting this session's turns from 0"; docs/trace-hash.md: the turn log's length before
the turn).

An engine keeps a bounded window of recent turns (the reference 1,024); a port that takes
the next index from that window, not from a count of every turn, stops counting once the
window is full. One session answers more turns than any such window plausibly holds, and
each answer's `turn_idx` is its position.
"""

from __future__ import annotations

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

TURNS = 1_100
"""More turns than a window of 1,000 or 1,024 recent turns holds."""
PROMPTS = ("Hi.", "What is light?", "Hello there.")


@requirement(
    "PROTO-TURNS-001",
    f"one session of {TURNS:,} turns: each answer's turn_idx is the number of turns the "
    "session answered before it, past any window of recent turns an engine keeps",
    family="protocol",
    capabilities=("sessions",),
    seed="docs/protocol.md § session.chat (turn_idx counts this session's turns from 0); "
    "docs/trace-hash.md (turn_idx: the turn log's length before the turn)",
    expected_ms=2_000,
)
def turn_index_counts_every_turn(engine: EngineClient, _: object) -> None:
    session = engine.call("session.open", {"register_id": None})["session"]
    try:
        for position in range(TURNS):
            text = PROMPTS[position % len(PROMPTS)]
            answer = engine.call("session.chat", {"session": session, "text": text})
            got = answer.get("turn_idx")
            assert got == position, (
                f"turn {position + 1} of one session ({text!r}) answered turn_idx {got!r}; "
                f"the docs count every turn of the session from 0: {position}"
            )
    finally:
        engine.call("session.close", {"session": session})
