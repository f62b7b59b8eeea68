"""The kill soak's engines: processes started ahead are the ones soaks take, forks come
from a zygote and lead their own process group, an engine that died before its soak is
reported, and no started process outlives the pool."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from conformance.state.killer import (
    KILL_TIMEOUT,
    KillPlan,
    KillRecord,
    SpawnFailed,
    WarmStarts,
    Zygote,
    soak_and_kill,
    spawner,
)
from selftest.checks import DETECT, run_in_process
from selftest.engines import BrokenEngine
from selftest.state_variants import PastLeftoverSoak

EXITS_AT_ONCE = [sys.executable, "-c", "pass"]
WAITS_FOR_INPUT = [sys.executable, "-c", "import sys; sys.stdin.read()"]
REFERENCE = [sys.executable, "-m", "reference", "serve"]


def test_a_started_process_is_taken_and_the_next_ones_are_started() -> None:
    warm = WarmStarts()
    first = warm.take(WAITS_FOR_INPUT, ahead=2)
    second = warm.take(WAITS_FOR_INPUT, ahead=2)
    ready = list(warm._ready)
    warm.close()
    assert len(ready) == 2 and second not in ready and first not in ready
    assert all(process.poll() is not None for process in ready)
    for process in (first, second):
        process.kill()
        process.wait()


def test_another_command_ends_the_processes_of_the_first() -> None:
    warm = WarmStarts()
    taken = warm.take(WAITS_FOR_INPUT, ahead=1)
    (left,) = warm._ready
    other = warm.take(EXITS_AT_ONCE, ahead=1)
    assert left.wait(timeout=KILL_TIMEOUT) is not None
    warm.close()
    for process in (taken, other):
        process.kill()
        process.wait()


def test_an_engine_that_died_before_its_soak_is_reported(tmp_path: Path) -> None:
    spawn = spawner(EXITS_AT_ONCE, forks=False, ahead=1)
    record = soak_and_kill(spawn, str(tmp_path), KillPlan(0, 1, 0), KILL_TIMEOUT)
    assert record.error == "the engine exited before it was killed"


CUT_BY_THE_KILL = [
    sys.executable,
    "-c",
    "import json, signal, sys\n"
    "sys.stdin.readline()\n"
    "event = {'id': 1, 'generation': 1, 'identity': 'a' * 64}\n"
    "for name in ('begin', 'ack'):\n"
    "    sys.stdout.write(json.dumps({**event, 'event': name}) + '\\n')\n"
    'sys.stdout.write(\'{"event":"ack","\')\n'
    "sys.stdout.flush()\n"
    "signal.pause()\n",
]
"""An engine whose next event line is half written when the kill lands."""


def test_a_line_the_kill_cut_short_is_not_an_error(tmp_path: Path) -> None:
    spawn = spawner(CUT_BY_THE_KILL, forks=False, ahead=1)
    record = soak_and_kill(spawn, str(tmp_path), KillPlan(0, 1, 0), KILL_TIMEOUT)
    assert record.error is None and len(record.acks) == 1, record


def test_a_zygote_that_cannot_fork_is_reported(tmp_path: Path) -> None:
    spawn = spawner(EXITS_AT_ONCE, forks=True)
    record = soak_and_kill(spawn, str(tmp_path), KillPlan(0, 1, 0), KILL_TIMEOUT)
    assert record.error == "the zygote exited instead of answering engine.fork"


def test_a_fork_leads_its_own_group_and_ends_when_killed() -> None:
    zygote = Zygote(REFERENCE)
    try:
        forked = zygote.fork()
        assert os.getpgid(forked.pid) == forked.pid != os.getpgid(0)
        forked.send(b'{"id":1,"op":"hello"}\n')
        assert b'"protocol":"core-engine/1"' in forked.stdout.readline()
        forked.kill()
        assert forked.stdout.readline() == b"", "the killed fork's connection stays open"
    finally:
        zygote.close()


def test_a_fork_answered_without_a_pid_is_reported() -> None:
    zygote = Zygote(["cat"])
    try:
        with pytest.raises(SpawnFailed, match="engine.fork was answered"):
            zygote.fork()
    finally:
        zygote.close()


def test_a_forked_harness_starts_its_own_processes() -> None:
    """A harness forked after processes were started ahead (mutmut forks one per mutant)
    never takes its parent's: it could not kill or reap them."""
    from conformance.state import killer

    parent_ready = killer.WARM.take(WAITS_FOR_INPUT, ahead=1)
    (ahead,) = killer.WARM._ready
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        taken = killer.WARM.take(WAITS_FOR_INPUT, ahead=0)
        os.write(write, b"parent" if taken.pid == ahead.pid else b"own")
        taken.kill()
        taken.wait()
        os._exit(0)
    os.waitpid(pid, 0)
    answer = os.read(read, 16)
    os.close(read)
    os.close(write)
    killer.WARM.close()
    parent_ready.kill()
    parent_ready.wait()
    assert answer == b"own", "the forked harness took a process its parent started"
    assert ahead.poll() is not None


