"""Prune keeps what a fall back could not verify: a generation whose core is present but
which is not valid may hold acknowledged records the live one lacks (docs/state.md
§ Commit protocol, step 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.state.format import bases_named
from lanes.state.state_helpers import put, recognizer
from reference.state import StateStore, load_state

DAMAGE = {
    "torn": lambda data: data[: len(data) // 2],
    "flipped": lambda data: data.replace(b'"generation":2', b'"generation":3'),
    "empty": lambda data: b"",
}


def _life(directory: Path) -> bytes:
    """Generations 1 and 2 (CURRENT), generation 2 holding one more record; its core."""
    store = StateStore.open(directory)
    store.apply([put(recognizer("a")), {"op": "turn"}])
    store.checkpoint()
    store.apply([put(recognizer("b")), {"op": "turn"}])
    store.checkpoint()
    store.close()
    return (directory / "gen-00000002" / "core.jsonl").read_bytes()


@pytest.mark.parametrize("damage", [*DAMAGE, "missing"])
def test_a_generation_fallen_back_from_is_never_pruned(tmp_path: Path, damage: str) -> None:
    core = _life(tmp_path)
    manifest = tmp_path / "gen-00000002" / "manifest.json"
    if damage == "missing":
        manifest.unlink()
    else:
        manifest.write_bytes(DAMAGE[damage](manifest.read_bytes()))
    for life in range(2):
        store = StateStore.open(tmp_path)
        assert (store.boot.recovered is not None) == (life == 0)
        for _ in range(3):
            store.apply([{"op": "turn"}])
            store.checkpoint()
        store.close()
    assert (tmp_path / "gen-00000002" / "core.jsonl").read_bytes() == core
    names = sorted(p.name for p in tmp_path.glob("gen-*"))
    kept = {2, 7, 8} | bases_named(tmp_path, [7, 8])
    assert names == [f"gen-{n:08d}" for n in sorted(kept)]
    assert load_state(tmp_path).generation == 8


def test_a_generation_without_its_core_is_pruned(tmp_path: Path) -> None:
    _life(tmp_path)
    store = StateStore.open(tmp_path)
    (tmp_path / "gen-00000001" / "core.jsonl").unlink()
    store.apply([{"op": "turn"}])
    store.checkpoint()
    store.close()
    assert sorted(p.name for p in tmp_path.glob("gen-*")) == ["gen-00000002", "gen-00000003"]
