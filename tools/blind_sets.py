"""Certify a blind set of porting mistakes with a frozen suite: the measure of what the suite
catches in engines it has never seen (docs/contributing.md § Measure the suite blind).

A blind set is a directory written by someone who never opened the suite (its writer's
instructions: ``tools/blind_writer.md``): ``mNN.patch`` files, each one mistake as a
``git diff`` over an engine tree, and ``manifest.json``, a list of
``{"id", "engine": "reference" | "node", "docs_file", "sentence", "mistake", "witness"}``
(``"args"``: extra arguments of the Node engine, optional). Each mistake is applied to a
fresh copy of the engine tree and certified over stdio with ``--fail-fast``; it is caught
when the verdict is not ``certified``. Results are kept in OUT (resumable).

    python -m tools.blind_sets SETDIR OUT.json --engines TREE --suite TREE [--python PY]
    python -m tools.blind_sets SETDIR OUT.json ... --baseline   # the unpatched engines
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

IGNORED = shutil.ignore_patterns(".git", "out", "node_modules", "mutants", ".nox")


def engine_command(python: str, tree: Path, engine: str, args: str = "") -> str:
    """The stdio command of the engine *engine* of *tree*."""
    if engine == "node":
        return f"node {shlex.quote(str(tree / 'ports/node/engine.js'))} {args}".rstrip()
    return f"env --chdir={shlex.quote(str(tree))} {shlex.quote(python)} -m reference serve"


def prepare(engines: Path, work: Path, name: str, patch: Path | None) -> Path:
    """A fresh copy of *engines* under *work*, with *patch* applied."""
    tree = work / name
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(engines, tree, ignore=IGNORED)
    if patch is not None:
        done = subprocess.run(
            ["git", "apply", str(patch)], cwd=tree, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"{name}: the patch does not apply: {done.stderr.strip()}")
    return tree


def certify(
    python: str, suite: Path, command: str, report: Path, fail_fast: bool
) -> dict[str, Any]:
    """Certify the engine *command* with the suite of *suite*; the verdict and failed ids."""
    argv = [
        python,
        "-m",
        "conformance",
        "certify",
        "--engine",
        command,
        "--format",
        "json",
        "--report",
        str(report),
        "-n",
        "2",
        *(["--fail-fast"] if fail_fast else []),
    ]
    started = time.monotonic()
    done = subprocess.run(argv, cwd=suite, capture_output=True, text=True)
    seconds = round(time.monotonic() - started, 1)
    try:
        verdict = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"verdict": "unreadable", "seconds": seconds, "stderr": done.stderr[-2000:]}
    failed = []
    if (report / "report.json").is_file():
        results = json.loads((report / "report.json").read_text("utf-8"))["results"]
        failed = [r["id"] for r in results if r["outcome"] not in ("pass", "not-claimed")]
    return {"verdict": verdict.get("verdict"), "failed": failed, "seconds": seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.blind_sets", description=__doc__)
    parser.add_argument("setdir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--engines", type=Path, required=True, help="the tree the patches apply to")
    parser.add_argument("--suite", type=Path, required=True, help="the tree of the frozen suite")
    parser.add_argument(
        "--python", default=sys.executable, help="a Python with the suite installed"
    )
    parser.add_argument("--baseline", action="store_true", help="certify the unpatched engines")
    options = parser.parse_args(argv)
    results: dict[str, Any] = (
        json.loads(options.out.read_text("utf-8")) if options.out.is_file() else {}
    )
    work = Path(tempfile.mkdtemp(prefix="blind-"))
    manifest = json.loads((options.setdir / "manifest.json").read_text("utf-8"))
    if options.baseline:
        manifest = [{"id": f"base-{e}", "engine": e} for e in ("reference", "node")]
    for entry in manifest:
        name = entry["id"]
        if name in results:
            continue
        patch = None if options.baseline else options.setdir.resolve() / f"{name}.patch"
        tree = prepare(options.engines, work, name, patch)
        command = engine_command(options.python, tree, entry["engine"], entry.get("args", ""))
        row = certify(options.python, options.suite, command, tree / "report", not options.baseline)
        row["caught"] = row["verdict"] != "certified"
        results[name] = row
        print(name, entry["engine"], row["verdict"], " ".join(row.get("failed", [])), flush=True)
        options.out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", "utf-8")
    caught = sum(1 for entry in manifest if results[entry["id"]]["caught"])
    print(f"{caught} of {len(manifest)} caught" if not options.baseline else "baseline done")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
