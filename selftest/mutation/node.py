"""Certify the (mutated) Node engine with the suite alone: StrykerJS's command test runner.

``python -m selftest.mutation.node`` runs in a Stryker sandbox (a copy of ``ports/node``
with every mutant compiled in, the active one chosen by ``__STRYKER_ACTIVE_MUTANT__``,
which the engine processes the suite starts inherit). It certifies ``node engine.js`` of
the current directory, reading the reference's shipped data, and exits 0 only when the
engine answered and every requirement run passed (the mutant survived); 1 when one failed
or erred, the engine could not be started or crashed, or certify exited with another
status than certified or partial (killed); 2 when no report was written (the run itself
broke: Stryker counts it as a kill, and the log says so).

Which requirements run (``selftest/mutation/node_reach.py``): those of the mutated file's
families (``REACH``, the file found by the active mutant's id in the sandbox), cheapest
first (but the requirements that killed other mutants of the file before all others:
``node_reach.killers``), one engine process, stopping at the first failure.
``$CORE_NODE_MUTATION_K`` overrides the map: the requirements whose id or title contains
it, ``*`` for every one.
The score of a run is the score of the selection, and docs/mutation.md says which it used.
Stryker's dry run (no mutant active) certifies ``DRY_RUN`` only. The certification runs in a
fork of a warm process that imported the suite once (``node_warm``);
``$CORE_NODE_MUTATION_COLD`` set runs it in this process instead. ``$CORE_NODE_MUTATION_LOG``
names a file that gets one line per mutant: its id, the seconds it took, the verdict.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

from selftest.mutation import node_reach, node_warm

ROOT = Path(__file__).resolve().parents[2]
SANDBOX = Path.cwd()
EXAMPLES = "10"
FAILING = {"fail", "error"}
SURVIVING = {0, 3}
"""certify's exit statuses of a run with nothing failing: certified, or partial (a selection)."""
DRY_RUN = "PROTO-HELLO-001"
"""What Stryker's dry run (no mutant active) certifies: that the unmutated sandbox engine
starts and answers. The unmutated port's full certification is the ports lane's job."""


def selection(sandbox: Path) -> list[str]:
    """certify's selection arguments for the active mutant: ``-k KEYWORD``, ``--id`` words,
    or ``--reach PREFIX...`` (the mutated file's families, turned into ``--id``s in order
    by ``node_reach.expand`` where the suite is imported)."""
    keyword = os.environ.get("CORE_NODE_MUTATION_K")
    if keyword == "*":
        return []
    if keyword:
        return ["-k", keyword]
    mutant = os.environ.get("__STRYKER_ACTIVE_MUTANT__")
    if not mutant:
        return ["--id", DRY_RUN]
    where = node_reach.file_of(mutant, sandbox)
    if where not in node_reach.REACH:
        return []
    print(f"mutant {mutant} in {where}", file=sys.stderr)
    first = [f"^{i}" for i in node_reach.killers(where)]
    return [node_reach.MARK, *node_reach.REACH[where], *first]


def _file_of_active() -> str | None:
    mutant = os.environ.get("__STRYKER_ACTIVE_MUTANT__")
    if not mutant or os.environ.get("CORE_NODE_MUTATION_K"):
        return None
    return node_reach.file_of(mutant, SANDBOX)


def _certify_here(command: list[str], env: dict[str, str]) -> int:
    """Run ``conformance`` *command* in this process (no warm server answered)."""
    from conformance.entry import main as conformance

    os.environ.update(env)
    os.chdir(ROOT)
    stdout = sys.stdout
    with open(os.devnull, "w", encoding="utf-8") as sink:
        sys.stdout = sink
        try:
            return conformance(node_reach.expand(command))
        finally:
            sys.stdout = stdout


def main() -> int:
    started = time.monotonic()
    sandbox = Path.cwd()
    engine = f"node {shlex.quote(str(sandbox / 'engine.js'))} --data {ROOT / 'reference'}"
    with tempfile.TemporaryDirectory(prefix="core-node-mutant-") as report:
        command = ["certify", "--engine", engine, "--fail-fast", "--quiet", "-n", "1"]
        command += ["--examples", EXAMPLES, "--report", report, *selection(sandbox)]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        status = None
        if not os.environ.get("CORE_NODE_MUTATION_COLD"):
            status = node_warm.certify(command, env)
        if status is None:
            status = _certify_here(command, env)
        path = Path(report) / "report.json"
        if not path.is_file():
            print("no report.json: the certification did not run", file=sys.stderr)
            return 2
        data = json.loads(path.read_text("utf-8"))
    failed = [r["id"] for r in data["results"] if r["verdict"] in FAILING]
    if data.get("engine_fault"):
        failed.append(f"the engine itself ({data['engine_fault'].get('code')})")
    if status not in SURVIVING:
        failed.append(f"certify exit status {status}")
    where = _file_of_active()
    if failed and where and data["results"]:
        ids = [r["id"] for r in data["results"] if r["verdict"] in FAILING]
        if ids:
            node_reach.remember_killer(where, ids[0])
    verdict = "killed by " + ", ".join(failed) if failed else "survived"
    print(verdict, file=sys.stderr)
    log = os.environ.get("CORE_NODE_MUTATION_LOG")
    if log:
        mutant = os.environ.get("__STRYKER_ACTIVE_MUTANT__", "-")
        seconds = time.monotonic() - started
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{mutant}\t{seconds:.2f}\t{verdict}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
