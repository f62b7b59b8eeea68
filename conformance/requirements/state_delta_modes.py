"""File modes across delta generations (docs/state.md § Commit protocol, step 2): each file of
a new generation takes the mode of the same file in the live generation, `core.jsonl` and
`delta.jsonl` counting as the same file (a delta takes the mode of the live generation's
core, a core that of its delta).

STATE-MODE-602 plants a live delta generation whose files have a drawn mode and commits
from it (the new generation's core or delta must have that mode); then, in a fresh
directory, commits a large core, gives the live generation's files the drawn mode and
commits small changes: whenever the engine writes a delta generation (its choice), its
`delta.jsonl` has the mode of the live core.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import (
    BASE_ROWS,
    DELTA,
    TARGET_ROWS,
    VERSION,
    delta_bytes,
    write_delta,
)
from conformance.state import oracle
from conformance.state.driver import Stores, put, scratch

MODES = (0o600, 0o640, 0o444)
LARGE = [
    {"kind": "recognizer", "key": f"k{index:03d}", "pattern": "p" * 40, "weight": index}
    for index in range(200)
]
"""A core large enough that one changed record is a small part of it."""
SMALL_CHANGES = 3


def _gen(directory: Path, number: int) -> Path:
    return directory / f"gen-{number:08d}"


def _modes(generation: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in sorted(generation.iterdir())}


def _chmod_all(generation: Path, mode: int) -> None:
    for path in generation.iterdir():
        os.chmod(path, mode)


def _from_a_live_delta(engine: EngineClient, mode: int) -> list[str]:
    """A checkpoint whose live generation is a delta of *mode*: its files get *mode*."""
    with scratch() as directory, Stores(engine) as stores:
        oracle.write_generation(directory, 1, oracle.encode_core(BASE_ROWS), VERSION, 1)
        identity = oracle.identity(VERSION, oracle.encode_core(TARGET_ROWS))
        write_delta(directory, 2, 1, delta_bytes(BASE_ROWS, TARGET_ROWS), identity, 2)
        (directory / "CURRENT").write_bytes(b"gen-00000002\n")
        _chmod_all(_gen(directory, 2), mode)
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [{"op": "turn"}]})
        done = engine.call("state.checkpoint", {"store": store})
        modes = _modes(_gen(directory, done["generation"]))
        for path in _gen(directory, 2).iterdir():
            os.chmod(path, 0o644)
        return [
            f"from a live delta generation of mode {mode:04o}, the checkpoint wrote {name} "
            f"of mode {got:04o}"
            for name, got in modes.items()
            if got != mode
        ]


def _deltas_written(engine: EngineClient, mode: int) -> list[str]:
    """Small changes after a large core of *mode*: a delta the engine writes has *mode*."""
    found = []
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(r) for r in LARGE]})
        live = engine.call("state.checkpoint", {"store": store})["generation"]
        for change in range(SMALL_CHANGES):
            _chmod_all(_gen(directory, live), mode)
            row = {**LARGE[change], "weight": -change - 1}
            engine.call("state.apply", {"store": store, "mutations": [put(row)]})
            live = engine.call("state.checkpoint", {"store": store})["generation"]
            modes = _modes(_gen(directory, live))
            found += [
                f"generation {live}, committed over a live generation of mode {mode:04o}, "
                f"has {name} of mode {got:04o}"
                for name, got in modes.items()
                if got != mode
            ]
        for generation in directory.glob("gen-*"):
            _chmod_all(generation, 0o644)
    return found


@requirement(
    "STATE-MODE-602",
    "core.jsonl and delta.jsonl count as the same file for the mode a checkpoint gives: a "
    "generation committed from a live delta generation has its mode, and a delta committed "
    "over a live full generation has the mode of its core",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Commit protocol, step 2 (core.jsonl and delta.jsonl counting as the "
    "same file)",
    strategy=lambda ctx: st.sampled_from(MODES),
    max_examples=len(MODES),
    cover=coverage.each("modes", list(MODES)),
)
def delta_modes(engine: EngineClient, mode: int) -> None:
    found = _from_a_live_delta(engine, mode) + _deltas_written(engine, mode)
    assert not found, "\n".join(found)
