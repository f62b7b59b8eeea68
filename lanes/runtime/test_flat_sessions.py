"""Runtime lane: a long session does the same work per turn and holds the same memory.

Work is counted, never timed: the Python bytecode instructions a turn executes (every
loop over a growing structure would show here) and the memory blocks the session keeps.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import pytest

from reference.algebra import cga_inner
from reference.runtime import ChatRuntime
from reference.runtime.turn_log import RETAINED_EVENTS, TurnLog
from reference.truth.vault import Vault, lemma_point, point_address

CYCLE = (
    "What is light?",
    "No, light is a wave.",
    "What did I say about light?",
    "Tell me about water.",
)
"""Prompts repeated in order: vault stores, a correction's claim, a recall, a second subject."""

EARLY_TURN = 100
LATE_TURN = 20_000
"""Far past every bound a session keeps (1,024 turn events, 4,096 readings): anything kept
per turn beyond them shows here as it would at 100,000 (``tools/bench_session.py`` times
turn 100,000 in ``nox -s bench``)."""
BLOCK_SLACK = 200
"""Allocator noise allowed over 1,000 late turns; keeping anything per turn would add 1,000+."""


def _count_instructions(work: Callable[[], object]) -> int:
    """The number of bytecode instructions Python executes while running *work*."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "opcode":
            count += 1
        return local

    def enter(frame, event, arg):
        frame.f_trace_opcodes = True
        return local

    previous = sys.gettrace()
    sys.settrace(enter)
    try:
        work()
    finally:
        sys.settrace(previous)
    return count


def _run_cycles(runtime: ChatRuntime, cycles: int) -> None:
    for _ in range(cycles):
        for prompt in CYCLE:
            runtime.chat(prompt)


def _cycle_instructions(runtime: ChatRuntime) -> int:
    """Instructions of one cycle; garbage is collected first and not while counting, so a
    finalizer of something an earlier test left (run by the collector) is not counted."""
    gc.collect()
    gc.disable()
    try:
        return _count_instructions(lambda: _run_cycles(runtime, 1))
    finally:
        gc.enable()


def _blocks_after_collect() -> int:
    gc.collect()
    return sys.getallocatedblocks()


@pytest.mark.long
def test_a_late_turn_does_the_work_of_turn_one_hundred():
    runtime = ChatRuntime()
    _run_cycles(runtime, EARLY_TURN // len(CYCLE))
    early = _cycle_instructions(runtime)
    early_addresses = runtime.truth.vault.addresses
    _run_cycles(runtime, (LATE_TURN - len(runtime.turn_log)) // len(CYCLE))
    assert len(runtime.turn_log) == LATE_TURN
    late = _cycle_instructions(runtime)
    assert late == early
    assert runtime.truth.vault.addresses == early_addresses
    assert len(runtime.truth.vault) == runtime.truth.turn_idx


@pytest.mark.long
def test_a_long_session_keeps_a_bounded_memory():
    runtime = ChatRuntime()
    _run_cycles(runtime, (RETAINED_EVENTS + 1000) // len(CYCLE))
    before = _blocks_after_collect()
    _run_cycles(runtime, 1000 // len(CYCLE))
    grown = _blocks_after_collect() - before
    assert grown < BLOCK_SLACK, f"{grown} memory blocks kept over 1,000 turns"
    assert runtime.turn_log.retained == RETAINED_EVENTS
    assert [event.turn_idx for event in runtime.turn_log] == list(
        range(len(runtime.turn_log) - RETAINED_EVENTS, len(runtime.turn_log))
    )


def test_the_vault_tally_is_what_a_hit_reports():
    vault = Vault()
    assert vault.recall("light") is None
    vault.store("light", 2)
    vault.store("water", 3, "wet")
    vault.store("light", 5, "a wave")
    vault.store("light", 9)
    hit = vault.recall("light")
    assert (hit.lemma, hit.count, hit.first_turn, hit.last_turn) == ("light", 3, 2, 9)
    assert hit.latest_claim == "a wave"
    assert hit.address == point_address(lemma_point("light"))
    assert cga_inner(lemma_point("light"), lemma_point("light")) == 0.0
    assert cga_inner(lemma_point("light"), lemma_point("water")) < 0.0
    assert (len(vault), vault.addresses) == (4, 2)


def test_a_turn_log_counts_every_turn_and_keeps_the_latest():
    log = TurnLog(retained=3)
    for turn in range(5):
        log.append(turn)
    assert (len(log), log.retained, list(log)) == (5, 3, [2, 3, 4])
    with pytest.raises(ValueError, match="at least one event"):
        TurnLog(retained=0)
