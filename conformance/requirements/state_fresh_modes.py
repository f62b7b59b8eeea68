"""A generation's files get mode 0644 when there is no live generation to copy the mode
from, whatever the process's umask (docs/state.md § Commit protocol, step 2).

The engine runs as a separate process started with a restrictive umask, commits the first
generation of a fresh directory and then a second one: both generations' ``core.jsonl``
and ``manifest.json`` are 0644 (the first as the fresh default, the second as the live
generation's mode). A port that creates the files owner-only, or leaves their mode to
the umask, fails.
"""

from __future__ import annotations

import stat

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch
from conformance.state.separate import END_OF_INPUT, EngineProcess

FRESH_MODE = 0o644
UMASKS = (0o077, 0o027)
"""The engine's umask: each would take a bit of 0644 off a file created without fchmod."""
FILES = ("core.jsonl", "manifest.json")
ROWS: list[EncodableObject] = [
    {"kind": "recognizer", "key": "first", "pattern": "p", "weight": 1},
    {"kind": "recognizer", "key": "second", "pattern": "q", "weight": 2},
]


@requirement(
    "STATE-MODE-601",
    "the first generation of a fresh directory has core.jsonl and manifest.json of mode "
    "0644, whatever the engine's umask, and the next checkpoint keeps that mode",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol step 2 (give each file the mode of the same file "
    "in the live generation, 0644 when fresh)",
    strategy=lambda ctx: st.sampled_from(UMASKS),
    max_examples=len(UMASKS),
    cover=coverage.each("umasks", list(UMASKS)),
)
def fresh_mode_is_0644(engine: EngineClient, umask: int) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        directory = root / "state"
        writer = EngineProcess(command, engine.transcript, umask=umask)
        try:
            store = writer.call("state.open", {"dir": str(directory)})["store"]
            for row in ROWS:
                put: list[EncodableObject] = [{"op": "put", "record": row}]
                writer.call("state.apply", {"store": store, "mutations": put})
                writer.call("state.checkpoint", {"store": store})
            writer.call("state.close", {"store": store})
            writer.end(END_OF_INPUT)
        finally:
            writer.kill()
        modes = {
            f"gen-{number:08d}/{name}": stat.S_IMODE(
                (directory / f"gen-{number:08d}" / name).stat().st_mode
            )
            for number in (1, 2)
            for name in FILES
        }
        wrong = {path: oct(mode) for path, mode in modes.items() if mode != FRESH_MODE}
        assert not wrong, f"under umask {umask:04o}, not mode 0644: {wrong}"
