"""The life's ``turns`` is the session's own count, and the manifest's ``turn_count`` counts
``turn`` mutations: a client that applies more makes them differ, and each keeps its own
meaning (docs/state.md § The life).

A session on a fresh store lives two turns and closes; the client applies three ``turn``
mutations of its own; a second session on the store opens at ``turn_idx`` 2 (the life's
turns, not the store's turn count of 5), lives one turn (``turn_idx`` 2) and closes. The
store's close answers turn count 6; the live generation, read with the suite's reader,
holds the manifest's ``turn_count`` 6 and the ``life`` record's ``turns`` 3; a reopened
store's session opens at ``turn_idx`` 3. A port that resumes a session at the store's turn
count, or writes the turn count as the life's turns (or the turns as the count), fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.driver import scratch

TEXTS = ("What is light?", "Tell me about water.", "What is light?")
EXTRA_TURNS = 3


def _live(directory: Path, version: int) -> tuple[int, Any]:
    """The live manifest's turn count and the turns of its ``life`` record (None: none)."""
    number = fmt.read_pointer((directory / "CURRENT").read_bytes())
    manifest, core = fmt.read_generation(directory / f"gen-{number:08d}", version)
    lives = [json.loads(line) for line in core.splitlines() if b'"kind":"life"' in line]
    return manifest["turn_count"], lives[0].get("turns") if lives else None


def _session(engine: EngineClient, store: str, texts: tuple[str, ...]) -> tuple[Any, list[Any]]:
    opened = engine.call("session.open", {"register_id": None, "store": store})
    turns = [
        engine.call("session.chat", {"session": opened["session"], "text": text}).get("turn_idx")
        for text in texts
    ]
    engine.call("session.close", {"session": opened["session"]})
    return opened.get("turn_idx"), turns


@requirement(
    "STATE-LIFE-461",
    "a session lives 2 turns on a store, the client applies 3 turn mutations, a second "
    "session opens at turn_idx 2 (the life's turns, not the turn count 5) and lives turn 2: "
    "the close answers turn count 6, the live manifest holds turn_count 6 and the life "
    "record turns 3, and a reopened store's session opens at turn_idx 3",
    family="state",
    capabilities=("state.life",),
    seed="docs/state.md § The life (turns is the session's own count; the manifest's "
    "turn_count counts turn mutations; the two agree unless a client applies more)",
    max_examples=1,
)
def life_turns_and_turn_count(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    problems: list[str] = []
    with scratch() as root:
        directory = root / "state"
        store = engine.call("state.open", {"dir": str(directory)})["store"]
        first, turns = _session(engine, store, TEXTS[:2])
        if (first, turns) != (0, [0, 1]):
            problems.append(f"a fresh store's session opened at {first!r}, turns {turns}")
        extra = [{"op": "turn"}] * EXTRA_TURNS
        engine.call("state.apply", {"store": store, "mutations": extra})
        counted = engine.call("state.digest", {"store": store}).get("turn_count")
        if counted != 2 + EXTRA_TURNS:
            problems.append(
                f"after 2 turns and {EXTRA_TURNS} turn mutations, turn_count {counted!r}"
            )
        second, turns = _session(engine, store, TEXTS[2:])
        if (second, turns) != (2, [2]):
            problems.append(
                f"the second session opened at turn_idx {second!r} and lived {turns}, not 2 and "
                f"[2]: the life's turns, not the store's turn count {counted!r}"
            )
        closed = engine.call("state.close", {"store": store})
        if closed.get("turn_count") != 6:
            problems.append(f"state.close answered turn_count {closed.get('turn_count')!r}, not 6")
        count, lived = _live(directory, version)
        if (count, lived) != (6, 3):
            problems.append(
                f"the live generation holds turn_count {count!r} and life turns {lived!r}, "
                "not 6 and 3"
            )
        store = engine.call("state.open", {"dir": str(directory)})["store"]
        third = engine.call("session.open", {"register_id": None, "store": store})
        engine.call("session.close", {"session": third["session"]})
        engine.call("state.close", {"store": store})
        if third.get("turn_idx") != 3:
            problems.append(
                f"after a reopen the session opened at {third.get('turn_idx')!r}, not 3"
            )
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
