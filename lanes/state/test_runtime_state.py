"""A chat runtime with a state directory checkpoints every turn and resumes the same life."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reference.runtime import ChatRuntime, RuntimeConfig
from reference.state import StateError, load_state, read_lineage

SCRIPT = ["What is light?", "Tell me about parent.", "hello"]


def _chat(directory, script, register="convivial_v1"):
    with ChatRuntime(RuntimeConfig(register_id=register, state_dir=directory)) as runtime:
        return [runtime.chat(prompt) for prompt in script]


def test_every_turn_is_checkpointed_and_the_next_boot_resumes(tmp_path):
    _chat(tmp_path / "life", SCRIPT)
    first = load_state(tmp_path / "life")
    assert (first.generation, first.turn_count) == (3, 3)
    assert first.records[("session", "session")]["register_id"] == "convivial_v1"
    _chat(tmp_path / "life", SCRIPT[:1])
    assert load_state(tmp_path / "life").turn_count == 4
    assert [e["reason"] for e in read_lineage(tmp_path / "life")] == ["fresh", "resume"]


def test_clean_shutdown_is_byte_identical_to_the_last_turn(tmp_path):
    runtime = ChatRuntime(RuntimeConfig(state_dir=tmp_path / "life"))
    runtime.chat("What is light?")
    live = tmp_path / "life" / "gen-00000001"
    before = {path.name: path.read_bytes() for path in live.iterdir()}
    runtime.close()
    assert load_state(tmp_path / "life").generation == 1
    assert {path.name: path.read_bytes() for path in live.iterdir()} == before


def test_persistence_does_not_touch_the_truth(tmp_path):
    with_state = _chat(tmp_path / "life", SCRIPT)
    with ChatRuntime(RuntimeConfig(register_id="convivial_v1")) as runtime:
        without = [runtime.chat(prompt) for prompt in SCRIPT]
    assert with_state == without


def test_a_second_runtime_on_the_same_state_is_refused(tmp_path):
    with ChatRuntime(RuntimeConfig(state_dir=tmp_path / "life")):
        with pytest.raises(StateError) as refused:
            ChatRuntime(RuntimeConfig(state_dir=tmp_path / "life"))
        assert refused.value.code == "STATE_LOCKED"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "reference",
                "chat",
                "--state",
                str(tmp_path / "life"),
                "--once",
                "hi",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2 and "STATE_LOCKED" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
