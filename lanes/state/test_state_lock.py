"""The single-writer lock: refused in-process and across processes; a dead holder frees it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from state_helpers import ROOT, put, recognizer

from reference.state import StateError, StateStore, WriterLock, load_state

HOLD = textwrap.dedent(
    """
    import sys, time
    from reference.state import StateStore
    store = StateStore.open(sys.argv[1])
    store.apply([{"op": "put", "record": {"kind": "recognizer", "key": "held",
                  "pattern": "p", "weight": 1}}])
    store.checkpoint()
    store.apply([{"op": "turn"}])
    print("ready", flush=True)
    time.sleep(60)
    """
)
TRY = textwrap.dedent(
    """
    import sys
    from reference.state import StateError, StateStore
    try:
        StateStore.open(sys.argv[1]).close()
        print("opened")
    except StateError as exc:
        print(exc.code, exc.message)
    """
)


def _python(script: str, path: Path, **kwargs: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _refusal(path: Path) -> StateError:
    with pytest.raises(StateError) as caught:
        StateStore.open(path)
    assert caught.value.code == "STATE_LOCKED"
    return caught.value


def test_second_store_in_the_same_process_is_refused(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    refusal = _refusal(tmp_path)
    assert f"pid {os.getpid()}" in refusal.message
    store.close()
    StateStore.open(tmp_path).close()


def test_two_lock_objects_in_one_process_conflict(tmp_path: Path) -> None:
    first, second = WriterLock(tmp_path), WriterLock(tmp_path)
    first.acquire()
    with pytest.raises(StateError):
        second.acquire()
    first.release()
    second.acquire()
    assert second.held and not first.held
    second.release()


def test_reads_take_no_lock(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    store.apply([put(recognizer("r"))])
    store.checkpoint()
    assert load_state(tmp_path).records[("recognizer", "r")] == recognizer("r")
    store.close()


def test_second_writer_process_is_refused(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    out, _ = _python(TRY, tmp_path).communicate(timeout=60)
    store.close()
    assert out.startswith("STATE_LOCKED")
    assert f"pid {os.getpid()}" in out
    out, _ = _python(TRY, tmp_path).communicate(timeout=60)
    assert out.strip() == "opened"


def test_a_sigkilled_holder_does_not_block_the_next_open(tmp_path: Path) -> None:
    holder = _python(HOLD, tmp_path)
    try:
        assert holder.stdout.readline().strip() == "ready"
        assert f"pid {holder.pid}" in _refusal(tmp_path).message
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
        holder.stdout.close()
    assert holder.returncode == -signal.SIGKILL
    store = StateStore.open(tmp_path)
    assert store.boot.reason == "resume"
    assert store.records == {("recognizer", "held"): recognizer("held", pattern="p")}
    assert store.digest()["turn_count"] == 0
    store.close()
