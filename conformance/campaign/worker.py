"""Run one campaign task on a Dask worker and return its outcome as plain JSON.

Each worker thread keeps the engine of its last task open for the next one (tasks
are ordered by engine); the requirement runs with the task's seed, window and kills.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from dataclasses import asdict
from typing import Any

from hypothesis.errors import HypothesisDeprecationWarning

from conformance.campaign.plan import CampaignSpec, task_profile
from conformance.engines import EngineClient, EngineFault, open_engine
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import Outcome, run_requirement

_open: dict[int, tuple[str, EngineClient, SuiteContext]] = {}
"""Per worker thread: the one engine it keeps open, under its campaign engine key."""


def _engine(spec: CampaignSpec, index: int) -> tuple[EngineClient, SuiteContext]:
    """The task's engine: reused from the last task of this thread, or opened in its place."""
    thread, key = threading.get_ident(), f"{spec.digest}:{index}"
    if thread in _open and _open[thread][0] == key:
        return _open[thread][1:]
    _close(thread)
    named = spec.engines[index]
    engine = open_engine(named.get("command"), named.get("python"), timeout=spec.timeout)
    _open[thread] = (key, engine, SuiteContext.from_engine(engine))
    return _open[thread][1:]


def _close(thread: int) -> None:
    if thread in _open:
        _open.pop(thread)[1].close()


def run_task(spec_data: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    """The result of *task*: its outcome, the engine's hello, and where and when it ran."""
    spec = CampaignSpec.from_dict(spec_data)
    started = time.time()
    try:
        engine, ctx = _engine(spec, task["engine"])
        hello = engine.hello()
        req = REGISTRY[task["requirement"]]
        with warnings.catch_warnings():
            # The worker's own threads use the global random module while Hypothesis
            # draws; Hypothesis draws from its own seeded generator, so this is noise.
            warnings.simplefilter("ignore", HypothesisDeprecationWarning)
            profile = task_profile(spec, task)
            outcome = run_requirement(req, engine, ctx, profile, task["examples"])
    except (EngineFault, OSError, ValueError, ImportError) as exc:
        _open.pop(threading.get_ident(), None)
        hello = {"error": str(exc)}
        outcome = Outcome(task["requirement"], "error", message=f"engine unavailable: {exc}")
    return {
        "key": task["key"],
        "task": task,
        "outcome": asdict(outcome),
        "hello": hello,
        "ran": {"pid": os.getpid(), "host": os.uname().nodename, "started": started},
    }
