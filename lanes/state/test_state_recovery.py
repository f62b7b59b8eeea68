"""Recovery rules: pointer fall back, corruption, schema refusals, and the lineage journal."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from state_helpers import copy_fixture, put, recognizer

from reference.state import (
    CURRENT_SCHEMA_VERSION,
    StateError,
    StateStore,
    encode_core,
    identity,
    load_state,
    read_lineage,
)
from tools.make_state_fixtures import write_generation


def _two_generations(path: Path) -> list[str]:
    store = StateStore.open(path)
    identities = []
    for key in ("a", "b"):
        store.apply([put(recognizer(key)), {"op": "turn"}])
        identities.append(store.checkpoint().identity)
    store.close()
    return identities


@pytest.mark.parametrize(
    ("pointer", "reason"),
    [
        (None, "CURRENT missing"),
        (b"", "CURRENT empty"),
        (b"gen-00000002", "CURRENT garbage"),
        (b"gen-2\n", "CURRENT garbage"),
        (b"\xff\xfe\n", "CURRENT garbage"),
        (b"gen-00000003\n", "CURRENT dangling"),
    ],
)
def test_a_bad_pointer_falls_back_to_the_newest_valid(tmp_path: Path, pointer, reason) -> None:
    identities = _two_generations(tmp_path)
    if pointer is None:
        (tmp_path / "CURRENT").unlink()
    else:
        (tmp_path / "CURRENT").write_bytes(pointer)
    loaded = load_state(tmp_path)
    assert loaded.identity == identities[1]
    assert loaded.recovered.startswith(reason)
    assert loaded.recovered.endswith("fell back to gen-00000002")
    assert not loaded.fresh


@pytest.mark.parametrize(
    "damage",
    [
        lambda g: (g / "core.jsonl").write_bytes((g / "core.jsonl").read_bytes()[:-1]),
        lambda g: (g / "core.jsonl").unlink(),
        lambda g: (g / "manifest.json").unlink(),
        lambda g: (g / "manifest.json").write_bytes(b'{"checksum":'),
        lambda g: (g / "manifest.json").write_bytes(b"[]\n"),
        lambda g: shutil.rmtree(g),
    ],
)
def test_an_invalid_named_generation_falls_back_to_the_previous(tmp_path: Path, damage) -> None:
    identities = _two_generations(tmp_path)
    damage(tmp_path / "gen-00000002")
    loaded = load_state(tmp_path)
    assert (loaded.identity, loaded.generation) == (identities[0], 1)
    assert loaded.recovered is not None


def test_no_valid_generation_is_corrupt_never_fresh(tmp_path: Path) -> None:
    _two_generations(tmp_path)
    for gen in tmp_path.glob("gen-*"):
        (gen / "core.jsonl").write_bytes(b"")
    with pytest.raises(StateError) as caught:
        load_state(tmp_path)
    assert caught.value.code == "STATE_CORRUPT"


def test_a_pointer_without_generations_is_corrupt(tmp_path: Path) -> None:
    (tmp_path / "CURRENT").write_bytes(b"gen-00000001\n")
    with pytest.raises(StateError) as caught:
        load_state(tmp_path)
    assert caught.value.code == "STATE_CORRUPT"


def test_an_empty_or_missing_directory_is_fresh(tmp_path: Path) -> None:
    (tmp_path / "staging-1").mkdir()
    (tmp_path / "lineage.journal").write_bytes(b"")
    for path in (tmp_path, tmp_path / "missing"):
        loaded = load_state(path)
        assert loaded.fresh and loaded.generation == 0 and loaded.records == {}
        assert loaded.identity == identity(CURRENT_SCHEMA_VERSION, b"")


@pytest.mark.parametrize("pointer", [b"gen-00000007\n", b"junk", None])
@pytest.mark.parametrize(
    ("version", "code"), [(6, "TOO_NEW"), (-1, "MALFORMED"), (True, "MALFORMED")]
)
def test_a_schema_refusal_never_falls_back(tmp_path: Path, pointer, version, code) -> None:
    core = encode_core([recognizer("r")])
    write_generation(tmp_path, 6, 3, 1, core)
    write_generation(tmp_path, 7, version, 2, core)
    if pointer is not None:
        (tmp_path / "CURRENT").write_bytes(pointer)
    with pytest.raises(StateError) as caught:
        load_state(tmp_path)
    assert caught.value.code == f"STATE_SCHEMA_{code}"
    assert caught.value.field == "schema_version"


def test_lineage_records_fresh_resume_and_migration(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path / "s")
    store.apply([put(recognizer("r")), {"op": "turn"}])
    first = store.close()
    store = StateStore.open(tmp_path / "s")
    store.close()
    events = read_lineage(tmp_path / "s")
    assert [e["reason"] for e in events] == ["fresh", "resume"]
    assert [e["boot"] for e in events] == [1, 2]
    assert events[0]["parent"] is None and events[0]["from_version"] is None
    assert events[1]["parent"] == first.identity == events[1]["identity"]
    assert events[1]["from_version"] == events[1]["to_version"] == CURRENT_SCHEMA_VERSION


def test_loading_v1_is_a_schema_migration(tmp_path: Path) -> None:
    state = copy_fixture("v1", tmp_path / "v1")
    old = load_state(state)
    core = (state / "gen-00000003" / "core.jsonl").read_bytes()
    store = StateStore.open(state)
    boot = store.boot
    assert (boot.reason, boot.from_version, boot.to_version) == (
        "schema_migration",
        1,
        CURRENT_SCHEMA_VERSION,
    )
    assert boot.parent == old.identity
    assert boot.identity == identity(CURRENT_SCHEMA_VERSION, core) != old.identity
    assert store.digest()["dirty"]
    info = store.close()
    assert (state / "gen-00000004" / "core.jsonl").read_bytes() == core
    assert load_state(state).schema_version == CURRENT_SCHEMA_VERSION
    assert info.identity == boot.identity
    store = StateStore.open(state)
    store.close()
    assert [e["reason"] for e in read_lineage(state)] == ["schema_migration", "resume"]


def test_a_fall_back_is_recorded_in_the_lineage(tmp_path: Path) -> None:
    state = copy_fixture("pointer-garbage", tmp_path / "s")
    store = StateStore.open(state)
    store.close()
    (event,) = read_lineage(state)
    assert event["reason"] == "schema_migration"  # the fixtures are at schema version 3
    assert event["recovered"] == "CURRENT garbage; fell back to gen-00000006"
    assert event["recovered"] == store.boot.recovered


def test_boot_index_continues_past_a_corrupt_lineage_line(tmp_path: Path) -> None:
    for _ in range(3):
        StateStore.open(tmp_path).close()
    lineage = tmp_path / "lineage.journal"
    lines = lineage.read_bytes().splitlines(keepends=True)
    lineage.write_bytes(lines[0] + lines[1].replace(b'"boot":2', b'"boot":9') + lines[2])
    store = StateStore.open(tmp_path)
    store.close()
    assert store.boot.boot == 4
    assert [e["boot"] for e in read_lineage(tmp_path)] == [1, 3, 4]


def test_loaded_records_match_their_encoding(tmp_path: Path) -> None:
    state = copy_fixture("v3", tmp_path / "s")
    loaded = load_state(state)
    assert identity(3, encode_core(loaded.records.values())) == loaded.identity
