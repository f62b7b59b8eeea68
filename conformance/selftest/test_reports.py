"""Reports: summary arithmetic, expected failures, digests, certificate, JUnit and diff."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conformance.report.certificate import render_certificate
from conformance.report.diff import diff_reports, render_diff
from conformance.report.expected import ExpectedFailures, ExpectedFailuresError
from conformance.report.junit import render_junit
from conformance.report.model import build_report
from conformance.requirements import REGISTRY
from conformance.runner import PROFILES, Outcome

IDS = sorted(REGISTRY)[:5]
HELLO = {"protocol": "core-engine/1", "engine": {"name": "fake", "version": "1"}}


def _report(verdicts: dict[str, str], expected: dict[str, str] | None = None, ms: int = 5):
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
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["certified"]
    assert {p.name for p in (tmp_path / "out").iterdir()} >= {
        "report.json",
        "certificate.md",
        "junit.xml",
    }
    xfail = tmp_path / "xfail.json"
    xfail.write_text(json.dumps([{"id": "PROTO-HELLO-001", "reason": "test"}]), encoding="utf-8")
    assert _certify(tmp_path, "--xfail", str(xfail)).returncode == 1
    bad = _certify(tmp_path, "--id", "NOPE-NOPE-001")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
