"""A verdict survives interruption: certify as a real process, stopped three ways.

Each test waits for an event (the first progress line, or the report written while the
run goes), never for a time: a closed stdout leaves the exit status to the verdict, and
SIGINT / SIGTERM end the run with a written PARTIAL report (``scope.ended``
``interrupted``) and status 130 / 143. None of them can exit 0.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.report.validation import validate

ROOT = Path(__file__).resolve().parents[2]
SLOW_ENGINE = ROOT / "selftest/programs/slow_engine.py"
ENGINE = shlex.join([sys.executable, str(SLOW_ENGINE), "0.01"])
SELECTION = ("-k", "VAR")
"""Requirements enough to be stopped mid-way on the slow engine."""


def start(report: Path, *extra: str, stdout: int = subprocess.PIPE) -> subprocess.Popen:
    command = [sys.executable, "-m", "conformance", "certify", "--engine", ENGINE]
    command += [*SELECTION, "--report", str(report), *extra]
    env = {**os.environ, "CI": "1", "CONFORMANCE_HEARTBEAT_S": "0.5"}
    return subprocess.Popen(
        command, stdout=stdout, stderr=subprocess.PIPE, env=env, cwd=ROOT, text=True
    )


def read_valid_report(report: Path) -> dict:
    document = json.loads((report / "report.json").read_text(encoding="utf-8"))
    validate("report", document)
    return document


@pytest.mark.parametrize(
    "signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"]
)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_stop_signal_writes_what_ran_as_a_partial_report(tmp_path, signum, status, workers):
    report = tmp_path / "report"
    process = start(report, "-n", workers)
    first = process.stdout.readline()
    assert first, process.stderr.read()
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    assert process.returncode == status, first + out + err
    document = read_valid_report(report)
    assert document["scope"]["ended"] == "interrupted"
    assert document["summary"]["verdict"] == "partial"
    assert not document["scope"]["complete"]
    assert any("interrupted" in line for line in document["scope"]["left_out"])
    assert "interrupted" in (report / "certificate.md").read_text(encoding="utf-8")
    assert signal.Signals(signum).name in err


def test_a_closed_stdout_leaves_the_exit_status_to_the_verdict(tmp_path):
    report = tmp_path / "report"
    process = start(report, "-n", "1", "--id", "VAR-SELECT-002", "--id", "PROTO-HELLO-001")
    assert process.stdout.readline()
    process.stdout.close()
    process.wait(timeout=300)
    process.stderr.read()
    assert process.returncode == 3
    document = read_valid_report(report)
    assert document["scope"]["ended"] == "finished"
    assert document["summary"]["verdict"] == "partial"


def test_the_report_is_written_while_the_run_goes(tmp_path):
    report = tmp_path / "report"
    process = start(report, "-n", "1")
    try:
        line = process.stdout.readline()
        while line and "examples" not in line:
            line = process.stdout.readline()
        document = read_valid_report(report)
        assert document["scope"]["ended"] in ("running", "finished")
        assert document["summary"]["verdict"] != "certified"
        assert document["results"]
    finally:
        process.kill()
        process.communicate()


def test_a_killed_run_leaves_a_valid_partial_report(tmp_path):
    report = tmp_path / "report"
    process = start(report, "-n", "1")
    line = process.stdout.readline()
    while line and "examples" not in line:
        line = process.stdout.readline()
    process.kill()
    process.communicate()
    document = read_valid_report(report)
    assert document["scope"]["ended"] in ("running", "finished")
    assert document["summary"]["verdict"] in ("partial", "not-certified")


def test_a_budgeted_run_stopped_by_a_signal_reports_its_looks(tmp_path):
    report = tmp_path / "report"
    process = start(report, "--budget", "10m")
    first = process.stdout.readline()
    assert first, process.stderr.read()
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 143, first + out + err
    document = read_valid_report(report)
    assert document["scope"]["ended"] == "interrupted"
    assert document["summary"]["verdict"] in ("partial", "not-certified")


def test_ci_logs_get_a_progress_line_while_a_requirement_runs(tmp_path):
    """Without a terminal, a heartbeat line comes whenever nothing was printed for the
    interval (shortened here), also in the middle of one long requirement."""
    report = tmp_path / "report"
    process = start(report, "-n", "1", "--id", "REG-INV-001")
    try:
        lines = iter(process.stdout.readline, "")
        heartbeat = next((line for line in lines if line.startswith("... running:")), None)
        assert heartbeat is not None, process.stderr.read()
        assert " of 1 requirements done, " in heartbeat
    finally:
        process.kill()
        process.communicate()
