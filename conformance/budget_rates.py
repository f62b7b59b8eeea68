"""A budgeted run's calibration: what one request costs on the engine under test, measured
with a few requests per op and nothing more.

:func:`calibrate` sends :data:`SAMPLES` ``hello`` requests and, when the engine claims
sessions, opens one session, sends :data:`SAMPLES` chat turns and closes it. It never runs
a requirement or a coverage plan, so it costs a few requests whatever the engine's speed.
A request the engine refuses or faults on leaves the other rate standing in for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from conformance.budget_plan import Rates
from conformance.engines.base import EngineClient, EngineFault, EngineRefused
from conformance.model import SuiteContext

SAMPLES = 3


def _timed(call: Callable[[], Any]) -> float:
    started = time.monotonic()
    call()
    return time.monotonic() - started


def calibrate(engine: EngineClient, ctx: SuiteContext) -> Rates:
    """Seconds per chat turn and per other request on *engine* (a few requests of each)."""
    try:
        other = min(_timed(lambda: engine.call("hello")) for _ in range(SAMPLES))
    except (EngineFault, EngineRefused):
        _restart(engine)
        return Rates(chat=0.0, other=0.0)
    try:
        if "sessions" not in engine.capabilities() or not ctx.lexicon:
            return Rates(chat=other, other=other)
        return Rates(chat=_chat_rate(engine, ctx), other=other)
    except (EngineFault, EngineRefused):
        _restart(engine)
        return Rates(chat=other, other=other)


def _chat_rate(engine: EngineClient, ctx: SuiteContext) -> float:
    session = engine.call("session.open", {"register_id": None})["session"]
    prompts = [f"What is {entry.lemma}?" for entry in ctx.lexicon[:SAMPLES]]
    turns = []
    for prompt in prompts:
        started = time.monotonic()
        engine.call("session.chat", {"session": session, "text": prompt})
        turns.append(time.monotonic() - started)
    engine.call("session.close", {"session": session})
    return sum(turns) / len(turns)


def _restart(engine: EngineClient) -> None:
    try:
        engine.restart()
    except EngineFault:
        return
