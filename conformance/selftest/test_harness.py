"""The subprocess harness and the command line, against engine programs that misbehave.

Hangs, crashes, garbage lines and wrong ids become typed ``error`` outcomes and the
run goes on; the reference passes over stdio and in strict mode; a counterexample
written by ``certify`` replays as FAIL on the broken engine and PASS on the reference;
``diff`` reports the regression.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.certify import certify
from conformance.engines import REFERENCE_FACTORY, InProcessEngine, SubprocessEngine
from conformance.report.expected import ExpectedFailures
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from conformance.selftest.engines import BROKEN

CI = PROFILES["ci"]
PROGRAMS = Path(__file__).resolve().parent / "programs"
HANDFUL = (
    "PROTO-HELLO-001",
    "PROTO-ERROR-001",
    "VAR-SELECT-002",
    "VAR-DECOR-002",
    "OVR-RESOLVE-001",
)


def program(name: str) -> str:
    """The command line that runs one of the engine programs."""
    return shlex.join([sys.executable, str(PROGRAMS / name)])


@pytest.fixture
def open_program():
    """Open engine programs with a 2 s timeout; every one is closed after the test."""
    engines = []

    def open_engine(command: str, **options) -> SubprocessEngine:
        engine = SubprocessEngine(command, timeout=2.0, **options)
        engines.append(engine)
        return engine

    yield open_engine
    for engine in engines:
        engine.close()


def certify_ids(engine, *ids: str):
    """Certify *ids* in order; return the outcomes."""
    _, pairs = certify(engine, [REGISTRY[i] for i in ids], CI, expected=ExpectedFailures.none())
    return [outcome for _, outcome in pairs]


def test_hang_is_a_timeout_and_the_next_requirement_runs(open_program) -> None:
    engine = open_program(program("hang_on_select.py"))
    started = time.monotonic()
    hung, hello = certify_ids(engine, "VAR-SELECT-001", "PROTO-HELLO-001")
    assert time.monotonic() - started < 30
    assert (hung.verdict, hung.fault) == ("error", "timeout"), hung.message
    assert hung.counterexample["transcript"][-1]["response"] is None
    assert hello.verdict == "pass", hello.message


def test_crash_is_an_error_and_the_run_goes_on(open_program) -> None:
    engine = open_program(program("crash_on_chat.py"))
    crashed, hello = certify_ids(engine, "PROTO-CHAT-001", "PROTO-HELLO-001")
    assert (crashed.verdict, crashed.fault) == ("error", "crash"), crashed.message
    assert crashed.counterexample["scenario"] is not None
    assert hello.verdict == "pass", hello.message


@pytest.mark.parametrize(
    ("name", "req_id"),
    [("garbage_on_decorate.py", "VAR-DECOR-001"), ("wrong_id.py", "OVR-RESOLVE-001")],
)
def test_broken_wire_is_a_protocol_fault(open_program, name: str, req_id: str) -> None:
    engine = open_program(program(name))
    (outcome,) = certify_ids(engine, req_id)
    assert (outcome.verdict, outcome.fault) == ("error", "protocol"), outcome.message


def test_reference_passes_over_stdio(open_program) -> None:
    engine = open_program(shlex.join([sys.executable, "-m", "reference", "serve"]))
    outcomes = certify_ids(engine, *HANDFUL, "PROTO-BATCH-001", "VAR-CHAT-001")
    assert [o.verdict for o in outcomes] == ["pass"] * len(outcomes), [o.message for o in outcomes]


def test_strict_mode_passes_the_reference(open_program) -> None:
    engine = open_program(shlex.join([sys.executable, "-m", "reference", "serve"]), strict=True)
    outcomes = certify_ids(engine, *HANDFUL, "PROTO-CHAT-001")
    assert [o.verdict for o in outcomes] == ["pass"] * len(outcomes), [o.message for o in outcomes]


def test_strict_mode_catches_an_off_schema_result() -> None:
    broken = BROKEN["chat_shape_wrong"]
    engine = InProcessEngine(broken.spec, factory=broken.factory, strict=True)
    ctx = SuiteContext.from_engine(engine)
    outcome = run_requirement(REGISTRY["REG-INV-001"], engine, ctx, CI)
    assert (outcome.verdict, outcome.fault) == ("error", "protocol"), outcome.message
    assert "grounding_source" in outcome.message


def conformance(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m conformance`` with *args*; capture its output."""
    command = [sys.executable, "-m", "conformance", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """Report directories of one requirement, certified on a broken engine and the reference."""
    root = tmp_path_factory.mktemp("reports")
    engines = {"broken": BROKEN["no_clamp"].spec, "reference": REFERENCE_FACTORY}
    for name, spec in engines.items():
        args = ("--engine-python", spec, "--id", "OVR-RESOLVE-002", "--quiet")
        conformance("certify", *args, "--report", str(root / name))
    return {name: root / name for name in engines}


def test_certify_writes_a_replayable_counterexample(reports) -> None:
    report = json.loads((reports["broken"] / "report.json").read_text(encoding="utf-8"))
    assert not report["summary"]["certified"]
    case = json.loads((reports["broken"] / "counterexamples" / "OVR-RESOLVE-002.json").read_text())
    assert case["requirement"] == "OVR-RESOLVE-002" and case["scenario"] and case["transcript"]


def test_replay_fails_on_the_broken_engine_and_passes_on_the_reference(reports) -> None:
    case = str(reports["broken"] / "counterexamples" / "OVR-RESOLVE-002.json")
    broken = conformance("replay", case, "--engine-python", BROKEN["no_clamp"].spec)
    assert broken.returncode == 1, broken.stderr
    assert "FAIL" in broken.stdout.splitlines()[-1]
    fixed = conformance("replay", case, "--engine-python", REFERENCE_FACTORY)
    assert fixed.returncode == 0, fixed.stderr
    assert "PASS" in fixed.stdout.splitlines()[-1]


def test_diff_reports_the_regression(reports) -> None:
    a, b = (str(reports[name] / "report.json") for name in ("reference", "broken"))
    diff = conformance("diff", a, b)
    assert diff.returncode == 1, diff.stderr
    assert "regressed" in diff.stdout and "OVR-RESOLVE-002" in diff.stdout
    assert conformance("diff", a, a).returncode == 0
