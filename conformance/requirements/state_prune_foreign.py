"""Step 6 removes valid generations the writer never loaded (docs/state.md § Commit protocol
step 6: "remove every generation but N and L and the base each of them names"; § Recovery:
a generation past the one CURRENT names, left by a checkpoint cut between steps 4 and 5,
is numbered past and removed "once a newer one is durable").

The directory holds valid full generations 1, 2 and 3 with CURRENT naming 2, as a checkpoint
cut after its rename and before its pointer swap leaves it. The open loads 2; a checkpoint
commits N. Afterwards nothing but N, 2 and the base N names remains: 1 (older) and 3 (past
CURRENT) are valid, were neither loaded nor committed by this writer, and are removed. A
port that keeps whatever it did not read itself, or prunes only below the live generation,
leaves one of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

ROWS: list[dict[str, Any]] = [
    {"kind": "recognizer", "key": "one", "pattern": "p", "weight": 1},
    {"kind": "recognizer", "key": "two", "pattern": "q", "weight": 2},
]


def _generations(directory: Path) -> set[int]:
    return {int(p.name[4:]) for p in directory.glob("gen-*")}


def _base(directory: Path, generation: int) -> int | None:
    manifest = json.loads((directory / f"gen-{generation:08d}" / "manifest.json").read_bytes())
    base = manifest.get("base") if isinstance(manifest, dict) else None
    number = base.get("generation") if isinstance(base, dict) else None
    return number if isinstance(number, int) else None


@requirement(
    "STATE-PRUNE-002",
    "a checkpoint removes the valid generations its writer never loaded: with full "
    "generations 1, 2 and 3 on disk and CURRENT naming 2, after the open and one checkpoint "
    "N only N, 2 and the base N names remain (1 and the generation past CURRENT are gone)",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Commit protocol step 6 (remove every generation but N and L and "
    "the base each names); § Recovery (a generation past CURRENT is removed once a newer "
    "one is durable)",
    max_examples=1,
)
def foreign_valid_generations_pruned(engine: EngineClient, _: object) -> None:
    with scratch() as root:
        probe = root / "probe"
        with Stores(engine) as stores:
            version = stores.open(probe).get("schema_version")
        assert isinstance(version, int), f"state.open answered schema_version {version!r}"
        directory = root / "state"
        for number in (1, 2, 3):
            core = oracle.encode_core(ROWS[: min(number, len(ROWS))])
            oracle.write_generation(directory, number, core, version, number, point=False)
        (directory / "CURRENT").write_bytes(b"gen-00000002\n")
        with Stores(engine) as stores:
            store = stores.open(directory)
            assert store.get("generation") == 2, f"the open loaded {store}, not generation 2"
            engine.call("state.apply", {"store": store["store"], "mutations": [{"op": "turn"}]})
            new = engine.call("state.checkpoint", {"store": store["store"]})["generation"]
            left = _generations(directory)
        allowed = {new, 2} | {b for b in (_base(directory, new),) if b is not None}
        extra = sorted(left - allowed)
        assert not extra, (
            f"after checkpoint {new} of a store opened at generation 2, gen-* {sorted(left)} "
            f"remain; the docs keep only N, L and the base N names ({sorted(allowed)}): "
            f"{extra} were valid and never loaded, and step 6 removes them"
        )
