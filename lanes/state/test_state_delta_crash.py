"""Crash states of checkpoints that write delta generations (docs/state.md § Delta
generations, § Commit protocol): the reference, on a core large enough for one-record
changes to be written as deltas, is traced with strace and every distinct crash state of
ALICE's model loads the last acknowledged checkpoint or the one in flight.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from conformance.engines import SubprocessEngine
from conformance.state import oracle, strace
from conformance.state.judge import distinct_states, failures
from conformance.state.traces import strace_session

ROWS = [
    {"kind": "recognizer", "key": f"k{i:02d}", "pattern": "p" * 40, "weight": i} for i in range(16)
]
BATCHES = [
    [{"kind": "recognizer", "key": "k03", "pattern": "q", "weight": 100 + n}] for n in range(3)
]


@pytest.mark.skipif(not strace.available(), reason="no strace")
def test_crash_states_of_delta_checkpoints_load_an_acknowledged_state(tmp_path: Path) -> None:
    directory = tmp_path / "live"
    oracle.write_generation(directory, 1, oracle.encode_core(ROWS), oracle.DELTA_SCHEMA_VERSION, 1)
    command = [sys.executable, "-m", "reference", "serve"]
    engine = SubprocessEngine(shlex.join(command), timeout=120.0)
    try:
        trace = strace_session(command, directory, BATCHES, engine.transcript)
        written = [op["path"] for op in trace.ops if op.get("op") == "write"]
        assert any(path.endswith("/delta.jsonl") for path in written), written
        states, ops, _ = distinct_states(trace, seed=29, samples=8)
        (tmp_path / "crashes").mkdir()
        assert not failures(engine, states, ops, tmp_path / "crashes")
    finally:
        engine.close()
