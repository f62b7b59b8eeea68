"""Requirement-parallel certification: N engine processes, one requirement at a time each.

Each worker process opens its own engine and runs whole requirements; results come
back as outcomes and are put in selection order, so the report (and its verdict
digest) is the one a single engine would give: derandomized Hypothesis seeds depend
only on the requirement.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from conformance.certify import certify_with
from conformance.engines import EngineClient, EngineFault, open_engine
from conformance.report.expected import ExpectedFailures
from conformance.requirements import REGISTRY, Requirement, SuiteContext
from conformance.runner import Outcome, Profile, run_requirement
from conformance.shard import longest_first

Plan = Mapping[str, tuple[Profile, int | None]]


@dataclass(frozen=True)
class EngineSpec:
    """How to open an engine in another process: a command or a ``module:factory``."""

    command: str | None = None
    python: str | None = None
    timeout: float = 10.0
    strict: bool = False

    def open(self) -> EngineClient:
        return open_engine(self.command, self.python, timeout=self.timeout, strict=self.strict)


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


_worker: dict[str, object] = {}


def _start_worker(spec: EngineSpec) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    engine = spec.open()
    _worker["engine"] = engine
    atexit.register(engine.close)


def _context(engine: EngineClient) -> SuiteContext:
    if "ctx" not in _worker:
        _worker["ctx"] = SuiteContext.from_engine(engine)
    ctx = _worker["ctx"]
    assert isinstance(ctx, SuiteContext)
    return ctx


def _run_one(req_id: str, profile: Profile, max_examples: int | None) -> Outcome:
    engine = _worker["engine"]
    assert isinstance(engine, EngineClient)
    try:
        ctx = _context(engine)
    except EngineFault as fault:
        with contextlib.suppress(EngineFault):
            engine.restart()
        return Outcome(req_id, "error", message=f"engine unavailable: {fault}", fault=fault.kind)
    return run_requirement(REGISTRY[req_id], engine, ctx, profile, max_examples)


WORKER_DIED = (
    "not finished: a harness worker process died (killed from outside, or crashed inside "
    "an in-process engine), which stops every requirement not yet finished"
)


def _outcome(future: Future[Outcome], req_id: str) -> Outcome:
    """The requirement's outcome; an error when a worker process died before it finished."""
    try:
        return future.result()
    except BrokenProcessPool:
        return Outcome(req_id, "error", message=WORKER_DIED, fault="crash")


def run_parallel(
    spec: EngineSpec,
    requirements: list[Requirement],
    profile: Profile,
    *,
    workers: int,
    max_examples: int | None = None,
    plan: Plan | None = None,
    durations: Mapping[str, int] | None = None,
    on_result: Callable[[Requirement, Outcome], None] = lambda req, outcome: None,
    fail_fast: bool = False,
) -> list[tuple[Requirement, Outcome]]:
    """Run *requirements* on *workers* engine processes, longest first; pairs in input order."""
    plan = plan or {}
    order = longest_first([r.id for r in requirements], dict(durations or {}))
    outcomes: dict[str, Outcome] = {}
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_worker, initargs=(spec,)
    )
    try:
        pending: dict[Future[Outcome], str] = {}
        for req_id in order:
            req_profile, limit = plan.get(req_id, (profile, max_examples))
            pending[pool.submit(_run_one, req_id, req_profile, limit)] = req_id
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                req_id = pending.pop(future)
                outcomes[req_id] = _outcome(future, req_id)
                on_result(REGISTRY[req_id], outcomes[req_id])
            if fail_fast and any(o.verdict in ("fail", "error") for o in outcomes.values()):
                for future in pending:
                    future.cancel()
                break
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)
    return [(r, outcomes[r.id]) for r in requirements if r.id in outcomes]


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool at once (a stop signal, or an error in the harness): its worker
    processes are terminated, so their engines see their input close and exit."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def certify_parallel(
    engine: EngineClient,
    spec: EngineSpec,
    requirements: list[Requirement],
    profile: Profile,
    *,
    expected: ExpectedFailures,
    workers: int,
    max_examples: int | None = None,
    durations: Mapping[str, int] | None = None,
    on_result: Callable[[Requirement, Outcome], None] = lambda req, outcome: None,
    fail_fast: bool = False,
    plan: Plan | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[tuple[Requirement, Outcome]]]:
    """:func:`conformance.certify.certify` on *workers* engine processes opened from *spec*.

    *engine* answers hello; an engine that cannot is certified on *engine* alone, which
    ends the run with one engine-level verdict.
    """
    return certify_with(
        engine,
        requirements,
        lambda ctx: run_parallel(
            spec,
            requirements,
            profile,
            workers=workers,
            max_examples=max_examples,
            durations=durations,
            on_result=on_result,
            fail_fast=fail_fast,
            plan=plan,
        ),
        profile=profile,
        expected=expected,
        options=options,
        max_examples=max_examples,
        plan=plan,
    )
