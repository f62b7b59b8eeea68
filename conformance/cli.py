"""``python -m conformance``: certify, merge, campaign, replay, diff, compare, report, list.

Exit status: 0 certified / replay passes / no regression; 1 not certified /
replay fails / regression; 2 usage or input errors (one line on stderr);
3 partial (a clean run that left part of the suite out); 4 engine unavailable
(the engine could not start or answer hello). See docs/conformance.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from conformance import SUITE_VERSION, api, cli_args, compare_cli, scaled, smoke_cli
from conformance.campaign import cli as campaign_cli
from conformance.campaign.plan import CampaignError
from conformance.certify import is_interactive, verdict_line
from conformance.cli_args import PathArg, require_utf8, utf8_text
from conformance.engines import EngineClient, EngineFault, open_engine
from conformance.inputs import InputFileError, display, one_line, read_input
from conformance.live import LiveReport
from conformance.output import Heartbeat, Output, heartbeat_seconds
from conformance.report.diff import counts as diff_counts
from conformance.report.diff import diff_reports, regressed, render_diff
from conformance.report.expected import ExpectedFailures
from conformance.report.formats import certify_document, diff_document, list_document
from conformance.report.plain import from_plain
from conformance.report.terminal import print_summary, render_summary
from conformance.report.validation import problem as schema_problem
from conformance.requirements import REGISTRY, Requirement

if TYPE_CHECKING:
    from rich.progress import Progress
from conformance.runner import PROFILES, Outcome, check_once
from conformance.stopping import Interrupted, stop_on_signals

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_PARTIAL, EXIT_ENGINE = 0, 1, 2, 3, 4
EXIT_FOR_VERDICT = {
    "certified": EXIT_OK,
    "not-certified": EXIT_FAILED,
    "partial": EXIT_PARTIAL,
    "engine-unavailable": EXIT_ENGINE,
}


class UsageError(Exception):
    """Bad arguments or unreadable inputs: reported in one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def positive_float(text: str) -> float:
    """An argparse type: a finite number above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a number above 0")
    return value


def at_least_one(text: str) -> int:
    """An argparse type: an integer of 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be 1 or more")
    return value


def not_blank(text: str) -> str:
    """An argparse type: a command or factory that is not empty or whitespace."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: name an engine (or leave the option out)")
    return utf8_text(text)


def _engine_args(parser: argparse.ArgumentParser) -> None:
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument(
        "--engine", metavar="CMD", type=not_blank, help="engine program speaking core-engine/1"
    )
    engine.add_argument(
        "--engine-python", metavar="MODULE:FACTORY", type=not_blank, help="in-process engine"
    )
    parser.add_argument(
        "--timeout", type=positive_float, default=10.0, help="seconds per request (> 0)"
    )
    parser.add_argument("--strict", action="store_true", help="validate every message's schema")


def engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options that name the engine and shape every exchange (recorded for replay)."""
    return api.engine_options(engine_spec(args))


def _open(args: argparse.Namespace) -> EngineClient:
    try:
        return open_engine(
            args.engine, args.engine_python, timeout=args.timeout, strict=args.strict
        )
    except (ValueError, ImportError, AttributeError) as exc:
        raise UsageError(f"cannot open the engine: {exc}") from None


def check_report_dir(path: str) -> Path:
    """The report directory, created now; an existing non-directory or no access is usage."""
    try:
        return api.check_report_dir(path, "--report")
    except api.ConformanceError as exc:
        raise UsageError(str(exc)) from None


def read_json_file(path: str, what: str, option: str | None = None) -> Any:
    """Read a JSON object file given on the command line; anything wrong is one usage line."""
    try:
        return read_input(path, option, what)
    except InputFileError as exc:
        raise UsageError(str(exc)) from None


