"""The examples README points at work: the register pack is ratified, the prompts run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reference.registers.loader import load_register_pack

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_example_register_pack_is_ratified() -> None:
    pack = load_register_pack("tutor_v1", search_path=(EXAMPLES / "registers",))
    assert pack.register_id == "tutor_v1"


def test_the_example_prompts_run_under_the_example_register() -> None:
    command = [sys.executable, "-m", "reference", "chat", "--json", "--register", "tutor_v1"]
    command += ["--register-path", str(EXAMPLES / "registers")]
    prompts = (EXAMPLES / "prompts.txt").read_bytes()
    done = subprocess.run(command, input=prompts, capture_output=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    turns = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(turns) == len(prompts.splitlines())
    assert {turn["register_id"] for turn in turns} == {"tutor_v1"}
