"""Run one campaign task on a Dask worker and return its outcome as plain JSON.

The task's engine is opened once per worker thread and kept for later tasks; the
requirement runs with the task's seed, example window and kills.
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

_open: dict[tuple[str, int], tuple[EngineClient, SuiteContext]] = {}


def _engine(spec: CampaignSpec, index: int) -> tuple[EngineClient, SuiteContext]:
    key = (f"{spec.digest}:{index}", threading.get_ident())
    if key not in _open:
        named = spec.engines[index]
        engine = open_engine(named.get("command"), named.get("python"), timeout=spec.timeout)
        _open[key] = (engine, SuiteContext.from_engine(engine))
    return _open[key]


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
        _open.pop((f"{spec.digest}:{task['engine']}", threading.get_ident()), None)
        hello = {"error": str(exc)}
        outcome = Outcome(task["requirement"], "error", message=f"engine unavailable: {exc}")
    return {
        "key": task["key"],
        "task": task,
        "outcome": asdict(outcome),
        "hello": hello,
        "ran": {"pid": os.getpid(), "host": os.uname().nodename, "started": started},
    }
