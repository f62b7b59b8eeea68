"""``--format json`` outputs of list, diff and certify validate against their schemas;
diff compares only what both runs selected; ``smoke`` gives a first verdict; the shell
completion answers (docs/conformance.md § Scripting)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import cli
from conformance.certify import write_report
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.report.validation import SCHEMAS, schema, validate
from conformance.requirements import REGISTRY
from conformance.runner import PROFILES, Outcome

IDS = sorted(REGISTRY)[:4]
ONE_ID = "VAR-SELECT-001"
HELLO = {"protocol": "core-engine/1", "engine": {"name": "fake", "version": "1"}}


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()


def _write(directory: Path, verdicts: dict[str, str], not_run: list[str]) -> str:
    pairs = [
        (REGISTRY[i], Outcome(i, v, examples=1, duration_ms=1, message="x" if v == "fail" else ""))
        for i, v in verdicts.items()
    ]
    scope = {"complete": not not_run, "left_out": ["part"] if not_run else [], "not_run": not_run}
    report = build_report(
        pairs,
        hello=HELLO,
        engine="./fake",
        profile=PROFILES["ci"],
        expected=ExpectedFailures({}),
        scope=scope,
    )
    write_report(report, [], directory)
    return str(directory / "report.json")


def test_every_schema_has_an_id() -> None:
    for name in SCHEMAS:
        assert schema(name)["$id"].startswith("https://"), name


def test_list_json_validates_and_lists_every_requirement() -> None:
    status, out, _ = run(["list", "--format", "json"])
    document = json.loads(out)
    validate("list", document)
    assert status == 0 and [r["id"] for r in document["requirements"]] == sorted(REGISTRY)


def test_diff_compares_only_what_both_runs_selected(tmp_path: Path) -> None:
    whole = _write(tmp_path / "a", dict.fromkeys(IDS, "pass"), [])
    part = _write(tmp_path / "b", {IDS[0]: "fail"}, [i for i in sorted(REGISTRY) if i != IDS[0]])
    status, out, _ = run(["diff", whole, part, "--format", "json"])
    document = json.loads(out)
    validate("diff", document)
    changes = {row["id"]: row["change"] for row in document["rows"]}
    assert changes == {IDS[0]: "regressed", **dict.fromkeys(IDS[1:], "unselected")}
    assert status == 1 and document["regression"] is True
    status, out, _ = run(["diff", whole, part])
    assert "removed" not in out.split(";")[0].replace("0 removed", "")
    assert f"{len(IDS) - 1} not compared (selected by only one run)" in out


def test_diff_still_reports_a_requirement_the_suite_lost(tmp_path: Path) -> None:
    before = _write(tmp_path / "a", dict.fromkeys(IDS, "pass"), [])
    after = _write(tmp_path / "b", dict.fromkeys(IDS[:2], "pass"), [])
    status, out, _ = run(["diff", before, after, "--format", "json"])
    document = json.loads(out)
    assert document["counts"]["removed"] == 2 and status == 1


def test_certify_json_is_one_document_that_validates(tmp_path: Path) -> None:
    argv = ["certify", "--id", ONE_ID, "--examples", "2", "-n", "1", "--format", "json"]
    status, out, _ = run([*argv, "--report", str(tmp_path / "out")])
    document = json.loads(out)
    validate("certify", document)
    assert document["verdict"] == "partial" and document["exit_status"] == status == 3
    assert document["left_out"] and (tmp_path / "out" / "report.json").is_file()


def test_certify_json_of_an_unavailable_engine(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-engine")
    argv = ["certify", "--engine", missing, "--report", str(tmp_path / "out"), "--format", "json"]
    status, out, _ = run(argv)
    document = json.loads(out)
    validate("certify", document)
    assert status == 4 and document["engine_fault"]["code"] == "ENGINE_UNAVAILABLE"


def test_smoke_gives_the_reference_a_pass() -> None:
    status, out, _ = run(["smoke", "--engine-python", "reference.serve:factory"])
    assert status == 0, out
    assert out.splitlines()[-1].startswith("SMOKE PASS: ")
    assert "FAIL" not in out


def test_smoke_of_an_unavailable_engine(tmp_path: Path) -> None:
    status, out, _ = run(["smoke", "--engine", str(tmp_path / "nothing")])
    assert status == 4 and out.startswith("SMOKE ENGINE UNAVAILABLE")


def test_smoke_names_a_capability_that_answers_wrong(monkeypatch) -> None:
    from conformance import smoke

    def wrong(engine, scratch):
        raise AssertionError("overrides.resolve: {'disclosure_domain_count': 1}")

    monkeypatch.setitem(smoke.PROBES, "overrides", wrong)
    status, out, _ = run(["smoke", "--engine-python", "reference.serve:factory"])
    assert status == 1 and "FAIL        overrides" in out


def test_shell_completion_answers_when_argcomplete_is_installed() -> None:
    pytest.importorskip("argcomplete")
    read, write = os.pipe()
    line = "conformance ce"
    env = {**os.environ, "_ARGCOMPLETE": "1", "COMP_LINE": line, "COMP_POINT": str(len(line))}
    env["_ARGCOMPLETE_IFS"] = "\n"
    script = (
        "import os, sys; os.dup2(int(sys.argv[1]), 8); from conformance.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(write)],
        env=env,
        pass_fds=(write,),
        capture_output=True,
        timeout=600,
    )
    os.close(write)
    assert done.returncode == 0, done.stderr
    assert os.read(read, 4096).split() == [b"certify"]
    os.close(read)


def test_smoke_loads_neither_the_requirements_nor_hypothesis() -> None:
    script = (
        "import sys\n"
        "from conformance.entry import main\n"
        "status = main(['smoke', '--engine-python', 'reference.serve:factory'])\n"
        "heavy = [m for m in ('conformance.cli', 'conformance.requirements', 'hypothesis')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=600)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "SMOKE PASS" in out and "HEAVY []" in out, out
