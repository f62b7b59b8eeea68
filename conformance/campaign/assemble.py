"""Join a campaign's task results into one report per engine.

A requirement run as several tasks (kill windows, several seeds) passes when every
task passed; otherwise it takes the first failing task's verdict and counterexample
(in task order). Its examples and duration are the tasks' sums, so a requirement cut
into windows counts exactly the examples of the uncut run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance import details
from conformance.campaign.plan import CampaignSpec, engine_label, examples_for
from conformance.certify import scope_of, write_report
from conformance.merge import with_digest
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.requirements import REGISTRY, Requirement
from conformance.requirements.state_crash import KILLS_PER_EXAMPLE
from conformance.runner import Outcome


def _task_order(result: dict[str, Any]) -> tuple[int, int]:
    task = result["task"]
    return task["seed_index"], (task["window"] or [0])[0]


def combine(results: list[dict[str, Any]]) -> Outcome:
    """One requirement's outcome from its tasks' results."""
    ordered = sorted(results, key=_task_order)
    outcomes = [Outcome(**r["outcome"]) for r in ordered]
    verdicts = [o.verdict for o in outcomes]
    if all(v == "not-claimed" for v in verdicts):
        return outcomes[0]
    first_bad = next((o for o in outcomes if o.verdict != "pass"), None)
    base = first_bad or outcomes[0]
    return Outcome(
        base.id,
        base.verdict,
        examples=sum(o.examples for o in outcomes),
        duration_ms=sum(o.duration_ms for o in outcomes),
        message=base.message,
        fault=base.fault,
        counterexample=base.counterexample,
        details=details.combined([o.details for o in outcomes]),
    )


def soak_figures(results: list[dict[str, Any]], outcome: Outcome) -> dict[str, Any]:
    """The kill soak's figures: kills, tasks, and kills per second of engine time."""
    kills = outcome.examples * KILLS_PER_EXAMPLE
    seconds = outcome.duration_ms / 1000
    return {
        "requirement": outcome.id,
        "kills": kills,
        "tasks": len(results),
        "verdict": outcome.verdict,
        "invalid_loads_or_lost_checkpoints": 0 if outcome.verdict == "pass" else None,
        "task_seconds": round(seconds, 1),
        "kills_per_task_second": round(kills / seconds, 2) if seconds else None,
    }


def engine_report(
    spec: CampaignSpec, index: int, mine: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[tuple[Requirement, Outcome]]]:
    """The report of engine *index* from the results of all of its tasks."""
    by_req: dict[str, list[dict[str, Any]]] = {}
    for result in mine:
        by_req.setdefault(result["task"]["requirement"], []).append(result)
    pairs = [(REGISTRY[i], combine(by_req[i])) for i in spec.requirements]
    hello: dict[str, Any] = next((r["hello"] for r in sorted(mine, key=lambda r: r["key"])), {})
    profile = spec.base_profile()
    requirements = [REGISTRY[i] for i in spec.requirements]
    plan = {req.id: (profile, examples_for(spec, req)) for req in requirements}
    report = build_report(
        pairs,
        hello=hello,
        engine=engine_label(spec.engines[index]),
        profile=profile,
        expected=ExpectedFailures.none(),
        scope=scope_of(requirements, list(spec.requirements), profile, None, plan),
    )
    soaks = [
        soak_figures(by_req[req.id], outcome)
        for req, outcome in pairs
        if req.scale is not None and outcome.verdict != "not-claimed"
    ]
    campaign = {"digest": spec.digest, "seed": spec.seed, "tasks": len(mine), "soak": soaks}
    return with_digest({**report, "campaign": campaign}), pairs


def write_engine_reports(
    spec: CampaignSpec, root: Path, done: dict[str, dict[str, Any]]
) -> list[Path]:
    """Write every engine's report under ``root/reports/engine-N``; return the directories."""
    by_engine: list[list[dict[str, Any]]] = [[] for _ in spec.engines]
    for result in done.values():
        by_engine[result["task"]["engine"]].append(result)
    directories = []
    for index, mine in enumerate(by_engine):
        report, pairs = engine_report(spec, index, mine)
        directory = root / "reports" / f"engine-{index + 1}"
        write_report(report, pairs, directory)
        directories.append(directory)
    return directories
