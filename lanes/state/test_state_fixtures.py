"""Every shipped fixture loads or refuses as expected.json says; the generator reproduces them."""

from __future__ import annotations

from pathlib import Path

import pytest
from state_helpers import EXPECTED, FIXTURES, copy_fixture

from reference.state import StateError, encode_core, load_state
from tools.make_state_fixtures import check


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_loads_as_expected(name: str) -> None:
    expected = EXPECTED[name]
    if "error" in expected:
        with pytest.raises(StateError) as caught:
            load_state(FIXTURES / name)
        assert caught.value.code == expected["error"]
        return
    loaded = load_state(FIXTURES / name)
    assert {
        "identity": loaded.identity,
        "generation": loaded.generation,
        "turn_count": loaded.turn_count,
        "schema_version": loaded.schema_version,
        "recovered": loaded.recovered is not None,
    } == {k: v for k, v in expected.items() if k != "capability"}


def test_the_required_fixtures_are_shipped() -> None:
    required = {"v1", "v2", "v3", "v6-future", "missing-version", "string-version"}
    required |= {"zero-version", "pointer-garbage", "pointer-dangling", "pointer-empty"}
    required |= {"torn-generation", "all-corrupt"}
    assert required <= set(EXPECTED)
    assert {p.name for p in FIXTURES.iterdir() if p.is_dir()} == set(EXPECTED)


def test_fixtures_use_the_fields_of_their_version() -> None:
    cores = {v: (FIXTURES / v / "CURRENT").read_text().strip() for v in ("v1", "v2", "v3")}
    text = {v: (FIXTURES / v / name / "core.jsonl").read_text() for v, name in cores.items()}
    assert '"label"' not in text["v1"] and '"evidence"' not in text["v1"]
    assert '"label"' in text["v2"] and '"evidence"' not in text["v2"]
    assert '"evidence"' in text["v3"]
    kinds = {'"kind":"candidate"', '"kind":"recognizer"', '"kind":"session"'}
    assert all(kind in core for kind in kinds for core in text.values())


def test_a_v1_core_reencodes_byte_identically_at_v3() -> None:
    loaded = load_state(FIXTURES / "v1")
    core = (FIXTURES / "v1" / "gen-00000003" / "core.jsonl").read_bytes()
    assert encode_core(loaded.records.values()) == core


def test_fixtures_are_what_the_generator_writes() -> None:
    assert check(), "run python -m tools.make_state_fixtures"


def test_loading_a_copy_is_the_same(tmp_path: Path) -> None:
    state = copy_fixture("v2", tmp_path / "v2")
    assert load_state(state) == load_state(FIXTURES / "v2")
