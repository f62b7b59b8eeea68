"""Runtime lane: byte-identical replay across fresh runtimes and across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from reference.canonical import wire_json
from reference.runtime import ChatRuntime
from reference.runtime.probe_script import lexicon_script

RESPONSE_FIELDS = {
    "surface",
    "pre_decoration_surface",
    "trace_hash",
    "grounding_source",
    "intent",
    "subject",
    "turn_idx",
    "versor_condition",
    "register_id",
    "register_variant_id",
    "says",
}


def _transcript(script: list[str]) -> str:
    runtime = ChatRuntime()
    return "\n".join(wire_json(runtime.chat(p).as_json()) for p in script)


def test_two_fresh_runtimes_are_byte_identical():
    script = lexicon_script()
    assert _transcript(script) == _transcript(script)


def test_turn_log_mirrors_responses():
    runtime = ChatRuntime()
    responses = [runtime.chat(p) for p in lexicon_script()[:20]]
    assert [e.trace_hash for e in runtime.turn_log] == [r.trace_hash for r in responses]
    assert [e.turn_idx for e in runtime.turn_log] == list(range(20))


def _cli(args: list[str], stdin: str = "", hashseed: str = "0") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    return subprocess.run(
        [sys.executable, "-m", "reference", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_once_json_prints_every_field():
    done = _cli(["chat", "--once", "What is light?", "--json"])
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == RESPONSE_FIELDS


def _long_script(n: int) -> str:
    base = lexicon_script()
    return "\n".join(base[i % len(base)] for i in range(n)) + "\n"


def test_processes_agree_byte_for_byte_and_closure_holds():
    script = _long_script(2000)
    first = _cli(["chat", "--json"], script, hashseed="1")
    second = _cli(["chat", "--json"], script, hashseed="2")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout
    rows = [json.loads(line) for line in first.stdout.splitlines()]
    assert len(rows) == 2000
    assert max(row["versor_condition"] for row in rows) < 1e-6


def test_bad_register_is_one_line_exit_2():
    done = _cli(["chat", "--register", "../etc/passwd", "--once", "hi"])
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "REGISTER_INVALID_ID" in done.stderr and "Traceback" not in done.stderr


def test_unknown_command_is_one_line_exit_2():
    done = _cli(["frobnicate"])
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1


def test_lexicon_json_lists_every_lemma():
    done = _cli(["lexicon", "--json"])
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) >= 80
    assert all(set(row) == {"lemma", "pack", "pos", "has_gloss"} for row in rows)


def test_unwritable_audit_is_one_line_exit_2(tmp_path):
    done = _cli(["chat", "--audit", str(tmp_path / "missing" / "audit.jsonl"), "--once", "hi"])
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
