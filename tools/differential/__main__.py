"""The command line: ``python -m tools.differential --seed N --requests K ...`` (the
package's docstring states the contract)."""

from __future__ import annotations

import argparse
import sys

import tools.differential as package
from tools.differential.areas import AREAS
from tools.differential.engines import NODE, REFERENCE, EngineStopped
from tools.differential.report import as_json, as_text
from tools.differential.run import run


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.differential", description=(package.__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument(
        "--area", action="append", choices=sorted(AREAS), help="an area to generate (default: all)"
    )
    parser.add_argument("--engine-a", default=REFERENCE)
    parser.add_argument("--engine-b", default=NODE)
    parser.add_argument("--json", action="store_true", help="print the disagreements as JSON")
    parser.add_argument("--quiet", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run as the options say and print the report; the exit status of the contract."""
    options = _parser().parse_args(argv)
    log = (lambda s: None) if options.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    areas = options.area or list(AREAS)
    try:
        found, sent = run(
            options.seed, options.requests, areas, options.engine_a, options.engine_b, log
        )
    except EngineStopped as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(as_json(found) if options.json else as_text(found, sent))
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
