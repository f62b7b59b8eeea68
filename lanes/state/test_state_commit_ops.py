"""The commit as recorded file-system ops: complete, in protocol order, and replayable.

Replaying every prefix of a recorded commit (and a torn version of its last write) on a
copy of the pre-commit directory builds the crash states; each must load to the old or
the new identity, the new one once the pointer rename is done.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest
from state_helpers import put, recognizer, snapshot

from lanes._support.replay import replay
from reference.state import RecordingFileOps, StateStore, load_state
from reference.state.manifest import build_manifest
from reference.state.records import CURRENT_SCHEMA_VERSION


def _prepare(path: Path) -> tuple[StateStore, str]:
    """A store with generations 1 and 2, a leftover staging dir, and a pending change."""
    store = StateStore.open(path)
    for key in ("a", "b"):
        store.apply([put(recognizer(key)), {"op": "turn"}])
        old = store.checkpoint().identity
    store.close()
    (path / "staging-3").mkdir()
    (path / "staging-3" / "junk").write_bytes(b"junk")
    store = StateStore.open(path, fs=RecordingFileOps(path))
    store.fs.ops.clear()
    (path / "staging-3").mkdir()
    store.apply([put(recognizer("c", label="new")), {"op": "turn"}])
    return store, old


@pytest.fixture
def recorded(tmp_path: Path) -> dict:
    state = tmp_path / "state"
    store, old = _prepare(state)
    shutil.copytree(state, tmp_path / "before")
    info = store.checkpoint()
    ops = list(store.fs.ops)
    store.close()
    return {"state": state, "before": tmp_path / "before", "ops": ops, "old": old, "new": info}


def test_a_commit_records_the_protocol_in_order(recorded: dict) -> None:
    ops, new = recorded["ops"], recorded["new"]
    core = (recorded["state"] / "gen-00000003" / "core.jsonl").read_bytes()
    manifest = build_manifest(3, CURRENT_SCHEMA_VERSION, new.turn_count, core)
    b64 = lambda data: base64.b64encode(data).decode("ascii")  # noqa: E731
    assert ops == [
        {"op": "remove_tree", "path": "staging-3"},
        {"op": "mkdir", "path": "staging-3"},
        {"op": "write", "path": "staging-3/core.jsonl", "data": b64(core), "mode": 0o644},
        {"op": "fsync", "path": "staging-3/core.jsonl"},
        {"op": "write", "path": "staging-3/manifest.json", "data": b64(manifest), "mode": 0o644},
        {"op": "fsync", "path": "staging-3/manifest.json"},
        {"op": "fsync_dir", "path": "staging-3"},
        {"op": "rename", "src": "staging-3", "dst": "gen-00000003"},
        {"op": "fsync_dir", "path": "."},
        {"op": "write", "path": "CURRENT.tmp", "data": b64(b"gen-00000003\n"), "mode": 0o644},
        {"op": "fsync", "path": "CURRENT.tmp"},
        {"op": "rename", "src": "CURRENT.tmp", "dst": "CURRENT"},
        {"op": "fsync_dir", "path": "."},
        {"op": "unlink", "path": "gen-00000001/core.jsonl"},
        {"op": "remove_tree", "path": "gen-00000001"},
    ]


def test_replaying_the_ops_reproduces_the_commit(recorded: dict, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(recorded["before"], copy)
    replay(recorded["ops"], copy)
    assert snapshot(copy, skip={"LOCK"}) == snapshot(recorded["state"], skip={"LOCK"})


def _torn(op: dict) -> dict:
    data = base64.b64decode(op["data"])
    return {**op, "data": base64.b64encode(data[: len(data) // 2]).decode("ascii")}


def _crash_states(ops: list[dict]):
    for size in range(len(ops) + 1):
        yield size, ops[:size]
        if size and ops[size - 1]["op"] == "write":
            yield size - 1, [*ops[: size - 1], _torn(ops[size - 1])]


def test_every_crash_state_loads_old_or_new(recorded: dict, tmp_path: Path) -> None:
    ops, new = recorded["ops"], recorded["new"]
    swap = ops.index({"op": "rename", "src": "CURRENT.tmp", "dst": "CURRENT"})
    for case, (done, prefix) in enumerate(_crash_states(ops)):
        copy = tmp_path / f"crash-{case}"
        shutil.copytree(recorded["before"], copy)
        replay(prefix, copy)
        expected = new.identity if done > swap else recorded["old"]
        assert load_state(copy).identity == expected, prefix[-1:]
        store = StateStore.open(copy)
        store.apply([{"op": "turn"}])
        info = store.checkpoint()
        store.close()
        assert load_state(copy).identity == info.identity == expected
        assert len(list(copy.glob("gen-*"))) == 2


def test_open_records_its_effects(tmp_path: Path) -> None:
    fs = RecordingFileOps(tmp_path / "s")
    StateStore.open(tmp_path / "s", fs=fs).close()
    assert [op["op"] for op in fs.ops] == ["append", "fsync", "fsync_dir"]
    assert fs.ops[0]["path"] == "lineage.journal"
