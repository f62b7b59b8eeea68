"""``conformance smoke``'s command line: its options, and a main that loads nothing of
the suite but the engine adapters (the requirements and Hypothesis take seconds to
import), so the first verdict comes quickly."""

from __future__ import annotations

import argparse
import math
import sys
from typing import NoReturn

from conformance.cli_args import utf8_text
from conformance.engines import open_engine
from conformance.inputs import one_line
from conformance.smoke import render, smoke

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_UNAVAILABLE = 0, 1, 2, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(f"{self.prog}: {message}")


def _engine_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: name an engine (or leave the option out)")
    return utf8_text(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text} must be a number above 0")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``smoke``: which engine, and how long a request may take."""
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument(
        "--engine", metavar="CMD", type=_engine_name, help="engine program speaking core-engine/1"
    )
    engine.add_argument(
        "--engine-python", metavar="MODULE:FACTORY", type=_engine_name, help="in-process engine"
    )
    parser.add_argument("--timeout", type=_seconds, default=10.0, help="seconds per request (> 0)")


def command(args: argparse.Namespace) -> int:
    """Run smoke as the arguments say; print its lines; return its exit status."""
    try:
        engine = open_engine(args.engine, args.engine_python, timeout=args.timeout, strict=True)
    except (ValueError, ImportError, AttributeError) as exc:
        sys.stderr.write(f"error: cannot open the engine: {one_line(str(exc))}\n")
        return EXIT_USAGE
    try:
        result = smoke(engine)
    finally:
        engine.close()
    print("\n".join(render(result, engine.description)), flush=True)
    return {"pass": EXIT_PASS, "fail": EXIT_FAIL}.get(result.verdict, EXIT_UNAVAILABLE)


def main(argv: list[str]) -> int:
    """``conformance smoke ARGS``; returns the exit status."""
    parser = _Parser(prog="python -m conformance smoke", description=__doc__.splitlines()[0])
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except ValueError as exc:
        sys.stderr.write(f"error: {one_line(str(exc))}\n")
        return EXIT_USAGE
    return command(args)
