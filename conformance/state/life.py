"""A life lived across engine processes: one fresh process, a conversation on a state
store, a SIGKILL at a chosen point, another fresh process that finishes it
(docs/protocol.md § Sessions on a store).

Each process comes from a :data:`~conformance.state.killer.Spawn`: forked from a zygote
when the engine claims ``fork`` (docs/protocol.md § Forking), else started from its
command; either serves core-engine/1 as a freshly started engine does.

The kill lands after a chosen number of answered turns, either between turns or while
the next turn is in flight: that turn's request is sent, then the process is killed after
a chosen fraction of the mean time its answered turns took (measured in this run), so a
slow engine is killed at every moment of its turn as a fast one is. Times only place the
kill; nothing is asserted about them.
"""

from __future__ import annotations

import json
import select
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conformance.canonical import canonical_json
from conformance.state.killer import KILL_TIMEOUT, Soaker, Spawn, SpawnFailed, Started, start

RECORD_FIELDS = (
    "grounding_source",
    "intent",
    "pre_decoration_surface",
    "register_id",
    "register_variant_id",
    "subject",
    "surface",
    "trace_hash",
    "turn_idx",
    "versor_condition",
)
"""The fields of a turn record ``session.chat`` answers (docs/protocol.md)."""

TURN_WINDOW = 2.0
"""An in-flight kill lands within this many mean turn times after the request is sent."""


def record_of(result: Mapping[str, Any]) -> str:
    """A turn's record as canonical JSON of its documented fields: compared byte for byte."""
    return canonical_json({field: result.get(field) for field in RECORD_FIELDS})


class EngineGone(Exception):
    """The engine process ended (or answered nothing within the ceiling)."""


class LifeProcess:
    """One engine process, driven one request at a time over its input and output: started
    from *command* (a list), or the process *command* is (a :class:`Soaker`)."""

    def __init__(self, command: list[str] | Soaker) -> None:
        self.process = command if isinstance(command, Soaker) else Started(start(command))
        self._ids = 0
        self._buffer = b""

    def send(self, op: str, args: Mapping[str, object]) -> int:
        """Write one request; return its id."""
        self._ids += 1
        line = json.dumps({"id": self._ids, "op": op, "args": dict(args)}) + "\n"
        self.process.send(line.encode("utf-8"))
        return self._ids

    def answer(self, request_id: int) -> dict[str, Any]:
        """The response to *request_id* (event lines skipped)."""
        while True:
            message = json.loads(self._line())
            if isinstance(message, dict) and "ok" in message and message.get("id") == request_id:
                return message

    def call(self, op: str, args: Mapping[str, object]) -> dict[str, Any]:
        """The result of *op*; AssertionError naming the refusal."""
        response = self.answer(self.send(op, args))
        assert response.get("ok") is True, f"{op} {dict(args)} refused: {response.get('error')}"
        result = response.get("result")
        assert isinstance(result, dict), f"{op}: result {result!r}"
        return result

    def _line(self) -> bytes:
        stdout = self.process.stdout
        deadline = time.monotonic() + KILL_TIMEOUT
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([stdout], [], [], max(0.0, deadline - time.monotonic()))
            chunk = stdout.read1(65536) if ready else b""  # type: ignore[attr-defined]
            if not chunk:
                raise EngineGone("the engine ended or answered nothing")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def kill(self) -> None:
        """SIGKILL the process and wait until it has ended."""
        self.process.kill()


def fresh(spawn: Spawn) -> LifeProcess:
    """A fresh engine process from *spawn*; AssertionError saying why none could be had."""
    try:
        return LifeProcess(spawn())
    except SpawnFailed as failure:
        raise AssertionError(f"no fresh engine process: {failure}") from None


@dataclass(frozen=True)
class KillPoint:
    """After *answered* turns, kill between turns (*phase* None) or with the next turn in
    flight, *phase* per mille of :data:`TURN_WINDOW` mean turn times after sending it."""

    answered: int
    phase: int | None


def open_session(
    engine: LifeProcess, directory: str, register_id: str | None
) -> tuple[str, str, int]:
    """Open *directory* and a session on it: ``(store, session, turn_idx)``."""
    store = engine.call("state.open", {"dir": directory})["store"]
    opened = engine.call("session.open", {"register_id": register_id, "store": store})
    turn_idx = opened.get("turn_idx")
    assert isinstance(turn_idx, int), f"session.open on a store answered turn_idx {turn_idx!r}"
    return store, opened["session"], turn_idx


def live_until_killed(
    spawn: Spawn,
    directory: str,
    register_id: str | None,
    prompts: list[str],
    point: KillPoint,
) -> list[str]:
    """Live *prompts* in a fresh engine from *spawn* on *directory* until *point*, then
    SIGKILL it; return the records of the turns it answered."""
    engine = fresh(spawn)
    try:
        _, session, turn_idx = open_session(engine, directory, register_id)
        assert turn_idx == 0, f"a fresh directory's session starts at turn_idx {turn_idx}"
        records, took = [], []
        for text in prompts[: point.answered]:
            sent = time.monotonic()
            records.append(
                record_of(engine.call("session.chat", {"session": session, "text": text}))
            )
            took.append(time.monotonic() - sent)
        if point.phase is not None and point.answered < len(prompts):
            mean = sum(took) / len(took) if took else 0.0
            engine.send("session.chat", {"session": session, "text": prompts[point.answered]})
            time.sleep(mean * TURN_WINDOW * point.phase / 1000)
        return records
    finally:
        engine.kill()


def resume_and_finish(
    spawn: Spawn, directory: str, register_id: str | None, prompts: list[str]
) -> tuple[int, list[str]]:
    """Take a fresh engine from *spawn*, open a session on *directory* and live the rest of
    *prompts* from the turn it resumes at; return that turn and the records."""
    engine = fresh(spawn)
    try:
        _, session, turn_idx = open_session(engine, directory, register_id)
        records = [
            record_of(engine.call("session.chat", {"session": session, "text": text}))
            for text in prompts[turn_idx:]
        ]
        return turn_idx, records
    finally:
        engine.kill()
