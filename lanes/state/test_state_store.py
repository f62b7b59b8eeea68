"""The writer store: commits, save-load-save, clean shutdown, modes, leftovers, mutations."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from state_helpers import candidate, copy_fixture, put, recognizer, snapshot

from reference.state import CURRENT_SCHEMA_VERSION, StateError, StateStore, identity, load_state


def _store_with(path: Path, *records: dict, turns: int = 1) -> StateStore:
    store = StateStore.open(path)
    store.apply([put(r) for r in records] + [{"op": "turn"}] * turns)
    return store


def test_fresh_open_then_close_without_changes_writes_no_generation(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path / "new" / "state")
    assert store.digest() == {
        "identity": identity(CURRENT_SCHEMA_VERSION, b""),
        "generation": 0,
        "turn_count": 0,
        "dirty": False,
    }
    assert store.close().generation == 0
    assert sorted(p.name for p in (tmp_path / "new" / "state").iterdir()) == [
        "LOCK",
        "lineage.journal",
    ]
    assert load_state(tmp_path / "new" / "state").fresh


def test_checkpoint_round_trips_through_load(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r", label="x"), candidate("c", evidence=3))
    info = store.checkpoint()
    store.close()
    loaded = load_state(tmp_path)
    assert (loaded.identity, loaded.generation, loaded.turn_count) == (info.identity, 1, 1)
    assert loaded.records == {
        ("recognizer", "r"): recognizer("r", label="x"),
        ("candidate", "c"): candidate("c", evidence=3),
    }
    assert (tmp_path / "CURRENT").read_bytes() == b"gen-00000001\n"


def test_save_load_save_is_byte_stable(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("b"), recognizer("a"), candidate("z"))
    first = store.checkpoint()
    store.close()
    store = StateStore.open(tmp_path)
    second = store.checkpoint()
    store.close()
    assert second.identity == first.identity
    assert second.generation == first.generation + 1
    core = [(tmp_path / f"gen-0000000{g}" / "core.jsonl").read_bytes() for g in (1, 2)]
    assert core[0] == core[1]


def test_clean_shutdown_writes_nothing_after_a_per_turn_checkpoint(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"))
    last = store.checkpoint()
    before = snapshot(tmp_path)
    assert store.close() == last
    assert snapshot(tmp_path) == before


def test_clean_shutdown_commits_changes(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"))
    store.checkpoint()
    store.apply([put(recognizer("s"))])
    assert store.digest()["dirty"]
    info = store.close()
    assert info.generation == 2
    assert load_state(tmp_path).identity == info.identity


def test_a_change_undone_is_not_a_change(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"))
    store.checkpoint()
    store.apply([put(recognizer("s")), {"op": "delete", "kind": "recognizer", "key": "s"}])
    assert not store.digest()["dirty"]
    assert store.close().generation == 1


def test_at_most_two_generations_remain(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    for n in range(5):
        store.apply([put(recognizer(f"r{n}")), {"op": "turn"}])
        store.checkpoint()
    store.close()
    assert sorted(p.name for p in tmp_path.glob("gen-*")) == ["gen-00000004", "gen-00000005"]


def test_file_modes_of_the_live_generation_are_kept(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"))
    store.checkpoint()
    for name in ("core.jsonl", "manifest.json"):
        os.chmod(tmp_path / "gen-00000001" / name, 0o600)
    os.chmod(tmp_path / "CURRENT", 0o640)
    store.apply([{"op": "turn"}])
    store.checkpoint()
    store.close()
    held = "delta.jsonl" if (tmp_path / "gen-00000002" / "delta.jsonl").exists() else "core.jsonl"
    for name in (held, "manifest.json"):
        assert stat.S_IMODE((tmp_path / "gen-00000002" / name).stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "CURRENT").stat().st_mode) == 0o640


def test_fresh_files_are_0644(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        store = _store_with(tmp_path, recognizer("r"))
        store.checkpoint()
        store.close()
    finally:
        os.umask(old)
    for name in ("core.jsonl", "manifest.json"):
        assert stat.S_IMODE((tmp_path / "gen-00000001" / name).stat().st_mode) == 0o644


def test_leftovers_of_a_crashed_commit_never_leak(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"))
    store.checkpoint()
    store.close()
    (tmp_path / "staging-2").mkdir()
    (tmp_path / "staging-2" / "core.jsonl").write_bytes(b"junk\n")
    (tmp_path / "staging-2" / "extra").write_bytes(b"junk")
    (tmp_path / "staging-9").mkdir()
    (tmp_path / "CURRENT.tmp").write_bytes(b"gen-00000002\n")
    store = StateStore.open(tmp_path)
    assert not list(tmp_path.glob("staging-*"))
    assert not (tmp_path / "CURRENT.tmp").exists()
    store.apply([{"op": "turn"}])
    info = store.checkpoint()
    store.close()
    assert sorted(p.name for p in (tmp_path / "gen-00000002").iterdir()) == [
        "core.jsonl",
        "manifest.json",
    ]
    assert load_state(tmp_path).records == {("recognizer", "r"): recognizer("r")}
    assert info.identity == load_state(tmp_path).identity


def test_a_valid_unacknowledged_newer_generation_is_kept_until_superseded(tmp_path: Path) -> None:
    state = copy_fixture("uncommitted-newer", tmp_path / "s")
    loaded = load_state(state)
    newer = snapshot(state / "gen-00000006", skip=set())
    store = StateStore.open(state)
    assert snapshot(state / "gen-00000006", skip=set()) == newer
    store.apply([{"op": "turn"}])
    info = store.checkpoint()
    store.close()
    assert info.generation == 7
    assert sorted(p.name for p in state.glob("gen-*")) == ["gen-00000005", "gen-00000007"]
    assert load_state(state).records == loaded.records


def test_an_invalid_newer_generation_is_removed_at_open(tmp_path: Path) -> None:
    state = copy_fixture("uncommitted-newer", tmp_path / "s")
    (state / "gen-00000006" / "core.jsonl").write_bytes(b"torn")
    store = StateStore.open(state)
    assert not (state / "gen-00000006").exists()
    store.release()
    assert load_state(state).generation == 5


def test_a_fall_back_is_followed_by_a_clean_commit(tmp_path: Path) -> None:
    state = copy_fixture("torn-generation", tmp_path / "s")
    store = StateStore.open(state)
    assert store.boot.recovered.startswith("CURRENT names invalid gen-00000006")
    assert store.generation == 5
    assert (state / "gen-00000006").exists(), "the generation CURRENT names is not a leftover"
    store.apply([{"op": "turn"}])
    assert store.checkpoint().generation == 7
    store.close()
    assert load_state(state).recovered is None
    assert load_state(state).generation == 7
    kept = ["gen-00000005", "gen-00000006", "gen-00000007"]
    assert sorted(p.name for p in state.glob("gen-*")) == kept, (
        "prune removed gen-00000006, whose core a fall back could not verify"
    )


@pytest.mark.parametrize(
    ("fixture", "code"),
    [
        ("v6-future", "STATE_SCHEMA_TOO_NEW"),
        ("zero-version", "STATE_SCHEMA_MALFORMED"),
        ("all-corrupt", "STATE_CORRUPT"),
        ("unsorted-core", "STATE_RECORD_MALFORMED"),
    ],
)
def test_refused_states_are_left_alone_and_unlocked(tmp_path: Path, fixture: str, code: str):
    state = copy_fixture(fixture, tmp_path / "s")
    before = snapshot(state)
    for _ in range(2):
        with pytest.raises(StateError) as caught:
            StateStore.open(state)
        assert caught.value.code == code
    assert snapshot(state) == before
    assert not (state / "lineage.journal").exists()


@pytest.mark.parametrize(
    ("mutations", "code", "field"),
    [
        ({"op": "turn"}, "STATE_BAD_MUTATION", "mutations"),
        (["turn"], "STATE_BAD_MUTATION", "mutations[0]"),
        ([{"op": "merge"}], "STATE_BAD_MUTATION", "mutations[0].op"),
        ([{"op": "turn", "n": 2}], "STATE_BAD_MUTATION", "mutations[0].n"),
        ([{"op": "put"}], "STATE_BAD_MUTATION", "mutations[0].record"),
        (
            [{"op": "delete", "kind": "ghost", "key": "k"}],
            "STATE_BAD_MUTATION",
            "mutations[0].kind",
        ),
        (
            [{"op": "delete", "kind": "candidate", "key": ""}],
            "STATE_BAD_MUTATION",
            "mutations[0].key",
        ),
        (
            [{"op": "put", "record": {"kind": "candidate"}}],
            "STATE_BAD_MUTATION",
            "mutations[0].record.key",
        ),
        ([{"op": "put", "record": [1]}], "STATE_BAD_MUTATION", "mutations[0].record"),
    ],
)
def test_bad_mutations_are_refused(tmp_path: Path, mutations: object, code: str, field: str):
    store = StateStore.open(tmp_path)
    with pytest.raises(StateError) as caught:
        store.apply(mutations)
    store.close()
    assert (caught.value.code, caught.value.field) == (code, field)


def test_a_batch_is_applied_whole_or_not_at_all(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"))
    before = store.digest()
    with pytest.raises(StateError):
        store.apply([put(recognizer("s")), {"op": "turn"}, {"op": "bogus"}])
    assert store.digest() == before
    assert store.records == {("recognizer", "r"): recognizer("r")}
    store.close()


def test_deleting_an_absent_record_is_a_no_op(tmp_path: Path) -> None:
    store = _store_with(tmp_path, recognizer("r"), turns=0)
    store.apply([{"op": "delete", "kind": "candidate", "key": "nope"}])
    assert store.records == {("recognizer", "r"): recognizer("r")}
    store.close()


def test_a_closed_store_is_not_open(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    store.close()
    calls = [
        lambda: store.apply([]),
        store.checkpoint,
        store.digest,
        store.close,
        lambda: store.propose({}),
    ]
    for call in calls:
        with pytest.raises(StateError) as caught:
            call()
        assert caught.value.code == "STATE_NOT_OPEN"