def _progress(
    requirements: list[Requirement], interactive: bool, expected: ExpectedFailures, out: Output
) -> tuple[Callable[[Requirement, Outcome], None], Progress | None]:
    """A callback printing one line per requirement (rich progress on a terminal)."""
    if not interactive:
        return lambda req, outcome: out.line(verdict_line(req, outcome, expected)), None
    from rich.progress import Progress

    progress = Progress(transient=True)
    task = progress.add_task("certifying", total=len(requirements))

    def on_result(req: Requirement, outcome: Outcome) -> None:
        line = verdict_line(req, outcome, expected)
        out.guarded(lambda: progress.console.print(line, markup=False, highlight=False))
        progress.advance(task)

    return on_result, progress


def engine_spec(args: argparse.Namespace) -> api.Engine:
    """The engine the arguments name (``--engine``, ``--engine-python``, ``--timeout``,
    ``--strict``)."""
    return api.Engine(args.engine, args.engine_python, args.timeout, args.strict)


def _plan(args: argparse.Namespace) -> api.Plan:
    """Everything certify needs that can be wrong, checked before any work starts."""
    try:
        return api.plan(
            engine_spec(args),
            api.Selection(tuple(args.id), tuple(args.keyword or ())),
            args.profile,
            examples=args.examples,
            kills=args.kills,
            expected=args.xfail,
            fail_fast=args.fail_fast,
            workers=args.workers,
            shard=args.shard,
            budget=args.budget,
            durations_from=args.durations_from,
            report_dir=args.report,
        )
    except api.ConformanceError as exc:
        raise UsageError(str(exc)) from None


def _live(run: api.Plan, engine: EngineClient, directory: Path) -> LiveReport:
    """The report of *run* as it goes, written to *directory*."""
    return LiveReport(
        directory,
        engine,
        list(run.share.requirements),
        run.profile,
        run.expected,
        api.engine_options(run.engine),
        run.max_examples,
        run.share.plan(run.profile, run.max_examples),
    )


def _run(
    args: argparse.Namespace,
    run: api.Plan,
    engine: EngineClient,
    live: LiveReport,
    out: Output,
) -> api.Report:
    started = time.monotonic()
    interactive = is_interactive() and not args.quiet
    show, progress = _progress(list(run.share.requirements), interactive, run.expected, out)
    quiet = args.format == "json"
    if quiet:
        show, progress = (lambda req, outcome: None), None

    def on_result(req: Requirement, outcome: Outcome) -> None:
        live.add(req, outcome)
        show(req, outcome)

    heartbeat = None if interactive or quiet else Heartbeat(out, live.progress, heartbeat_seconds())
    try:
        if progress is not None:
            out.guarded(progress.start)
        if heartbeat is not None:
            heartbeat.start()
        return api.execute(run, on_result, engine, started=started)
    except api.ConformanceError as exc:
        raise UsageError(str(exc)) from None
    finally:
        if heartbeat is not None:
            heartbeat.stop()
        if progress is not None:
            out.guarded(progress.stop)


def _show(report: dict[str, Any], report_dir: str, out: Output) -> None:
    if sys.stdout.isatty() and not os.environ.get("CI"):
        from rich.console import Console

        out.guarded(lambda: print_summary(report, report_dir, Console(highlight=False)))
    else:
        out.guarded(lambda: print("\n" + render_summary(report, report_dir), end=""))


def cmd_certify(args: argparse.Namespace) -> int:
    """Certify; the report is written before anything that could fail is printed, and
    the exit status is the verdict's whatever became of stdout. SIGINT and SIGTERM end
    the run with a PARTIAL report of what ran (scope ``ended: interrupted``), exit
    128 + the signal's number."""
    run = _plan(args)
    out = Output()
    with stop_on_signals():
        engine = _open(args)
        live = _live(run, engine, run.report_dir or Path(args.report))
        try:
            report = _run(args, run, engine, live, out)
        except Interrupted as stop:
            return _interrupted(stop, live, args.report)
        except OSError as exc:
            sys.stderr.write(f"error: the report could not be written to {args.report}/: {exc}\n")
            return EXIT_FAILED
        try:
            for problem in report.problems:
                sys.stderr.write(f"warning: {problem}\n")
            if args.format == "json":
                document = certify_document(dict(report.data), args.report, report.exit_status)
                out.line(json.dumps(document, indent=2, ensure_ascii=False))
                return report.exit_status
            _show(dict(report.data), args.report, out)
            out.line(
                f"report written to {args.report}/ "
                "(report.json, certificate.md, junit.xml, badge.json)"
            )
        except Interrupted as stop:
            return stop.exit_status
    return report.exit_status


