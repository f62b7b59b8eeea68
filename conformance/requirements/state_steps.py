"""The order of a checkpoint's file operations: every pair of events the steps of
docs/state.md § Commit protocol order (``conformance.state.commit_order``), checked on one
checkpoint that has debris to clear and two generations to prune."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance import cases, details
from conformance.engines.base import EngineClient
from conformance.model import NotCheckable
from conformance.requirements.registry import requirement
from conformance.state import oracle, strace
from conformance.state.commit_order import PAIRS, violations
from conformance.state.crashstates import expand, snapshot
from conformance.state.driver import Stores, scratch
from conformance.state.traces import both_traces, plant_debris, reported_ops

RECORD: dict[str, Any] = {"kind": "recognizer", "key": "x", "pattern": "p", "weight": 1}
LIVE = 3


def _directory(directory: Path) -> None:
    """Generations 1 to 3, ``CURRENT`` naming 3: the checkpoint commits 4 and prunes 1, 2."""
    for number in range(1, LIVE + 1):
        oracle.write_generation(directory, number, oracle.encode_core([]))


def _reported(engine: EngineClient, directory: Path) -> list[dict[str, Any]]:
    """The checkpoint's operations as the engine reports them (``state.trace_checkpoint``),
    debris planted after the open; ``STATE-TRACE-001`` holds the report to what strace sees."""
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [{"op": "put", "record": RECORD}]})
        plant_debris(directory)
        image = snapshot(directory)
        traced = engine.call("state.trace_checkpoint", {"store": store})
        return expand(image, reported_ops(traced))


def _observed(engine: EngineClient, directory: Path) -> list[dict[str, Any]]:
    command = engine.spawn_command()
    if not command or not strace.available():
        raise NotCheckable(
            f"the engine claims no state.trace, and cannot be traced with strace "
            f"({strace.INSTALL_HINT}, and a command to start it)"
        )
    traces = both_traces(
        command, directory, [RECORD], engine.transcript, debris=True, reported=False
    )
    return traces.observed


@requirement(
    "STATE-STEPS-001",
    "a checkpoint's file operations keep every order the steps of the commit protocol "
    "state: debris removed before staging; each file written, then fsynced, core.jsonl before "
    "manifest.json; the staging directory fsynced, renamed to gen-N, the state directory "
    "fsynced; CURRENT.tmp written, fsynced, renamed over CURRENT, the state directory fsynced; "
    "only then generations pruned, newest first, each its core.jsonl first",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol (steps 1 to 6, in order, and within a step in "
    "the order written)",
    max_examples=1,
)
def commit_steps_in_order(engine: EngineClient, _: object) -> None:
    with scratch() as root:
        directory = root / "live"
        _directory(directory)
        if "state.trace" in engine.capabilities():
            ops, source = _reported(engine, directory), "reported"
        else:
            ops, source = _observed(engine, directory), "strace"
    details.count(traced_ops=len(ops), ordered_pairs=len(PAIRS))
    problems = violations(ops, f"gen-{LIVE + 1:08d}", debris=True)
    assert not problems, cases.lines(
        problems, f"the checkpoint ({source} operations) breaks the commit protocol's order:"
    )
