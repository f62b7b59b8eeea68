"""certify's scaling options: ``-n``, ``--shard``, ``--durations-from`` and ``--budget``.

``Scale.parse`` reads them (ScaleError for bad values), ``Scale.share`` picks the
requirements of this run, ``Scale.certify`` runs them on one engine, on N engine
processes or within a budget, and ``Scale.label`` marks a shard's report.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.budget import BudgetError, certify_within, parse_budget
from conformance.certify import certify
from conformance.cli_args import PathArg
from conformance.engines import EngineClient
from conformance.merge import mark_shard
from conformance.model import Requirement
from conformance.parallel import EngineSpec, certify_parallel, default_workers
from conformance.report.expected import ExpectedFailures
from conformance.runner import Outcome, Profile
from conformance.shard import Shard, ShardError, load_durations, shard_ids, window


class ScaleError(ValueError):
    """A bad ``-n``, ``--shard``, ``--durations-from`` or ``--budget``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the scaling options to the certify parser."""
    parser.add_argument(
        "-n",
        dest="workers",
        type=int,
        default=default_workers(),
        help="engine processes running requirements at once (default: the number of cores)",
    )
    parser.add_argument(
        "--durations-from",
        metavar="REPORT",
        type=PathArg("json-file"),
        help="an earlier report.json: run and shard the longest requirements first",
    )
    parser.add_argument("--shard", metavar="K/N", help="run only shard K of N (merge them after)")
    parser.add_argument(
        "--budget",
        metavar="TIME",
        help="end the run within TIME (90s, 10m, 1h) of wall-clock time; one engine process",
    )


SCALED_EXAMPLE_MS = 250
"""About what one example of a unit-scaled requirement (eight SIGKILLs of the kill soak)
costs; only orders the work."""


def estimated_durations(requirements: list[Requirement], profile: Profile) -> dict[str, int]:
    """Durations to schedule by when no earlier report is given: unit-scaled runs are long,
    and a requirement may state what one run costs (``expected_ms``)."""
    estimates = {r.id: r.expected_ms for r in requirements if r.expected_ms is not None}
    for r in requirements:
        if r.scale is not None:
            estimates[r.id] = r.scale.examples_for(profile) * SCALED_EXAMPLE_MS
    return estimates


@dataclass(frozen=True)
class Scale:
    """How one certify run is spread or bounded."""

    workers: int = 1
    shard: Shard | None = None
    budget_s: float | None = None
    durations: dict[str, int] = field(default_factory=dict)

    @classmethod
    def parse(
        cls,
        workers: int = 1,
        shard: str | None = None,
        budget: str | None = None,
        durations_from: str | None = None,
    ) -> Scale:
        """The scale of a run from the options' texts (``-n``, ``--shard K/N``,
        ``--budget TIME``, ``--durations-from REPORT``); ScaleError names a bad one."""
        if workers < 1:
            raise ScaleError(f"-n: {workers} is not a positive number of engine processes")
        if shard and budget:
            raise ScaleError("--budget cannot be combined with --shard: shards must run alike")
        try:
            return cls(
                workers=workers,
                shard=Shard.parse(shard) if shard else None,
                budget_s=parse_budget(budget) if budget else None,
                durations=load_durations(durations_from) if durations_from else {},
            )
        except (ShardError, BudgetError) as exc:
            raise ScaleError(str(exc)) from None

    def share(self, requirements: list[Requirement], profile: Profile) -> Share:
        """The requirements this run covers (all, or its shard's) and their windows."""
        if self.shard is None:
            return Share(requirements)
        totals = {r.id: r.scale.examples_for(profile) for r in requirements if r.scale is not None}
        split = {i: total for i, total in totals.items() if total >= self.shard.count}
        whole = [r.id for r in requirements if r.id not in split]
        ids = set(shard_ids(whole, self.shard, self.durations)) | set(split)
        windows = {i: (*window(total, self.shard), total) for i, total in split.items()}
        return Share([r for r in requirements if r.id in ids], windows)

    def certify(
        self,
        spec: EngineSpec,
        engine: EngineClient,
        share: Share,
        profile: Profile,
        expected: ExpectedFailures,
        on_result: Callable[[Requirement, Outcome], None],
        *,
        max_examples: int | None = None,
        fail_fast: bool = False,
        options: dict[str, Any] | None = None,
        started: float | None = None,
    ) -> tuple[dict[str, Any], list[tuple[Requirement, Outcome]]]:
        """Certify on *engine* (opened from *spec*), on ``-n`` engine processes opened
        from *spec*, or within ``--budget``.

        *options* are the engine options recorded in the report (for replay); *started*
        is when the run began on the monotonic clock (a budget counts from it).
        """
        requirements = share.requirements
        if self.budget_s is not None:
            try:
                return certify_within(
                    engine,
                    requirements,
                    profile,
                    self.budget_s,
                    expected=expected,
                    on_result=on_result,
                    options=options,
                    started=started,
                )
            except BudgetError as exc:
                raise ScaleError(str(exc)) from None
        options = {
            "expected": expected,
            "max_examples": max_examples,
            "on_result": on_result,
            "fail_fast": fail_fast,
            "plan": share.plan(profile, max_examples),
            "options": options,
        }
        if min(self.workers, len(requirements)) > 1:
            return certify_parallel(
                engine,
                spec,
                requirements,
                profile,
                workers=self.workers,
                durations=self.durations or estimated_durations(requirements, profile),
                **options,
            )
        return certify(engine, requirements, profile, **options)

    def label(self, report: dict[str, Any], selection: list[str], share: Share) -> dict[str, Any]:
        """*report* marked as this run's shard of *selection* (unchanged when not sharded)."""
        if self.shard is None:
            return report
        return mark_shard(report, self.shard.index, self.shard.count, selection, share.windows)


@dataclass(frozen=True)
class Share:
    """The requirements one run covers; ``windows`` maps an id to (start, stop, total)
    when the run covers only examples [start, stop) of the requirement's total."""

    requirements: list[Requirement]
    windows: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    def plan(
        self, profile: Profile, max_examples: int | None
    ) -> dict[str, tuple[Profile, int | None]]:
        """The (profile, max_examples) of each windowed requirement."""
        return {
            req_id: (replace(profile, example_range=(start, stop)), max_examples)
            for req_id, (start, stop, _) in self.windows.items()
        }
