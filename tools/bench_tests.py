"""Test-suite parallelism: wall time of the ``nox -s tests`` selection under ``-n auto``
against ``-n 0``, both measured in this run (``-n 0`` first, then ``-n auto``), with
bytecode written as ``nox -s tests`` lets pytest write it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from tools.benchrecord import Recording

ROOT = Path(__file__).resolve().parents[1]
SELECTION = ("lanes/", "selftest/")
OPTIONS = ("-q", "-p", "no:cacheprovider")


def pytest_seconds(workers: list[str], selection: tuple[str, ...]) -> float:
    """Wall seconds of one pytest run of *selection* with the given xdist options."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *workers, *OPTIONS, *selection],
        cwd=ROOT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-2000:])
        raise SystemExit("the test run failed")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("selection", nargs="*", default=list(SELECTION))
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording("tests", argv)
    selection = tuple(args.selection)
    serial = pytest_seconds(["-n", "0"], selection)
    parallel = pytest_seconds(["-n", "auto", "--dist", "worksteal"], selection)
    print(
        f"tests       -n auto ({os.cpu_count()} cores)        {parallel:7.1f} s"
        f"   -n 0 {serial:7.1f} s   speed-up {serial / parallel:5.2f}x"
    )
    if not args.no_record:
        run.write(
            {
                "selection": list(selection),
                "cores": os.cpu_count(),
                "serial_s": round(serial, 1),
                "parallel_s": round(parallel, 1),
            }
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
