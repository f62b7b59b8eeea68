"""A core that is a directory is no core (docs/state.md § Commit protocol step 6: the
generation kept although not valid is one "whose `core.jsonl` (or `delta.jsonl`) exists",
a file; a directory of that name holds no record).

STATE-PRUNE-003: beside the live full generation 2 (CURRENT) stand generation 1, whose
``core.jsonl`` (or ``delta.jsonl``) is a directory and whose manifest is gone, and
generation 3 past CURRENT, the same. Neither is valid and neither holds a core, so the
next checkpoint's step 6 removes both with everything in them, as it removes a generation
without a core. A port that asks only whether the name exists keeps them forever (and
below a kept "delta", every older generation); one that unlinks the name first fails the
checkpoint on the directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

ROWS: list[dict[str, Any]] = [{"kind": "recognizer", "key": "one", "pattern": "p", "weight": 1}]
NAMES = ("core.jsonl", "delta.jsonl")


def _hollow(directory: Path, number: int, name: str) -> None:
    """gen-<number> holding a directory *name* (with a file in it) and nothing else."""
    inside = directory / f"gen-{number:08d}" / name
    inside.mkdir(parents=True)
    (inside / "records").write_bytes(oracle.encode_core(ROWS))


@requirement(
    "STATE-PRUNE-003",
    "a generation that is not valid and whose core.jsonl or delta.jsonl is a directory "
    "(below the live one and past CURRENT) holds no core: the next checkpoint's step 6 "
    "removes it with everything in it, and the checkpoint is acknowledged",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol step 6 (an invalid generation is kept only when "
    "its core.jsonl or delta.jsonl exists, a file: a directory of that name is no core)",
    strategy=lambda ctx: st.sampled_from(NAMES),
    max_examples=len(NAMES),
    cover=coverage.each("directory", list(NAMES)),
)
def hollow_generations_pruned(engine: EngineClient, name: str) -> None:
    with scratch() as root:
        probe = root / "probe"
        with Stores(engine) as stores:
            version = stores.open(probe).get("schema_version")
        assert isinstance(version, int), f"state.open answered schema_version {version!r}"
        directory = root / "state"
        oracle.write_generation(directory, 2, oracle.encode_core(ROWS), version, 2)
        for number in (1, 3):
            _hollow(directory, number, name)
        with Stores(engine) as stores:
            store = stores.open(directory)
            assert store.get("generation") == 2, f"the open loaded {store}, not generation 2"
            engine.call("state.apply", {"store": store["store"], "mutations": [{"op": "turn"}]})
            new = engine.call("state.checkpoint", {"store": store["store"]})["generation"]
        left = sorted(p.name for p in directory.glob("gen-*"))
        want = sorted({f"gen-{new:08d}", "gen-00000002"})
        assert left == want, (
            f"gen-1 and gen-3 hold a directory named {name} and no manifest; after checkpoint "
            f"{new} the directory holds {left}, not {want}: a directory is no core, so step 6 "
            "removes such a generation"
        )
