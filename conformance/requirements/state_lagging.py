"""A soak's events reach the output before what they announce (docs/protocol.md § Persisted-state
ops: ``state.soak`` "streams" a ``begin`` before each checkpoint and an ``ack`` once it is
durable; docs/state.md § Commit protocol: it announces N "once N is chosen, before step 2";
docs/protocol.md § Framing: lines are "flushed after each line").

STATE-KILL-002: the suite reads a soak until a few checkpoints are acknowledged, shrinks the
engine's stdout pipe to one page, stops reading, watches ``CURRENT`` for as many soak cycles
as the pipe holds checkpoints' lines (and a margin), SIGKILLs the engine and drains the
pipe. The restart must load the last checkpoint acknowledged on the pipe or the one whose
``begin`` is the last there. An engine whose writes block on a full pipe stops with its
reader and passes; one that queues its lines in memory and commits on (an asynchronous
write whose completion it never awaits) commits checkpoints no reader can learn of, and
the restart lands past every ``begin`` written. STATE-KILL-001 reads as fast as the engine
writes, so it sees this only when the machine is slow enough to let the pipe fill.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import load, scratch
from conformance.state.lagging import soak_unread

LEADS = (1, 3)
"""Checkpoints acknowledged before the reader stops reading."""


@requirement(
    "STATE-KILL-002",
    "a soak whose reader stops reading (its stdout pipe shrunk to one page) is SIGKILLed "
    "once the engine had time to fill the pipe many times over: the restart loads the last "
    "checkpoint acknowledged on the pipe or the one whose begin is the last there, so no "
    "checkpoint is committed before its begin is written",
    family="state",
    capabilities=("state", "state.soak"),
    seed="docs/protocol.md § Persisted-state ops (state.soak streams begin before each "
    "checkpoint, ack once durable); docs/state.md § Commit protocol (begin once N is chosen, "
    "before step 2); docs/protocol.md § Framing (flushed after each line)",
    strategy=lambda ctx: st.tuples(st.sampled_from(LEADS), st.integers(0, 2**16)).map(list),
    max_examples=2,
)
def lagging_reader(engine: EngineClient, plan: list[int]) -> None:
    lead, seed = plan
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        directory = root / "soak"
        directory.mkdir()
        seen = soak_unread(command, directory, seed, lead)
        record = seen.record
        assert record.error is None, f"lead {lead}, seed {seed}: {record.error}"
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            raise AssertionError(f"the restart after the kill was refused: {refusal}") from None
    outcome = record.judge(got)
    written = record.begins[-1][0] if record.begins else None
    assert outcome in ("loaded_acknowledged", "loaded_in_flight"), (
        f"the reader read {lead} acks, then stopped reading (pipe of {seen.pipe_bytes} bytes); "
        f"at the SIGKILL CURRENT named generation {seen.current_at_kill} and the restart "
        f"loaded generation {got.get('generation')}, but the last begin the engine wrote "
        f"announced generation {written} ({len(record.acks)} acks written): a checkpoint "
        f"was committed before its begin reached the output (allowed {record.allowed()})"
    )
