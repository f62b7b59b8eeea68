"""The suite stands alone: it certifies an engine program from a process that cannot import
``reference``, and with no engine named and no reference installed it says so.

The harness process below runs the conformance CLI with ``sys.modules["reference"] =
None``, so any import of the reference engine on the certify path (a module, a lazy
import, a ``module:factory`` name) fails the run.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import conformance

WITHOUT_REFERENCE = (
    "import sys\n"
    "sys.modules['reference'] = None\n"
    "from conformance.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)
"""A ``python -c`` program: the conformance CLI in a process where ``import reference`` fails."""
SUITE = Path(conformance.__file__).resolve().parent
REFERENCE_MODULE = re.compile(r"\breference[.:][a-z_]")
"""A string naming a module or factory of the reference (``reference.serve:factory``)."""
IDS = ("PROTO-HELLO-001", "PROTO-CHAT-001")
EXIT_PARTIAL, EXIT_ENGINE = 3, 4
CEILING = 600
"""Seconds before a hung run is reported (only a hang ever reaches it)."""


def certify_without_reference(report: Path, *args: str, env: dict[str, str] | None = None):
    ids = [word for req_id in IDS for word in ("--id", req_id)]
    command = [sys.executable, "-c", WITHOUT_REFERENCE, "certify", *ids, *args]
    command += ["--report", str(report), "--quiet", "-n", "1"]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=CEILING,
        check=False,
        cwd=report.parent,
        env=env,
    )


def test_the_suite_certifies_an_engine_program_without_importing_reference(tmp_path) -> None:
    engine = shlex.join([sys.executable, "-m", "reference", "serve"])
    done = certify_without_reference(tmp_path, "--engine", engine)
    assert done.returncode == EXIT_PARTIAL, done.stdout + done.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["verdict"] == "partial"
    verdicts = {result["id"]: result["verdict"] for result in report["results"]}
    assert verdicts == dict.fromkeys(IDS, "pass")


def test_no_engine_and_no_reference_is_engine_unavailable_naming_the_option(tmp_path) -> None:
    missing = tmp_path / "path" / "reference"
    missing.mkdir(parents=True)
    (missing / "__init__.py").write_text("raise ImportError('the reference is not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(missing.parent)}
    done = certify_without_reference(tmp_path / "out", env=env)
    assert done.returncode == EXIT_ENGINE, done.stdout + done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    fault = report["engine_fault"]
    assert fault["code"] == "ENGINE_UNAVAILABLE"
    assert "no engine was given" in fault["message"] and "--engine" in fault["message"]
    assert "no engine was given" in done.stdout


def test_no_string_in_the_suite_names_a_module_of_the_reference() -> None:
    named = [
        f"{path.relative_to(SUITE)}:{node.lineno}: {node.value[:60]!r}"
        for path in sorted(SUITE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and REFERENCE_MODULE.search(node.value)
    ]
    assert not named, f"the suite names reference modules: {named}"
