"""Shutting down with a state directory: SIGTERM and SIGINT end ``chat --state`` and
``serve`` cleanly (the turn in flight committed and answered, or neither; LOCK cleared;
exit 128 + the signal), and a failed checkpoint is reported as it happened
(docs/state.md § Shutdown)."""

from __future__ import annotations

import errno
import io
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lanes.state.io_faults import Rule, failing
from reference import cli
from reference.state import StateStore, load_state
from reference.state.layout import LOCK

TIMEOUT = 120


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "reference", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stopped(process: subprocess.Popen[str], signum: int) -> tuple[int, str]:
    process.send_signal(signum)
    _, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_chat_waits_for_input_ends_it_cleanly(tmp_path: Path, signum: int) -> None:
    process = _start("chat", "--state", str(tmp_path))
    assert process.stdin and process.stdout
    process.stdin.write("What is light?\n")
    process.stdin.flush()
    assert process.stdout.readline().strip(), "no answer to the first turn"
    status, err = _stopped(process, signum)
    assert status == 128 + signum, err
    assert "Traceback" not in err
    assert (tmp_path / LOCK).read_bytes() == b""
    assert load_state(tmp_path).turn_count == 1


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_serve_waits_ends_it_cleanly(tmp_path: Path, signum: int) -> None:
    process = _start("serve")
    assert process.stdin and process.stdout
    requests = [
        {"id": 1, "op": "state.open", "args": {"dir": str(tmp_path)}},
        {"id": 2, "op": "state.apply", "args": {"store": "st1", "mutations": [{"op": "turn"}]}},
        {"id": 3, "op": "state.checkpoint", "args": {"store": "st1"}},
        {"id": 4, "op": "state.apply", "args": {"store": "st1", "mutations": [{"op": "turn"}]}},
    ]
    answers = []
    for request in requests:
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        answers.append(json.loads(process.stdout.readline()))
    assert all(answer["ok"] for answer in answers), answers
    status, err = _stopped(process, signum)
    assert status == 128 + signum, err
    assert (tmp_path / LOCK).read_bytes() == b""
    loaded = load_state(tmp_path)
    assert (loaded.generation, loaded.turn_count) == (1, 1), "a turn never checkpointed was"


def _main(argv: list[str], lines: str, monkeypatch, capsys) -> tuple[int, list[str], str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_in_the_middle_of_a_turn_lets_it_commit_and_answer(
    tmp_path: Path, monkeypatch, capsys, signum: int
) -> None:
    """The signal lands after the turn was applied, before its checkpoint: the turn is
    committed and answered, then chat ends (never committed without its answer)."""
    checkpoint = StateStore.checkpoint
    turns = []

    def signalled(store: StateStore, *args: object, **kwargs: object) -> object:
        turns.append(store)
        if len(turns) == 2:
            signal.raise_signal(signum)
        return checkpoint(store, *args, **kwargs)

    monkeypatch.setattr(StateStore, "checkpoint", signalled)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    argv = ["chat", "--state", str(tmp_path)]
    status, out, err = _main(argv, "What is light?\nhello\nWhat is love?\n", monkeypatch, capsys)
    assert status == 128 + signum, err
    assert len(out) == 2 and load_state(tmp_path).turn_count == 2
    assert (tmp_path / LOCK).read_bytes() == b""
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_failed_checkpoint_is_reported_as_it_happened(tmp_path: Path, monkeypatch, capsys):
    """The pointer's fsync fails and the disk stays broken: chat prints that failure, not
    the one a second attempt on the way out would meet, and commits nothing unanswered."""
    argv = ["chat", "--state", str(tmp_path)]
    rules = (Rule("fsync", "CURRENT.tmp", errno.EIO), Rule("fsync", "core.jsonl", skip=1, times=9))
    with failing(*rules):
        status, out, err = _main(argv, "What is light?\n", monkeypatch, capsys)
    assert status == 2 and out == []
    (line,) = err.splitlines()
    assert line.startswith("error: STATE_IO: ") and "CURRENT.tmp" in line, line
    assert "core.jsonl" not in line, line
    assert (tmp_path / LOCK).read_bytes() == b""
    assert not (tmp_path / "CURRENT").exists(), "the unanswered turn was committed"