def _interrupted(stop: Interrupted, live: LiveReport, report_dir: str) -> int:
    """Write what ran as the final, PARTIAL report; say so on stderr; the signal's status."""
    try:
        live.write("interrupted", durable=True)
        said = f"partial report of {len(live.outcomes)} requirements written to {report_dir}/"
    except OSError as exc:
        said = f"the partial report could not be written to {report_dir}/: {exc}"
    with contextlib.suppress(OSError):
        sys.stderr.write(f"{stop}: {said}\n")
    return stop.exit_status


def _read_case(path: str) -> tuple[Requirement, Any, Any]:
    case = read_json_file(path, "a counterexample file")
    req_id = case.get("requirement") if isinstance(case, dict) else None
    if not isinstance(req_id, str) or req_id not in REGISTRY or "scenario" not in case:
        raise UsageError(f"{path}: not a counterexample file (no known requirement and scenario)")
    return REGISTRY[req_id], from_plain(case["scenario"]), case["scenario"]


def cmd_merge(args: argparse.Namespace) -> int:
    check_report_dir(args.report)
    try:
        report = api.merge(args.shards, args.report)
    except api.ConformanceError as exc:
        raise UsageError(str(exc)) from None
    _show(dict(report.data), args.report, Output())
    print(f"merged {len(args.shards)} shards into {args.report}/")
    return report.exit_status


def cmd_campaign(args: argparse.Namespace) -> int:
    try:
        verdict, lines = campaign_cli.run(args)
    except CampaignError as exc:
        raise UsageError(str(exc)) from None
    print("\n".join(lines))
    return EXIT_FOR_VERDICT[verdict]


def cmd_replay(args: argparse.Namespace) -> int:
    req, scenario, written = _read_case(args.file)
    engine = _open(args)
    print(f"replaying {req.id}: {req.title}")
    print(f"scenario: {json.dumps(written, ensure_ascii=False)}")
    try:
        engine.begin_example()
        check_once(req, engine, scenario)
        verdict, message = "PASS", "the engine now satisfies this requirement"
    except AssertionError as exc:
        verdict, message = "FAIL", str(exc)
    except EngineFault as fault:
        verdict, message = "ERROR", engine.explain_unavailable(str(fault))
    finally:
        engine.close()
    for exchange in engine.transcript.exchanges:
        print(f">>> {json.dumps(exchange['request'], ensure_ascii=False)}")
        print(f"<<< {json.dumps(exchange['response'], ensure_ascii=False)}")
    print(f"{verdict}: {message}")
    return EXIT_OK if verdict == "PASS" else EXIT_FAILED


def read_report_file(path: str) -> dict[str, Any]:
    """A report.json named on the command line, checked against the report schema."""
    report: dict[str, Any] = read_json_file(path, "a report.json")
    problem = schema_problem("report", report)
    if problem:
        raise UsageError(f"{display(path)}: not a report.json: {problem}")
    return report


def cmd_diff(args: argparse.Namespace) -> int:
    rows = diff_reports(read_report_file(args.a), read_report_file(args.b))
    worse = regressed(rows)
    if args.format == "json":
        print_json(diff_document(rows, args.a, args.b, diff_counts(rows), worse))
    else:
        print(render_diff(rows, show_same=args.all), end="")
    return EXIT_FAILED if worse else EXIT_OK


def print_json(document: dict[str, Any]) -> None:
    """One ``--format json`` document on stdout, indented, UTF-8."""
    print(json.dumps(document, indent=2, ensure_ascii=False))


