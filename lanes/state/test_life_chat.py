"""docs/state.md § The life: what the user taught survives a restart of ``chat --state``.

Real processes: each ``chat`` runs to the end of its input and exits; the next one starts
on the same directory. No timing is asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conformance.state.conversation import conversation
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.life import rotor_bits, rotor_of
from reference.state import load_state

FIELDS = ("trace_hash", "surface", "register_variant_id", "grounding_source", "turn_idx")


def _chat(directory: Path | None, prompts: list[str], register: str | None = None) -> list[dict]:
    command = [sys.executable, "-m", "reference", "chat", "--json"]
    command += ["--state", str(directory)] if directory is not None else []
    command += ["--register", register] if register is not None else []
    done = subprocess.run(
        command,
        input="".join(p + "\n" for p in prompts),
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_taught_then_restarted_then_recalled_from_the_vault(tmp_path: Path) -> None:
    _chat(tmp_path / "life", ["Parent is a kind of relative."])
    (answer,) = _chat(tmp_path / "life", ["What did I say about parent?"])
    assert answer["grounding_source"] == "vault"
    assert "parent is a kind of relative." in answer["surface"]
    assert answer["turn_idx"] == 1


def test_a_life_in_three_processes_is_the_uninterrupted_life(tmp_path: Path) -> None:
    lemmas = ["parent", "light", "water", "tree", "memory", "star", "relative"]
    prompts = conversation(lemmas, 18, seed=29)
    whole = _chat(None, prompts, "convivial_v1")
    pieces = [
        *_chat(tmp_path / "life", prompts[:5], "convivial_v1"),
        *_chat(tmp_path / "life", prompts[5:11], "convivial_v1"),
        *_chat(tmp_path / "life", prompts[11:], "convivial_v1"),
    ]
    assert [[t[f] for f in FIELDS] for t in pieces] == [[t[f] for f in FIELDS] for t in whole]
    assert {t["grounding_source"] for t in whole} >= {"vault", "pack"}


def test_the_checkpoint_holds_the_life_of_the_runtime(tmp_path: Path) -> None:
    with ChatRuntime(RuntimeConfig(state_dir=tmp_path / "life")) as runtime:
        for text in ["Parent is a kind of relative.", "No, a parent is a guide.", "What is it?"]:
            runtime.chat(text)
        life = runtime.truth.life()
    records = load_state(tmp_path / "life").records
    held = records[("life", "life")]
    assert (held["turns"], held["context"]) == (3, life.context)
    assert rotor_of(held["rotor"]).tobytes() == life.rotor.tobytes()
    assert held["rotor"] == rotor_bits(life.rotor)
    (vault,) = [r for (kind, _), r in records.items() if kind == "vault"]
    assert (vault["lemma"], vault["count"], vault["latest_claim"]) == ("parent", 3, "is a guide")


def test_bit_patterns_are_big_endian_ieee_754() -> None:
    import numpy as np

    bits = rotor_bits(np.array([1.0, -0.0, 0.1] + [0.0] * 29))
    assert bits[:3] == ["3ff0000000000000", "8000000000000000", "3fb999999999999a"]
