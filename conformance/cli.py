"""``python -m conformance``: certify, replay, diff and list.

Exit status: 0 certified / replay passes / no regression; 1 not certified /
replay fails / regression; 2 usage or input errors (one line on stderr).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from conformance import scaled
from conformance.campaign import cli as campaign_cli
from conformance.campaign.plan import CampaignError
from conformance.certify import is_interactive, select, verdict_line, write_report
from conformance.engines import EngineFault, open_engine
from conformance.merge import MergeError, merge_directories
from conformance.report.certificate import render_certificate
from conformance.report.diff import diff_reports, render_diff
from conformance.report.expected import ExpectedFailures, ExpectedFailuresError
from conformance.requirements import REGISTRY
from conformance.runner import PROFILES, check_once
from conformance.scaled import Scale, ScaleError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad arguments or unreadable inputs: reported in one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        raise UsageError(f"{self.prog}: {message}")


def _engine_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", metavar="CMD", help="engine program speaking core-engine/1")
    parser.add_argument("--engine-python", metavar="MODULE:FACTORY", help="in-process engine")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per request")
    parser.add_argument("--strict", action="store_true", help="validate every message's schema")


def _open(args: argparse.Namespace):
    try:
        return open_engine(
            args.engine, args.engine_python, timeout=args.timeout, strict=args.strict
        )
    except (ValueError, ImportError, AttributeError, OSError) as exc:
        raise UsageError(f"cannot start the engine: {exc}") from None


def _progress(requirements, interactive: bool):
    """A callback printing one line per requirement (rich progress on a terminal)."""
    if not interactive:
        return lambda req, outcome: print(verdict_line(req, outcome), flush=True), None
    from rich.progress import Progress

    progress = Progress(transient=True)
    task = progress.add_task("certifying", total=len(requirements))

    def on_result(req, outcome):
        progress.console.print(verdict_line(req, outcome))
        progress.advance(task)

    return on_result, progress


def cmd_certify(args: argparse.Namespace) -> int:
    try:
        requirements = select(args.id, args.keyword)
        expected = ExpectedFailures.load(args.xfail) if args.xfail else ExpectedFailures.none()
    except (KeyError, ExpectedFailuresError) as exc:
        raise UsageError(str(exc)) from None
    profile = PROFILES[args.profile]
    if args.kills is not None:
        profile = dataclasses.replace(profile, kills=args.kills)
    try:
        scale = Scale.from_args(args)
    except ScaleError as exc:
        raise UsageError(str(exc)) from None
    selection, share = [r.id for r in requirements], scale.share(requirements, profile)
    requirements = share.requirements
    engine = _open(args)
    on_result, progress = _progress(requirements, is_interactive() and not args.quiet)
    try:
        if progress is not None:
            progress.start()
        report, pairs = scale.certify(args, engine, share, profile, expected, on_result)
    except ScaleError as exc:
        raise UsageError(str(exc)) from None
    finally:
        if progress is not None:
            progress.stop()
        engine.close()
    report = scale.label(report, selection, share)
    write_report(report, pairs, Path(args.report))
    print()
    print(render_certificate(report, args.report), end="")
    print(f"report written to {args.report}/ (report.json, certificate.md, junit.xml)")
    return EXIT_OK if report["summary"]["certified"] else EXIT_FAILED


def cmd_merge(args: argparse.Namespace) -> int:
    try:
        report = merge_directories([Path(d) for d in args.shards], Path(args.report))
    except MergeError as exc:
        raise UsageError(str(exc)) from None
    print(render_certificate(report, args.report), end="")
    print(f"merged {len(args.shards)} shards into {args.report}/")
    return EXIT_OK if report["summary"]["certified"] else EXIT_FAILED


def cmd_campaign(args: argparse.Namespace) -> int:
    try:
        status, lines = campaign_cli.run(args)
    except CampaignError as exc:
        raise UsageError(str(exc)) from None
    print("\n".join(lines))
    return EXIT_OK if status == 0 else EXIT_FAILED


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        case = json.loads(Path(args.file).read_text(encoding="utf-8"))
        req = REGISTRY[case["requirement"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{args.file}: not a counterexample file ({exc})") from None
    engine = _open(args)
    print(f"replaying {req.id}: {req.title}")
    print(f"scenario: {json.dumps(case['scenario'], ensure_ascii=False)}")
    try:
        check_once(req, engine, case["scenario"])
        verdict, message = "PASS", "the engine now satisfies this requirement"
    except AssertionError as exc:
        verdict, message = "FAIL", str(exc)
    except EngineFault as fault:
        verdict, message = "ERROR", str(fault)
    finally:
        engine.close()
    for exchange in engine.transcript.exchanges:
        print(f">>> {json.dumps(exchange['request'], ensure_ascii=False)}")
        print(f"<<< {json.dumps(exchange['response'], ensure_ascii=False)}")
    print(f"{verdict}: {message}")
    return EXIT_OK if verdict == "PASS" else EXIT_FAILED


def cmd_diff(args: argparse.Namespace) -> int:
    try:
        a, b = (json.loads(Path(p).read_text(encoding="utf-8")) for p in (args.a, args.b))
        rows = diff_reports(a, b)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot compare reports: {exc}") from None
    print(render_diff(rows, show_same=args.all), end="")
    return EXIT_FAILED if any(r["change"] in ("regressed", "removed") for r in rows) else EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    for req_id in sorted(REGISTRY):
        req = REGISTRY[req_id]
        caps = ",".join(req.capabilities) or "-"
        print(f"{req.id:<16} {req.family:<10} {caps:<40} {req.title}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m conformance", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cert = commands.add_parser("certify", help="certify an engine and write a report")
    _engine_args(cert)
    cert.add_argument("--report", metavar="DIR", default="out", help="report directory")
    cert.add_argument("--profile", choices=sorted(PROFILES), default="ci")
    cert.add_argument("--examples", type=int, help="examples per generated requirement")
    cert.add_argument("--kills", type=int, help="SIGKILLs for STATE-KILL-001 (ci: 200)")
    cert.add_argument("--xfail", metavar="FILE", help="expected failures: [{id, reason}]")
    cert.add_argument("--id", action="append", default=[], help="only this requirement id")
    cert.add_argument("-k", dest="keyword", help="only ids or titles containing this")
    cert.add_argument("--fail-fast", action="store_true", help="stop at the first failure")
    cert.add_argument("--quiet", action="store_true", help="no progress display")
    scaled.add_arguments(cert)
    cert.set_defaults(run=cmd_certify)
    merge = commands.add_parser("merge", help="join shard reports into the whole run's report")
    merge.add_argument("shards", nargs="+", metavar="DIR", help="shard report directories")
    merge.add_argument("--report", metavar="DIR", default="out", help="merged report directory")
    merge.set_defaults(run=cmd_merge)
    campaign_cli.add_parser(commands).set_defaults(run=cmd_campaign)
    replay = commands.add_parser("replay", help="replay a counterexample file")
    replay.add_argument("file")
    _engine_args(replay)
    replay.set_defaults(run=cmd_replay)
    diff = commands.add_parser("diff", help="compare two report.json files by requirement id")
    diff.add_argument("a")
    diff.add_argument("b")
    diff.add_argument("--all", action="store_true", help="also list unchanged requirements")
    diff.set_defaults(run=cmd_diff)
    listing = commands.add_parser("list", help="list every requirement")
    listing.set_defaults(run=cmd_list)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except UsageError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
