"""Certify the (mutated) Node engine with the suite alone: StrykerJS's command test runner.

``python -m selftest.mutation.node`` runs in a Stryker sandbox (a copy of ``ports/node``
with every mutant compiled in, the active one chosen by ``__STRYKER_ACTIVE_MUTANT__``,
which the engine processes the suite starts inherit). It certifies ``node engine.js`` of
the current directory, reading the reference's shipped data, and exits 0 only when the
engine answered and every requirement run passed (the mutant survived); 1 when one failed
or erred, the engine could not be started or crashed, or certify exited with another
status than certified or partial (killed); 2 when no report was written (the run itself
broke: Stryker counts it as a kill, and the log says so).

``$CORE_NODE_MUTATION_K`` limits the run to requirements whose id or title contains it
(``-k`` of ``conformance certify``); the score of such a run is the score of that subset of
the suite, and docs/mutation.md says which subset each figure used.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = "10"
FAILING = {"fail", "error"}
SURVIVING = {0, 3}
"""certify's exit statuses of a run with nothing failing: certified, or partial (a selection)."""


def main() -> int:
    engine = f"node {shlex.quote(str(Path.cwd() / 'engine.js'))} --data {ROOT / 'reference'}"
    with tempfile.TemporaryDirectory(prefix="core-node-mutant-") as report:
        command = [sys.executable, "-m", "conformance", "certify", "--engine", engine]
        command += ["--fail-fast", "--quiet", "-n", "1", "--examples", EXAMPLES]
        command += ["--report", report]
        keyword = os.environ.get("CORE_NODE_MUTATION_K")
        if keyword:
            command += ["-k", keyword]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        run = subprocess.run(command, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL)
        path = Path(report) / "report.json"
        if not path.is_file():
            print("no report.json: the certification did not run", file=sys.stderr)
            return 2
        data = json.loads(path.read_text("utf-8"))
    failed = [r["id"] for r in data["results"] if r["verdict"] in FAILING]
    if data.get("engine_fault"):
        failed.append(f"the engine itself ({data['engine_fault'].get('code')})")
    if run.returncode not in SURVIVING:
        failed.append(f"certify exit status {run.returncode}")
    print("killed by " + ", ".join(failed) if failed else "survived", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