def test_a_forked_harness_forks_from_its_own_zygote() -> None:
    """The parent's zygote answers on the parent's pipes: a forked harness starts its own."""
    from conformance.state import killer

    parents = killer.ZYGOTES.get(WAITS_FOR_INPUT)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        own = killer.ZYGOTES.get(WAITS_FOR_INPUT)
        os.write(write, b"parent" if own is parents else b"own")
        killer.ZYGOTES.close()
        os._exit(0)
    os.waitpid(pid, 0)
    answer = os.read(read, 16)
    os.close(read)
    os.close(write)
    killer.ZYGOTES.close()
    assert answer == b"own", "the forked harness used its parent's zygote"


def test_the_kill_lands_within_two_of_the_engines_own_cycles() -> None:
    """The phase scales with the engine's measured cycle, so a slow engine's whole
    checkpoint is reachable; a cycle measured as nothing counts as the 1 ms floor."""
    from conformance.state.killer import MIN_CYCLE, PHASES, mean_cycle

    assert mean_cycle(10.0, 10.6, 3) == pytest.approx(0.2)
    assert KillPlan(0, 3, 0).delay(0.2) == 0
    assert KillPlan(0, 3, PHASES // 2).delay(0.2) == pytest.approx(0.2)
    assert KillPlan(0, 3, PHASES - 1).delay(0.2) == pytest.approx(0.4 * 0.999)
    assert KillPlan(0, 1, PHASES // 2).delay(0.0) == pytest.approx(MIN_CYCLE)


def test_a_zygote_that_ended_is_replaced() -> None:
    """A zygote an earlier requirement left dead is not handed to the next one."""
    from conformance.state import killer

    first = killer.ZYGOTES.get(REFERENCE)
    first.close()
    second = killer.ZYGOTES.get(REFERENCE)
    try:
        assert second is not first and not second.ended()
        second.fork().kill()
    finally:
        killer.ZYGOTES.close()


def test_the_in_flight_checkpoint_is_the_begin_after_the_last_ack() -> None:
    """An engine numbers past a generation a crash left beyond CURRENT: its begin names a
    generation two past the last ack, and a restart that loads it loaded the one in flight."""
    record = KillRecord(begins=((1, "a"), (3, "c")), acks=((1, "a"),))
    assert record.allowed() == {1: "a", 3: "c"}
    assert record.judge({"generation": 3, "identity": "c"}) == "loaded_in_flight"
    assert record.judge({"generation": 2, "identity": "b"}) == "invalid"
    assert record.judge({"generation": 1, "identity": "a"}) == "loaded_acknowledged"
    done = KillRecord(begins=((1, "a"), (3, "c")), acks=((1, "a"), (3, "c")))
    assert done.in_flight() is None
    assert done.judge({"generation": 1, "identity": "a"}) == "lost"


@pytest.mark.long
def test_the_kill_judge_passes_an_engine_committing_past_current() -> None:
    """STATE-KILL-001 on a conformant engine whose soak numbers past a leftover generation."""
    broken = BrokenEngine("past_leftover_soak", PastLeftoverSoak, ("STATE-KILL-001",), "")
    outcome = run_in_process(broken, "STATE-KILL-001", dataclasses.replace(DETECT, kills=24))
    assert outcome.verdict == "pass", outcome.message
    assert outcome.details and outcome.details["kills"] == 24
