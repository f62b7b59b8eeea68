"""Step 6 keeps every generation whose core exists while it is not valid, whatever makes it
not valid (docs/state.md § Commit protocol step 6: "remove every generation but N and L and
the base each of them names ..., except one whose `core.jsonl` (or `delta.jsonl`) exists
while the generation is not valid: ... its core may hold acknowledged records the live one
lacks, so it is kept"; "Otherwise at most two generations remain").

``CURRENT`` names gen 2 (valid); gen 1 below it holds a core and is made not valid in one
way alone, the other file whole: its manifest missing, cut short (not JSON), its checksum
not matching, its identity another core's (resealed), or its core cut short (not the SHA-256
listed). Three checkpoints and a close later gen 1's core is on disk as it was. When gen 1's
core is missing (its manifest whole) it holds no core and is removed like any older
generation. A port that keeps a generation only when its manifest is damaged (reading
nothing else) removes a core that does not match its manifest, and fails; one that keeps
every generation it cannot prove valid keeps the coreless one, and fails too.

STATE-PRUNE-491.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.requirements.state_leftovers_each import (
    _checksum_off,
    _cut,
    _other_identity,
    _resealed,
    _unlinked,
)
from conformance.state import oracle
from conformance.state.driver import Stores, put, scratch

OLDER = {"kind": "recognizer", "key": "older", "pattern": "p", "weight": 1}
LIVE = {"kind": "recognizer", "key": "live", "pattern": "q", "weight": 2}

DAMAGE: dict[str, tuple[Callable[[Path], None], bool]] = {
    "its manifest.json missing, its core whole": (_unlinked("manifest.json"), True),
    "its manifest.json cut short (not JSON), its core whole": (_cut("manifest.json"), True),
    "its manifest's checksum not matching, its core whole": (_checksum_off, True),
    "its manifest's identity another core's (resealed), its core whole": (
        _resealed(_other_identity),
        True,
    ),
    "its core.jsonl cut short (not the SHA-256 listed), its manifest whole": (
        _cut("core.jsonl"),
        True,
    ),
    "its core.jsonl missing, its manifest whole": (_unlinked("core.jsonl"), False),
}
"""Each way gen 1 is made not valid, and whether step 6 keeps it (it holds a core)."""


@requirement(
    "STATE-PRUNE-491",
    "a generation below the live one that is not valid in one way alone while its core "
    "exists (its manifest missing, not JSON, a checksum or identity that does not match, or "
    "its core not the SHA-256 listed) is kept by the checkpoints that follow, its core as it "
    "was; one whose core is missing (its manifest whole) is removed",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol step 6: every generation but N, L and their bases "
    "is removed, except one whose core.jsonl exists while the generation is not valid",
    strategy=lambda ctx: st.sampled_from(sorted(DAMAGE)),
    max_examples=len(DAMAGE),
    cover=coverage.each("damage", sorted(DAMAGE)),
)
def invalid_with_core_kept(engine: EngineClient, name: str) -> None:
    spoil, kept = DAMAGE[name]
    version = oracle.schema_of(engine.capabilities())
    with scratch() as directory, Stores(engine) as stores:
        oracle.write_generation(directory, 1, oracle.encode_core([OLDER]), version, 1)
        oracle.write_generation(directory, 2, oracle.encode_core([LIVE]), version, 2)
        older = directory / "gen-00000001"
        spoil(older)
        core = (older / "core.jsonl").read_bytes() if kept else None
        opened = stores.open(directory)
        assert opened.get("generation") == 2 and not opened.get("recovered"), (
            f"gen-00000001 with {name}, CURRENT naming the valid gen-00000002: the open "
            f"answered {opened}, not generation 2"
        )
        store = opened["store"]
        for weight in range(3):
            record = {**LIVE, "weight": 10 + weight}
            engine.call("state.apply", {"store": store, "mutations": [put(record)]})
            engine.call("state.checkpoint", {"store": store})
        stores.close(store)
        path = older / "core.jsonl"
        if kept:
            assert path.is_file() and path.read_bytes() == core, (
                f"gen-00000001 with {name} is not valid while its core exists: step 6 keeps "
                f"it, yet after three checkpoints its core is "
                f"{'changed' if path.is_file() else 'gone'}"
            )
        else:
            assert not older.exists(), (
                f"gen-00000001 with {name} holds no core: step 6 removes it, yet after three "
                f"checkpoints it is still on disk"
            )
