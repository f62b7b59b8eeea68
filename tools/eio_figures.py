"""Fail every system call the STATE-EIO sessions make on their state directory, each with
EIO, ENOSPC and EROFS (each fsync also twice in a row): the two requirements' figures
without their deduplication. Outside CI (minutes); prints one JSON object per session.

    python -m tools.eio_figures [--engine-python MODULE:FACTORY]
"""

from __future__ import annotations

import argparse
import json
import time

from conformance import details
from conformance.engines import InProcessEngine
from conformance.requirements.state_eio import APPENDING, CHECKPOINTS, fail_each_call
from conformance.state.inject import plan_every


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-python", default="reference.serve:factory")
    args = parser.parse_args()
    engine = InProcessEngine(args.engine_python)
    for name, scenario, journals in (
        ("checkpoints", CHECKPOINTS, False),
        ("appends", APPENDING, True),
    ):
        collecting = details.start()
        started = time.perf_counter()
        try:
            fail_each_call(engine, scenario, journals=journals, planner=plan_every)
            verdict = "pass"
        except AssertionError as exc:
            verdict = f"fail: {str(exc)[:400]}"
        figures = details.finish(collecting)
        seconds = round(time.perf_counter() - started, 1)
        print(json.dumps({"session": name, "verdict": verdict, "seconds": seconds, **figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
