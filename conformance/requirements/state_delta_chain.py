"""A writer's own delta chain loads checkpoint after checkpoint (docs/state.md § Delta
generations: "its manifest's `identity` is that state's identity", and a delta generation is
valid only when "the identity of the state the entries give is the manifest's"; § Commit
protocol: a checkpoint is acknowledged once durable, and recovery rule 2 loads the
generation `CURRENT` names when it is valid).

STATE-DELTA-356: one key is changed in batch after batch of one store (put with another
value, put again, deleted, put back, put back to the value the first checkpoint holds), among
enough unchanged records that a writer's later checkpoints are small deltas against the
first. After every checkpoint the directory loads to the generation and identity that
checkpoint acknowledged, with nothing recovered. A port that keeps each key's delta entry
from the first time it wrote it (a cache keyed by the key alone, not by the record) writes a
stale put in the second delta: the generation's entries give another state than its
manifest's identity, so it is proven invalid and the load falls back. Then every record
changes, so a writer that compacts commits a full generation N while the live one L is a
delta: step 6 keeps L and so the base L names ("a base a kept generation needs is never
removed"); a port that forgets the live generation's base once it commits a full one removes
it. Last, every generation is removed under the writer (its base with them) and one more
record is put: the checkpoint must load as acknowledged ("A writer writes a delta only over
a base whose `core.jsonl` and `manifest.json` are on disk when it stages the delta"); a port
that stages a delta over the base it remembers acknowledges a generation that cannot load.
The same holds, in a fresh store, when only the base's `manifest.json` was removed, and again
when only its `core.jsonl` was: a port that checks one of the two files, or only the
directory, writes a delta over a base that is not whole.
An engine that writes only full generations passes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, load, put, scratch

DELTA = ("state", "state.delta")

FILLER: list[dict[str, Any]] = [
    {"kind": "recognizer", "key": f"filler-{i:02d}", "pattern": f"pattern {i}", "weight": i}
    for i in range(24)
]


def _changing(weight: int) -> dict[str, Any]:
    return {"kind": "recognizer", "key": "changing", "pattern": "p", "weight": weight}


BATCHES: list[tuple[str, list[dict[str, Any]]]] = [
    ("put with another value", [put(_changing(1)), put({**FILLER[0], "weight": 100})]),
    ("put again with a third value", [put(_changing(2))]),
    ("deleted", [{"op": "delete", "kind": "recognizer", "key": "changing"}]),
    ("put back", [put(_changing(3))]),
    ("put back to the first checkpoint's value", [put(_changing(0))]),
    ("put with the second value again", [put(_changing(1))]),
    (
        "put again while every other record changed too (a full generation again, for a "
        "writer that compacts)",
        [put(_changing(4)), *(put({**r, "weight": r["weight"] + 1000}) for r in FILLER)],
    ),
    ("put after that", [put(_changing(5))]),
]
"""Each batch, after the first checkpoint (``changing`` at weight 0 among the filler)."""


def _base_of(directory: Path, generation: int) -> Path:
    """The generation a writer's next delta would be over: the base *generation* names, or
    *generation* itself when it is full."""
    path = directory / f"gen-{generation:08d}"
    try:
        manifest = json.loads((path / "manifest.json").read_bytes())
    except (OSError, ValueError):
        return path
    base = manifest.get("base") if isinstance(manifest, dict) else None
    number = base.get("generation") if isinstance(base, dict) else None
    return directory / f"gen-{number:08d}" if isinstance(number, int) else path


def _checkpoint_loads(
    engine: EngineClient, directory: Path, store: str, mutations: list[dict[str, Any]], why: str
) -> None:
    """Apply *mutations*, checkpoint, and require the directory to load as acknowledged,
    nothing recovered; *why* completes the failure message."""
    engine.call("state.apply", {"store": store, "mutations": mutations})
    done = engine.call("state.checkpoint", {"store": store})
    want = {"generation": done.get("generation"), "identity": done.get("identity")}
    got = load(engine, directory)
    seen = {key: got.get(key) for key in want}
    assert seen == want and got.get("recovered") is None, (
        f"{why}: the checkpoint acknowledged {want}; state.load answers {seen} (recovered "
        f"{got.get('recovered')!r})"
    )


BASE_ON_DISK = (
    "a writer writes a delta only over a base whose core.jsonl and manifest.json are on disk"
)


def _one_base_file_removed(engine: EngineClient, name: str) -> None:
    """Two checkpoints, *name* removed alone from the base a delta would be over, then one
    more checkpoint, which must load as acknowledged."""
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        first = [put(record) for record in [*FILLER, _changing(0)]]
        engine.call("state.apply", {"store": store, "mutations": first})
        engine.call("state.checkpoint", {"store": store})
        engine.call("state.apply", {"store": store, "mutations": [put(_changing(1))]})
        generation = engine.call("state.checkpoint", {"store": store}).get("generation")
        assert isinstance(generation, int), f"state.checkpoint answered generation {generation!r}"
        base = _base_of(directory, generation)
        (base / name).unlink(missing_ok=True)
        why = f"{base.name}/{name} alone was removed under the writer; {BASE_ON_DISK}"
        _checkpoint_loads(engine, directory, store, [put(_changing(7))], why)


def _missing_bases(directory: Path) -> list[str]:
    """Each generation on disk whose manifest names a base that is not on disk."""
    missing = []
    for path in sorted(directory.glob("gen-*")):
        try:
            manifest = json.loads((path / "manifest.json").read_bytes())
        except (OSError, ValueError):
            continue
        base = manifest.get("base") if isinstance(manifest, dict) else None
        number = base.get("generation") if isinstance(base, dict) else None
        if isinstance(number, int) and not (directory / f"gen-{number:08d}").is_dir():
            missing.append(f"{path.name} names base {number}")
    return missing


@requirement(
    "STATE-DELTA-356",
    "one key changed in batch after batch of one store (another value, a third, deleted, "
    "put back, back to the first checkpoint's value, the second value again, then with every "
    "record changed), each batch checkpointed among 24 other records: after every checkpoint "
    "the directory loads to the generation and identity it acknowledged, nothing recovered "
    "(a delta never holds a stale entry of the key), and the base of every generation left "
    "on disk is there (a compaction keeps the previous delta's base); then, every generation "
    "removed under the writer, its next checkpoint loads as acknowledged (no delta over a "
    "base that is gone), and so it does when only the base's manifest.json, or only its "
    "core.jsonl, was removed",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: a delta generation's manifest identity is the "
    "identity of the state its entries give; recovery rule 2 loads the generation CURRENT "
    "names; commit step 6: a base a kept generation needs is never removed; a writer writes a "
    "delta only over a base whose core.jsonl and manifest.json are on disk",
    max_examples=1,
)
def delta_chain_loads(engine: EngineClient, _: object) -> None:
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        first = [put(record) for record in [*FILLER, _changing(0)]]
        batches = [("the first batch", first), *BATCHES]
        for name, mutations in batches:
            why = (
                f"the batch where the key was {name}: a writer's checkpoint must load as "
                f"acknowledged; a delta whose entries give another state than its manifest's "
                f"identity is invalid"
            )
            _checkpoint_loads(engine, directory, store, mutations, why)
            missing = _missing_bases(directory)
            assert not missing, (
                f"after the checkpoint of the batch where the key was {name}: {missing}; "
                f"step 6 never removes a base a kept generation needs"
            )
        for generation in directory.glob("gen-*"):
            shutil.rmtree(generation)
        why = f"every generation was removed under the writer; {BASE_ON_DISK}"
        _checkpoint_loads(engine, directory, store, [put(_changing(6))], why)
    for name in ("manifest.json", "core.jsonl"):
        _one_base_file_removed(engine, name)
