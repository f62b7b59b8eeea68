"""Certify the (mutated) reference engine, one requirement per test.

mutmut runs these tests against each mutant of the reference, and only the tests
that reach the mutated function; a mutant is killed when some requirement fails on
it. The protocol requirements certify the engine as a program on stdio (its stdio
loop is under test too) and in-process (where a request reaches ``handle`` as an
object, not a line); the others certify it in-process, which is faster. Every
process the suite starts from an engine (a SIGKILL soak, an strace session) runs
the same mutant and reports what it reached (:mod:`selftest.mutation.hits`). No other
test of the project takes part, so the score measures the suite alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.engines import InProcessEngine, SubprocessEngine
from conformance.engines.base import EngineClient
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from selftest.mutation import hits
from selftest.reference_engine import REFERENCE_FACTORY

EXAMPLES = 10
KILLS = 8
"""SIGKILLs for STATE-KILL-001: one example's worth (the ci profile sends 200)."""
PROFILE = dataclasses.replace(PROFILES["ci"], kills=KILLS)
HANG_CEILING = 120.0
"""Seconds one request of the engine, in-process or as a program, may take: a ceiling that
only catches a mutant that makes it hang (mutmut bounds CPU time only), never a slow answer
on a loaded machine."""
PROGRAM = [sys.executable, "-m", "selftest.mutation.engine"]


class MutatedInProcess(InProcessEngine):
    """The reference in-process; the processes started from it run :data:`PROGRAM`."""

    def spawn_command(self) -> list[str]:
        return list(PROGRAM)


STDIO_FAMILIES = frozenset({"protocol", "algebra"})
"""Families certified as a program: the protocol (its stdio loop is under test too) and the
algebra, whose sign and reverse tables are built at import and whose row tables are
cached: only a fresh engine process builds them with the mutant live, and reports reaching
the functions that build them (:mod:`selftest.mutation.hits`)."""


def engine_for(req_id: str) -> EngineClient:
    if REGISTRY[req_id].family in STDIO_FAMILIES:
        return SubprocessEngine(shlex.join(PROGRAM), timeout=HANG_CEILING)
    return MutatedInProcess(REFERENCE_FACTORY, timeout=HANG_CEILING)


def forget_cached_results() -> None:
    """Clear every ``functools`` cache of the reference loaded in this process.

    Each test then reaches every cached function it needs itself (mutmut records which
    tests reach which function from the first run), and under a mutant the mutated
    function runs instead of a result an earlier test cached.
    """
    for name, module in list(sys.modules.items()):
        if name == "reference" or name.startswith("reference."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


KEPT_ENGINE_END = 30.0
"""Seconds a kept zygote may take to end at the end of its input (then it is killed)."""


def end_kept_engines() -> None:
    """End the engine processes the suite keeps from one requirement to the next: the zygote
    soak engines are forked from (``engine.fork``) and the warm starts.

    Each test then starts its own, so what they reach is recorded in its directory
    (:mod:`selftest.mutation.hits`), not in the directory of the test that started them.
    While lines are recorded (``fastrun record``) the zygote is ended at the end of its
    input, as an engine ends, so it saves its lines; otherwise it is killed at once.
    """
    import os
    import subprocess

    from conformance.state.killer import WARM, ZYGOTES

    kept = ZYGOTES._kept  # the harness's own look inside the suite's keeper
    if kept is not None and os.environ.get(hits.LINES):
        process = kept[1]._process
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(KEPT_ENGINE_END)
    ZYGOTES.close()
    WARM.close()


def cost_rank(req_id: str) -> int:
    """Cheap requirements first: under ``-x`` a mutant is killed by the first that fails."""
    req = REGISTRY[req_id]
    return (req.expected_ms or 0) + (10_000 if req.scale is not None else 0)


IDS = sorted(REGISTRY, key=lambda i: (cost_rank(i), i))
PROTOCOL_IDS = [i for i in IDS if REGISTRY[i].family == "protocol"]


@pytest.mark.parametrize("req_id", IDS)
def test_requirement_holds(req_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    certify(req_id, functools.partial(engine_for, req_id), tmp_path, monkeypatch)


@pytest.mark.parametrize("req_id", PROTOCOL_IDS)
def test_protocol_requirement_holds_in_process(
    req_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = functools.partial(MutatedInProcess, REFERENCE_FACTORY, timeout=HANG_CEILING)
    certify(req_id, engine, tmp_path, monkeypatch)


def certify(
    req_id: str,
    start: Callable[[], EngineClient],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Certify the engine *start* gives on *req_id* alone; the test fails unless it passes."""
    monkeypatch.setenv(hits.HITS_DIR, str(tmp_path))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    forget_cached_results()
    engine = start()
    try:
        outcome = run_requirement(
            REGISTRY[req_id], engine, SuiteContext.from_engine(engine), PROFILE, EXAMPLES
        )
    finally:
        engine.close()
        end_kept_engines()
        hits.collect(tmp_path)
    assert outcome.verdict == "pass", f"{req_id}: {outcome.verdict}: {outcome.message}"
