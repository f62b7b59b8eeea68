"""A checkpoint's work follows what changed, and its bytes are those of the plain encoder:
the core cache, the identity hashed once, prune not re-reading the writer's own
generations, and only the tallies a turn touched put."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.state.format import bases_named
from lanes.state.state_helpers import put, recognizer
from reference.runtime.life import unwritten
from reference.state import StateStore, identity, load_state
from reference.state.core import encode_core
from reference.state.core_cache import CoreCache
from reference.state.fsops import FileOps
from reference.state.layout import CORE
from reference.state.mutations import apply_mutations
from reference.state.records import CURRENT_SCHEMA_VERSION
from reference.truth.vault import Vault

KEYS = st.sampled_from(["a", "b", "c", "é", "z", "aa", "\U0001f600", "Z"])
MUTATION = st.one_of(
    st.builds(lambda k, w: put(recognizer(k, weight=w)), KEYS, st.integers(0, 3)),
    st.builds(lambda k: {"op": "delete", "kind": "recognizer", "key": k}, KEYS),
    st.just({"op": "turn"}),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(MUTATION, max_size=4), st.booleans()), max_size=25))
def test_the_cache_encodes_what_the_plain_encoder_does(
    batches: list[tuple[list[dict], bool]],
) -> None:
    cache, records, turns = CoreCache(), {}, 0
    for mutations, copied in batches:
        records, turns = apply_mutations(records, turns, mutations)
        given_records = [dict(r) for r in reversed(records.values())] if copied else None
        expected = encode_core(records.values())
        assert cache.encode(given_records or records.values()) == expected
        assert cache.encode(records.values()) == expected


def test_the_cached_identity_is_the_identity() -> None:
    cache = CoreCache()
    core = encode_core([recognizer("a")])
    for _ in range(2):
        assert cache.identity(CURRENT_SCHEMA_VERSION, core) == identity(
            CURRENT_SCHEMA_VERSION, core
        )
    assert cache.identity(CURRENT_SCHEMA_VERSION, b"") == identity(CURRENT_SCHEMA_VERSION, b"")


class CoreReads(FileOps):
    """FileOps that counts the reads of any ``core.jsonl``."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.core_reads = 0

    def read_file(self, path: Path, *, reading: bool = True) -> bytes | None:
        self.core_reads += Path(path).name == CORE
        return super().read_file(path, reading=reading)


def test_checkpoints_do_not_read_the_generations_the_writer_loaded_or_wrote(
    tmp_path: Path,
) -> None:
    for life in range(2):
        fs = CoreReads(tmp_path)
        store = StateStore.open(tmp_path, fs=fs)
        assert fs.core_reads == life, "the open reads the live generation"
        for turn in range(4):
            store.apply([put(recognizer(f"r{life}{turn}")), {"op": "turn"}])
            store.checkpoint()
            # the first prune of a reopened life reads the previous life's older generation
            assert fs.core_reads == 2 * life
        store.close()
    kept = {7, 8} | bases_named(tmp_path, [7, 8])
    assert sorted(p.name for p in tmp_path.glob("gen-*")) == [f"gen-{n:08d}" for n in sorted(kept)]
    assert len(load_state(tmp_path).records) == 8


def test_only_the_tallies_a_turn_touched_are_put() -> None:
    vault = Vault()
    for turn, lemma in enumerate(["cat", "dog", "cat"]):
        vault.store(lemma, turn)
    written = vault.hits()
    vault.store("dog", 3)
    vault.store("owl", 4)
    assert [hit.lemma for hit in unwritten(vault.hits(), written)] == ["dog", "owl"]
    assert unwritten(vault.hits(), vault.hits()) == []
    assert list(unwritten(written, ())) == list(written)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(MUTATION, max_size=4), st.booleans()), max_size=20))
def test_a_store_encodes_only_the_keys_it_touched_and_the_bytes_are_the_plain_encoders(
    batches: list[tuple[list[dict], bool]],
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        store = StateStore.open(Path(directory))
        try:
            for mutations, behind in batches:
                if behind:
                    # records replaced without apply are encoded whole
                    store._records, _ = apply_mutations(store._records, 0, mutations)
                else:
                    store.apply(mutations)
                expected = encode_core(store.records.values())
                assert store._core() == expected
                assert store.digest()["identity"] == identity(CURRENT_SCHEMA_VERSION, expected)
        finally:
            store.release()
