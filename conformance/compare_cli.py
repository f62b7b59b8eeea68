"""``python -m conformance compare`` and ``python -m conformance report``.

``compare --engine A --engine B ... --report DIR`` certifies every engine on the same
selection and profile, writes each engine's report directory under DIR and prints the
requirements × engines matrix (``--format json``: the matrix as JSON, schema
``compare.schema.json``). ``report DIR... --html OUT`` renders one self-contained page
from any set of report directories. Both raise ``ConformanceError`` for bad inputs (the
CLI's one-line usage error).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from conformance import api
from conformance.certify import _write
from conformance.cli_args import PathArg
from conformance.compare import (
    ReportDirError,
    as_json,
    compare,
    counterexamples,
    engine_runs,
)
from conformance.parallel import default_workers
from conformance.report.certificate import HEADLINE
from conformance.report.html import render_html
from conformance.report.matrix import EngineRun, render_matrix
from conformance.runner import PROFILES


class _Engines(argparse.Action):
    """``--engine CMD`` and ``--engine-python F`` into one ordered list of (kind, value)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        kind = "python" if option_string == "--engine-python" else "command"
        engines = list(getattr(namespace, self.dest) or [])
        engines.append((kind, values))
        setattr(namespace, self.dest, engines)


def add_parsers(commands: Any, types: dict[str, Any]) -> None:
    """Add ``compare`` and ``report`` to the subcommands; *types* are the CLI's argument
    types (``not_blank``, ``positive_float``, ``at_least_one``)."""
    cmp = commands.add_parser("compare", help="certify several engines and print the matrix")
    for flag, metavar, help_text in (
        ("--engine", "CMD", "an engine program (repeatable)"),
        ("--engine-python", "MODULE:FACTORY", "an in-process engine (repeatable)"),
    ):
        cmp.add_argument(
            flag,
            dest="engines",
            metavar=metavar,
            action=_Engines,
            type=types["not_blank"],
            help=help_text,
        )
    cmp.add_argument(
        "--timeout", type=types["positive_float"], default=10.0, help="seconds per request (> 0)"
    )
    cmp.add_argument("--strict", action="store_true", help="validate every message's schema")
    cmp.add_argument(
        "--report",
        metavar="DIR",
        type=PathArg("out-dir"),
        default="out/compare",
        help="where each engine's report directory goes",
    )
    cmp.add_argument("--profile", choices=sorted(PROFILES), default="ci")
    cmp.add_argument(
        "--examples", type=types["at_least_one"], help="examples per generated requirement (>= 1)"
    )
    cmp.add_argument(
        "--kills", type=types["at_least_one"], help="SIGKILLs for STATE-KILL-001 (ci: 200, >= 1)"
    )
    cmp.add_argument("--id", action="append", default=[], help="only this requirement id")
    cmp.add_argument(
        "-k",
        dest="keyword",
        action="append",
        help="only ids or titles containing this (repeat for any of several)",
    )
    cmp.add_argument(
        "-n",
        dest="workers",
        type=int,
        default=default_workers(),
        help="engine processes per engine (default: the number of cores)",
    )
    cmp.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    cmp.add_argument(
        "--html", metavar="OUT", type=PathArg("out-file"), help="also render the report page to OUT"
    )
    cmp.set_defaults(run=cmd_compare)
    rep = commands.add_parser("report", help="render report directories as one HTML page")
    rep.add_argument(
        "dirs",
        nargs="+",
        metavar="DIR",
        type=PathArg("report-dir"),
        help="report or compare directories",
    )
    rep.add_argument(
        "--html", metavar="OUT", type=PathArg("out-file"), required=True, help="the page to write"
    )
    rep.set_defaults(run=cmd_report)


def _engines(args: argparse.Namespace) -> list[api.Engine]:
    given = args.engines or [("command", None)]
    return [
        api.Engine(
            value if kind == "command" else None,
            value if kind == "python" else None,
            args.timeout,
            args.strict,
        )
        for kind, value in given
    ]


def _html_target(path: str) -> Path:
    target = Path(path)
    if target.is_dir():
        raise api.ConformanceError("BAD_HTML", f"--html {path}: is a directory, name a file")
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = f"--html {path}: cannot create {parent}/: {exc.strerror or exc}"
        raise api.ConformanceError("BAD_HTML", why) from None
    if not os.access(parent, os.W_OK | os.X_OK):
        why = f"--html {path}: {parent}/ is not a writable directory"
        raise api.ConformanceError("BAD_HTML", why)
    return target


def write_page(runs: list[EngineRun], target: Path) -> None:
    """Render *runs* to *target* (written whole, then renamed into place)."""
    _write(target, render_html(runs, [counterexamples(run) for run in runs]))


def cmd_compare(args: argparse.Namespace) -> int:
    target = _html_target(args.html) if args.html else None
    say = sys.stderr if args.format == "json" else sys.stdout

    def finished(label: str, report: api.Report) -> None:
        print(f"{label}: {HEADLINE[report.verdict]} ({report.directory}/)", file=say, flush=True)

    result = compare(
        _engines(args),
        args.report,
        api.Selection(tuple(args.id), tuple(args.keyword or ())),
        args.profile,
        examples=args.examples,
        kills=args.kills,
        workers=args.workers,
        on_engine=finished,
    )
    if target is not None:
        write_page(list(result.runs), target)
    if args.format == "json":
        sys.stdout.write(as_json(result.matrix))
    else:
        print()
        sys.stdout.write(render_matrix(result.matrix))
        if target is not None:
            print(f"page written to {target}")
    return result.exit_status


def cmd_report(args: argparse.Namespace) -> int:
    target = _html_target(args.html)
    try:
        runs = engine_runs(args.dirs)
    except ReportDirError as exc:
        raise api.ConformanceError("BAD_REPORT_DIR", str(exc)) from None
    write_page(runs, target)
    print(f"{len(runs)} engine reports rendered to {target}")
    return 0
