"""Reports: summary arithmetic, verdicts, expected failures, digests, certificate, JUnit,
diff, badge, schemas, and counterexamples of any shape."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance import SUITE_VERSION
from conformance.certify import scope_of, verdict_line, write_report
from conformance.report.badge import render_badge
from conformance.report.certificate import render_certificate, replay_command
from conformance.report.diff import diff_reports, render_diff
from conformance.report.expected import ExpectedFailures, ExpectedFailuresError
from conformance.report.junit import render_junit
from conformance.report.model import build_report
from conformance.report.plain import from_plain, to_plain
from conformance.report.terminal import print_summary, render_summary
from conformance.report.validation import validate
from conformance.requirements import REGISTRY
from conformance.runner import PROFILES, Outcome

IDS = sorted(REGISTRY)[:5]
CI = PROFILES["ci"]
HELLO = {"protocol": "core-engine/1", "engine": {"name": "fake", "version": "1"}}


def _report(
    verdicts: dict[str, str],
    expected: dict[str, str] | None = None,
    ms: int = 5,
    **extra,
):
    pairs = []
    for req_id, verdict in verdicts.items():
        failed = verdict in ("fail", "error")
        outcome = Outcome(
            req_id,
            verdict,
            examples=3,
            duration_ms=ms,
            message="boom" if failed else "",
            counterexample={"requirement": req_id, "scenario": 1} if failed else None,
        )
        pairs.append((REGISTRY[req_id], outcome))
    return build_report(
        pairs,
        hello=HELLO,
        engine="./fake",
        profile=PROFILES["ci"],
        expected=ExpectedFailures(expected or {}),
        **extra,
    )


def test_all_pass_is_certified():
    report = _report(dict.fromkeys(IDS, "pass"))
    assert report["summary"]["certified"] and report["summary"]["passed"] == len(IDS)
    assert "**CERTIFIED**" in render_certificate(report)


def test_not_claimed_is_neutral_but_never_a_pass():
    report = _report({IDS[0]: "pass", IDS[1]: "not-claimed"})
    assert report["summary"]["certified"]
    assert report["summary"]["passed"] == 1 and report["summary"]["not_claimed"] == 1


@pytest.mark.parametrize("verdict", ["fail", "error"])
def test_failure_and_error_block_certification(verdict):
    report = _report({IDS[0]: "pass", IDS[1]: verdict})
    assert not report["summary"]["certified"]
    text = render_certificate(report, "out")
    assert "NOT CERTIFIED" in text
    assert f"python -m conformance replay out/counterexamples/{IDS[1]}.json" in text


def test_expected_failure_xfail_xpass_and_stale():
    xfail = _report({IDS[0]: "fail", IDS[1]: "pass"}, {IDS[0]: "known"})
    assert xfail["results"][0]["outcome"] == "xfail" and xfail["summary"]["certified"]
    xpass = _report({IDS[0]: "pass"}, {IDS[0]: "known"})
    assert xpass["results"][0]["outcome"] == "xpass" and not xpass["summary"]["certified"]
    stale = _report({IDS[0]: "pass"}, {"NOPE-NOPE-001": "gone"})
    assert stale["stale_expected_failures"] == ["NOPE-NOPE-001"]
    assert not stale["summary"]["certified"]
    unclaimed = _report({IDS[0]: "not-claimed"}, {IDS[0]: "known"})
    assert unclaimed["stale_expected_failures"] == [IDS[0]]


def test_verdict_digest_ignores_timings_but_digest_does_not():
    fast, slow = _report({IDS[0]: "pass"}, ms=1), _report({IDS[0]: "pass"}, ms=900)
    assert fast["verdict_digest"] == slow["verdict_digest"]
    assert fast["digest"] != slow["digest"]
    assert _report({IDS[0]: "fail"})["verdict_digest"] != fast["verdict_digest"]


def test_junit_counts():
    report = _report({IDS[0]: "pass", IDS[1]: "fail", IDS[2]: "error", IDS[3]: "not-claimed"})
    suite = ET.fromstring(render_junit(report).split("?>", 1)[1])
    assert (
        suite.get("tests"),
        suite.get("failures"),
        suite.get("errors"),
        suite.get("skipped"),
    ) == ("4", "1", "1", "1")
    assert [case.get("name") for case in suite] == IDS[:4]


def test_diff_by_requirement_id():
    before = _report({IDS[0]: "pass", IDS[1]: "fail", IDS[2]: "pass"})
    after = _report({IDS[0]: "fail", IDS[1]: "pass", IDS[3]: "pass"})
    changes = {row["id"]: row["change"] for row in diff_reports(before, after)}
    assert changes == {IDS[0]: "regressed", IDS[1]: "fixed", IDS[2]: "removed", IDS[3]: "added"}
    assert "1 fixed, 1 regressed" in render_diff(diff_reports(before, after))


@pytest.mark.parametrize(
    "content",
    [
        "{}",
        "[1]",
        '[{"id": "X"}]',
        '[{"id": "X", "reason": " "}]',
        '[{"id": "X", "reason": "a"}, {"id": "X", "reason": "b"}]',
        "not json",
    ],
)
def test_malformed_expected_failures_file(tmp_path, content):
    path = tmp_path / "xfail.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ExpectedFailuresError):
        ExpectedFailures.load(path)


def _certify(tmp_path, *extra):
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "certify",
            "--quiet",
            "--report",
            str(tmp_path / "out"),
            "--id",
            "PROTO-HELLO-001",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_exit_codes_and_files(tmp_path):
    done = _certify(tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "PARTIAL" in done.stdout and "CERTIFIED:" not in done.stdout.replace("NOT ", "")
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["verdict"] == "partial" and not report["summary"]["certified"]
    assert report["suite"]["version"] == SUITE_VERSION
    validate("report", report)
    assert {p.name for p in (tmp_path / "out").iterdir()} >= {
        "report.json",
        "certificate.md",
        "junit.xml",
        "badge.json",
    }
    badge = json.loads((tmp_path / "out" / "badge.json").read_text(encoding="utf-8"))
    assert badge["schemaVersion"] == 1 and badge["message"].startswith("partial")
    xfail = tmp_path / "xfail.json"
    xfail.write_text(json.dumps([{"id": "PROTO-HELLO-001", "reason": "test"}]), encoding="utf-8")
    xpassed = _certify(tmp_path, "--xfail", str(xfail))
    assert xpassed.returncode == 1 and xpassed.stdout.startswith("XPASS"), xpassed.stdout
    bad = _certify(tmp_path, "--id", "NOPE-NOPE-001")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_partial_runs_are_never_certified():
    everything = scope_of([REGISTRY[i] for i in sorted(REGISTRY)], sorted(REGISTRY), CI, None)
    assert everything == {
        "complete": True,
        "left_out": [],
        "not_run": [],
        "stopped": 0,
        "thin": [],
        "ended": "finished",
    }
    one = [REGISTRY["PROTO-HELLO-001"]]
    narrow = _report(
        {"PROTO-HELLO-001": "pass"}, scope=scope_of(one, ["PROTO-HELLO-001"], CI, None)
    )
    assert narrow["summary"]["verdict"] == "partial" and not narrow["summary"]["certified"]
    assert "only 1 of" in narrow["scope"]["left_out"][0]
    text = render_certificate(narrow)
    assert "**PARTIAL**" in text and "CERTIFIED" not in text
    generated = [REGISTRY[i] for i in sorted(REGISTRY) if REGISTRY[i].strategy is not None]
    thin = scope_of(generated, [r.id for r in generated], CI, 1)
    assert any("fewer examples than the ci profile" in why for why in thin["left_out"])
    stopped = scope_of(generated, [generated[0].id], CI, None)
    assert any("stopped at the first failure" in why for why in stopped["left_out"])


def test_failure_outranks_partial():
    one = [REGISTRY[IDS[0]]]
    report = _report({IDS[0]: "fail"}, scope=scope_of(one, [IDS[0]], CI, None))
    assert report["summary"]["verdict"] == "not-certified"


ENGINE_FAULT = {
    "code": "ENGINE_UNAVAILABLE",
    "kind": "protocol",
    "message": "not a JSON line on stdout",
    "exit_status": None,
    "offending": {"$bytes": "eQo="},
    "stderr_tail": ["boom"],
    "stdout_tail": ["y"],
}


def test_engine_fault_is_one_verdict():
    scope = {"complete": False, "left_out": [], "not_run": sorted(REGISTRY)}
    report = _report({}, scope=scope, engine_fault=ENGINE_FAULT)
    validate("report", report)
    assert report["summary"]["verdict"] == "engine-unavailable"
    text = render_certificate(report)
    assert "ENGINE_UNAVAILABLE" in text and "protocol" in text and "boom" in text
    assert "## Requirements" not in text
    assert render_badge(report)["message"] == "engine unavailable"


def test_engine_fault_is_one_junit_error():
    scope = {"complete": False, "left_out": [], "not_run": sorted(REGISTRY)}
    report = _report({}, scope=scope, engine_fault=ENGINE_FAULT)
    suite = ET.fromstring(render_junit(report).split("?>", 1)[1])
    assert (suite.get("tests"), suite.get("errors")) == ("1", "1")
    assert [case.get("name") for case in suite] == ["ENGINE_UNAVAILABLE"]


@pytest.mark.parametrize("verdicts", [{IDS[0]: "pass"}, {IDS[0]: "error", IDS[1]: "fail"}])
def test_rich_summary_draws_the_verdict_and_the_problems(verdicts):
    from rich.console import Console

    console = Console(record=True, width=100, force_terminal=True)
    report = _report(verdicts, options={"engine": "./e [x]", "timeout": 1.0})
    print_summary(report, "out", console)
    text = console.export_text()
    assert text.splitlines()[0].startswith(("CERTIFIED", "NOT CERTIFIED"))
    assert "not claimed" in text and "examples" in text  # the counts table
    for req_id, verdict in verdicts.items():
        if verdict != "pass":
            assert req_id in text and "replay: python -m conformance replay" in text


def test_verdict_lines_show_xfail_and_xpass():
    req = REGISTRY[IDS[0]]
    known = ExpectedFailures({IDS[0]: "known"})
    assert verdict_line(req, Outcome(IDS[0], "fail", message="x"), known).startswith("XFAIL")
    assert verdict_line(req, Outcome(IDS[0], "pass"), known).startswith("XPASS")
    assert verdict_line(req, Outcome(IDS[0], "pass")).startswith("PASS")


def test_replay_command_is_shell_quoted_and_carries_the_options():
    options = {"engine": "./my engine --stdio", "timeout": 2.5, "strict": True}
    report = _report({IDS[0]: "fail"}, options=options)
    command = replay_command(report, report["results"][0], "out dir")
    words = shlex.split(command)
    assert words[words.index("--engine") + 1] == "./my engine --stdio"
    assert words[words.index("--timeout") + 1] == "2.5" and "--strict" in words
    assert words[4] == f"out dir/counterexamples/{IDS[0]}.json"


@pytest.mark.parametrize(
    "scenario",
    [b"\x00\xff", [b"a", (1, 2)], {"k": float("nan")}, "\ud800", {1: {3}}, object()],
    ids=["bytes", "nested", "nan", "surrogate", "set", "object"],
)
def test_counterexamples_of_any_shape_serialize(tmp_path, scenario):
    outcome = Outcome(
        IDS[0], "fail", message="m", counterexample={"requirement": IDS[0], "scenario": scenario}
    )
    report = _report({IDS[0]: "fail"})
    assert write_report(report, [(REGISTRY[IDS[0]], outcome)], tmp_path) == []
    body = json.loads((tmp_path / "counterexamples" / f"{IDS[0]}.json").read_text("utf-8"))
    validate("counterexample", {**body, "message": "m", "transcript": []})
    validate("report", json.loads((tmp_path / "report.json").read_text("utf-8")))
    if isinstance(scenario, bytes):
        assert from_plain(body["scenario"]) == scenario


def test_plain_round_trips_bytes_and_floats():
    value = {"a": [b"\x01", float("inf")], "b": "text"}
    assert from_plain(to_plain(value)) == value


def test_one_unwritable_counterexample_loses_nothing_else(tmp_path):
    pairs = []
    for req_id in IDS[:3]:
        case = {"requirement": req_id, "scenario": 1}
        pairs.append((REGISTRY[req_id], Outcome(req_id, "fail", counterexample=case)))
    report = _report(dict.fromkeys(IDS[:3], "fail"))
    (tmp_path / "counterexamples").mkdir()
    (tmp_path / "counterexamples" / f"{IDS[1]}.json").mkdir()
    problems = write_report(report, pairs, tmp_path)
    assert len(problems) == 1 and IDS[1] in problems[0]
    written = {p.name for p in (tmp_path / "counterexamples").glob("*.json") if p.is_file()}
    assert written == {f"{IDS[0]}.json", f"{IDS[2]}.json"}
    assert json.loads((tmp_path / "report.json").read_text("utf-8"))["summary"]["failed"] == 3


def test_plain_summary_names_the_problems():
    report = _report({IDS[0]: "pass", IDS[1]: "fail"})
    text = render_summary(report, "out")
    assert text.startswith("NOT CERTIFIED") and f"FAIL {IDS[1]}: boom" in text
    assert "replay: python -m conformance replay" in text


def test_schemas_have_ids():
    for name in ("report", "counterexample"):
        from conformance.report.validation import schema

        assert schema(name)["$id"].startswith("https://")


def test_write_report_is_valid_json_for_the_shipped_schema(tmp_path):
    report = _report({IDS[0]: "pass"})
    write_report(report, [], tmp_path)
    validate("report", json.loads(Path(tmp_path / "report.json").read_text("utf-8")))


def test_a_requirement_not_checkable_here_makes_the_run_partial(monkeypatch):
    from conformance.engines import InProcessEngine
    from conformance.model import SuiteContext
    from conformance.runner import run_requirement
    from conformance.state import strace
    from selftest.reference_engine import REFERENCE_FACTORY

    monkeypatch.setattr(strace, "available", lambda: None)
    engine = InProcessEngine(REFERENCE_FACTORY)
    req = REGISTRY["STATE-EIO-002"]
    outcome = run_requirement(req, engine, SuiteContext.from_engine(engine), CI)
    assert outcome.verdict == "not-claimed"
    assert outcome.message.startswith("not checkable here: strace is not available")
    assert outcome.details and "strace" in outcome.details["not_checkable"]
    report = build_report(
        [(req, outcome)], hello=HELLO, engine="./fake", profile=CI, expected=ExpectedFailures({})
    )
    assert report["summary"]["verdict"] == "partial" and not report["summary"]["certified"]
    assert any("STATE-EIO-002" in item for item in report["scope"]["left_out"])
    assert "Not a certification" in render_certificate(report)


def test_a_lone_surrogate_in_a_message_is_written_as_its_escape(tmp_path):
    """A failure quoting a lone surrogate (from a request or an engine's answer) is text in
    every report: report.json, junit.xml and the certificate are written and hold its escape."""
    outcome = Outcome(IDS[0], "fail", examples=1, message="engine said 'a\ud800b'")
    report = build_report(
        [(REGISTRY[IDS[0]], outcome)],
        hello=HELLO,
        engine="./fake",
        profile=CI,
        expected=ExpectedFailures({}),
    )
    assert write_report(report, [(REGISTRY[IDS[0]], outcome)], tmp_path) == []
    assert "a\\ud800b" in report["results"][0]["message"]
    assert "a\\ud800b" in (tmp_path / "junit.xml").read_text("utf-8")
