"""``python -m conformance campaign``: engines x profile on a Dask cluster, resumable."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from conformance.api import ConformanceError, Selection
from conformance.campaign.plan import CampaignError, CampaignSpec, engine_label, tasks
from conformance.campaign.run import IN_FLIGHT, Listener, run_campaign
from conformance.certify import is_interactive
from conformance.cli_args import PathArg
from conformance.engines import default_command

if TYPE_CHECKING:
    from rich.progress import Progress


Parser = TypeVar("Parser", bound=argparse.ArgumentParser)


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``campaign`` subcommand to *commands* (an argparse subparsers object)."""
    parser = commands.add_parser("campaign", help="run a resumable campaign on a Dask cluster")
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="CMD",
        help="an engine program (repeat for several engines)",
    )
    parser.add_argument(
        "--engine-python",
        action="append",
        default=[],
        metavar="MODULE:FACTORY",
        help="an in-process engine in each worker (repeatable)",
    )
    parser.add_argument(
        "--dir",
        type=PathArg("campaign-dir"),
        default="campaign",
        help="campaign directory (resumed if it exists)",
    )
    parser.add_argument("--scheduler", metavar="tcp://HOST:8786", help="an existing Dask scheduler")
    parser.add_argument("--workers", type=int, default=2, help="local cluster worker processes")
    parser.add_argument("--profile", default="ci", help="base profile (ci or dev)")
    parser.add_argument("--examples", type=int, help="examples per generated requirement")
    parser.add_argument("--kills", type=int, help="SIGKILLs for STATE-KILL-001")
    parser.add_argument("--kills-per-task", type=int, default=200, help="kills in one task")
    parser.add_argument(
        "--crash-examples", type=int, help="examples of the crash-state requirement"
    )
    parser.add_argument("--seed", type=int, help="campaign seed (default: derandomized by id)")
    parser.add_argument("--seeds", type=int, default=1, help="derived seeds per requirement")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per request")
    parser.add_argument("--id", action="append", default=[], help="only this requirement id")
    parser.add_argument(
        "-k",
        dest="keyword",
        action="append",
        help="only ids or titles containing this (repeat for any of several)",
    )
    parser.add_argument(
        "--in-flight", type=int, default=IN_FLIGHT, help="tasks on the cluster at once"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    return parser


def spec_from_args(args: argparse.Namespace) -> CampaignSpec:
    """The campaign the arguments describe (CampaignError when they do not make one)."""
    engines = [{"command": c} for c in args.engine] + [{"python": p} for p in args.engine_python]
    try:
        ids = tuple(
            r.id for r in Selection(tuple(args.id), tuple(args.keyword or ())).requirements()
        )
    except ConformanceError as exc:
        raise CampaignError(str(exc)) from None
    return CampaignSpec(
        engines=tuple(engines or [{"command": default_command()}]),
        requirements=ids,
        profile=args.profile,
        examples=args.examples,
        kills=args.kills,
        kills_per_task=args.kills_per_task,
        crash_examples=args.crash_examples,
        seed=args.seed,
        seeds=args.seeds,
        timeout=args.timeout,
    )


def _line(result: dict[str, Any], finished: int, total: int) -> str:
    outcome, task = result["outcome"], result["task"]
    return (
        f"[{finished}/{total}] {outcome['verdict'].upper():<11} {task['key']:<40} "
        f"{outcome['examples']:>5} examples {outcome['duration_ms']:>7} ms"
    )


def _listener(quiet: bool, total: int) -> tuple[Listener, Progress | None]:
    if quiet or not is_interactive():
        return (lambda r, f, t: None if quiet else print(_line(r, f, t), flush=True)), None
    from rich.progress import Progress

    progress = Progress(transient=True)
    bar = progress.add_task("campaign", total=total)

    def on_result(result: dict[str, Any], finished: int, total: int) -> None:
        progress.console.print(_line(result, finished, total))
        progress.update(bar, completed=finished)

    return on_result, progress


def run(args: argparse.Namespace) -> tuple[str, list[str]]:
    """Run the campaign; return (its verdict, summary lines). Raises CampaignError."""
    for name in ("workers", "in_flight"):
        if getattr(args, name) < 1:
            raise CampaignError(
                f"--{name.replace('_', '-')}: {getattr(args, name)} is not positive"
            )
    spec = spec_from_args(args)
    root = Path(args.dir)
    on_result, progress = _listener(args.quiet, len(tasks(spec)))
    if progress is not None:
        progress.start()
    try:
        _, directories = run_campaign(
            spec,
            root,
            scheduler=args.scheduler,
            workers=args.workers,
            on_result=on_result,
            in_flight=args.in_flight,
        )
    finally:
        if progress is not None:
            progress.stop()
    return _summary(spec, directories)


VERDICT_ORDER = ("not-certified", "engine-unavailable", "partial", "certified")
"""Run verdicts, worst first: a campaign's verdict is its worst engine's."""


def _summary(spec: CampaignSpec, directories: list[Path]) -> tuple[str, list[str]]:
    lines, verdicts = [], []
    for engine, directory in zip(spec.engines, directories, strict=True):
        report = json.loads((directory / "report.json").read_text(encoding="utf-8"))
        summary = report["summary"]
        verdicts.append(summary["verdict"])
        lines.append(
            f"{summary['verdict'].upper().replace('-', ' ')}: {engine_label(engine)}: "
            f"{summary['passed']} pass, {summary['failed']} fail, {summary['errors']} error, "
            f"{summary['examples']} examples; verdict digest {report['verdict_digest']}; "
            f"report in {directory}/"
        )
        for soak in report["campaign"]["soak"]:
            lines.append(
                f"  {soak['requirement']}: {soak['kills']} SIGKILLs in {soak['tasks']} tasks, "
                f"verdict {soak['verdict']}, {soak['kills_per_task_second']} kills per task-second"
            )
    return min(verdicts, key=VERDICT_ORDER.index, default="certified"), lines
