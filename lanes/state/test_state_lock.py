"""The single-writer lock: refused in-process and across processes; a dead holder frees it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from state_helpers import ROOT, put, recognizer

from reference.state import StateError, StateStore, WriterLock, load_state
from reference.state.lock import lock_address

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


NODE_ENGINE = ROOT / "ports" / "node" / "engine.js"


def _node_engine() -> subprocess.Popen:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return subprocess.Popen(
        [node, str(NODE_ENGINE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def _ask(engine: subprocess.Popen, op: str, **args: object) -> dict:
    assert engine.stdin is not None and engine.stdout is not None
    engine.stdin.write(json.dumps({"id": 1, "op": op, "args": args}) + "\n")
    engine.stdin.flush()
    return json.loads(engine.stdout.readline())


def test_a_python_writer_and_a_node_writer_exclude_each_other(tmp_path: Path) -> None:
    """Both engines bind one abstract name for a directory (docs/state.md § Single writer)."""
    engine = _node_engine()
    try:
        store = StateStore.open(tmp_path)
        refused = _ask(engine, "state.open", dir=str(tmp_path))
        assert refused["error"]["code"] == "STATE_LOCKED"
        assert f"pid {os.getpid()}" in refused["error"]["message"]
        store.close()
        held = _ask(engine, "state.open", dir=str(tmp_path))
        assert held["ok"], held
        assert f"pid {engine.pid}" in _refusal(tmp_path).message
        assert _ask(engine, "state.close", store=held["result"]["store"])["ok"]
        StateStore.open(tmp_path).close()
    finally:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.close()
        engine.wait(timeout=60)
        engine.stdout.close()


def test_the_lock_is_named_after_the_directory_padded_to_all_of_sun_path(tmp_path: Path) -> None:
    found = os.stat(tmp_path)
    address = lock_address(found.st_dev, found.st_ino)
    assert len(address) == 108
    assert address.rstrip(b"\0") == f"\0core-state-lock/{found.st_dev}/{found.st_ino}".encode()


def test_a_stopped_holder_still_holds_the_lock(tmp_path: Path) -> None:
    holder = _python(HOLD, tmp_path)
    try:
        assert holder.stdout.readline().strip() == "ready"
        holder.send_signal(signal.SIGSTOP)
        assert f"pid {holder.pid}" in _refusal(tmp_path).message
        holder.send_signal(signal.SIGCONT)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
        holder.stdout.close()
    StateStore.open(tmp_path).close()