def cmd_list(args: argparse.Namespace) -> int:
    if args.format == "json":
        print_json(list_document(REGISTRY, SUITE_VERSION))
        return EXIT_OK
    for req_id in sorted(REGISTRY):
        req = REGISTRY[req_id]
        caps = ",".join(req.capabilities) or "-"
        print(f"{req.id:<16} {req.family:<10} {caps:<40} {req.title}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m conformance", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {SUITE_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cert = commands.add_parser("certify", help="certify an engine and write a report")
    _engine_args(cert)
    cert.add_argument(
        "--report", metavar="DIR", type=PathArg("out-dir"), default="out", help="report directory"
    )
    cert.add_argument("--profile", choices=sorted(PROFILES), default="ci")
    cert.add_argument(
        "--examples", type=at_least_one, help="examples per generated requirement (>= 1)"
    )
    cert.add_argument(
        "--kills", type=at_least_one, help="SIGKILLs for STATE-KILL-001 (ci: 200, >= 1)"
    )
    cert.add_argument(
        "--xfail",
        metavar="FILE",
        type=PathArg("json-file"),
        help="expected failures: [{id, reason}]",
    )
    cert.add_argument("--id", action="append", default=[], help="only this requirement id")
    cert.add_argument(
        "-k",
        dest="keyword",
        action="append",
        help="only ids or titles containing this (repeat for any of several)",
    )
    cert.add_argument("--fail-fast", action="store_true", help="stop at the first failure")
    cert.add_argument("--quiet", action="store_true", help="no progress display")
    _format_arg(cert, "the verdict as one JSON document (no progress lines)")
    scaled.add_arguments(cert)
    cert.set_defaults(run=cmd_certify)
    merge = commands.add_parser("merge", help="join shard reports into the whole run's report")
    merge.add_argument(
        "shards",
        nargs="+",
        metavar="DIR",
        type=PathArg("report-dir"),
        help="shard report directories",
    )
    merge.add_argument(
        "--report",
        metavar="DIR",
        type=PathArg("out-dir"),
        default="out",
        help="merged report directory",
    )
    merge.set_defaults(run=cmd_merge)
    campaign_cli.add_parser(commands).set_defaults(run=cmd_campaign)
    replay = commands.add_parser("replay", help="replay a counterexample file")
    replay.add_argument("file", type=PathArg("json-file"), help="a counterexample file")
    _engine_args(replay)
    replay.set_defaults(run=cmd_replay)
    diff = commands.add_parser("diff", help="compare two report.json files by requirement id")
    diff.add_argument("a", type=PathArg("json-file"), help="the earlier report.json")
    diff.add_argument("b", type=PathArg("json-file"), help="the later report.json")
    diff.add_argument("--all", action="store_true", help="also list unchanged requirements")
    _format_arg(diff, "one JSON document: every row, the counts, regression")
    diff.set_defaults(run=cmd_diff)
    compare_cli.add_parsers(
        commands,
        {"not_blank": not_blank, "positive_float": positive_float, "at_least_one": at_least_one},
    )
    listing = commands.add_parser("list", help="list every requirement")
    _format_arg(listing, "one JSON document listing every requirement")
    listing.set_defaults(run=cmd_list)
    smoking = commands.add_parser(
        "smoke", help="hello and one call per claimed capability: a first verdict in seconds"
    )
    smoke_cli.add_arguments(smoking)
    smoking.set_defaults(run=smoke_cli.command)
    return require_utf8(parser)


def _format_arg(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help=f"json: {what}")


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
        cli_args.offer(parser)
        args = parser.parse_args(argv)
        status: int = args.run(args)
    except (UsageError, InputFileError) as exc:
        sys.stderr.write(f"error: {one_line(str(exc))}\n")
        return EXIT_USAGE
    except api.ConformanceError as exc:
        sys.stderr.write(f"error: {exc.code}: {one_line(str(exc))}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Interrupted as stop:
        return stop.exit_status
    except BrokenPipeError:
        return quiet_broken_pipe()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_broken_pipe()
    return status


def quiet_broken_pipe() -> int:
    """A reader closed our stdout early (``| head``): end quietly with status 0."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_OK
