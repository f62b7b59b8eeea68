"""The messages a user reads: the headline, the certificate's title, why a run is partial,
errors that name the option, campaigns that fail to start, install hints (issue 28)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance import cli
from conformance.budget import budget_scope
from conformance.campaign import run as campaign_run
from conformance.campaign.plan import CampaignError, CampaignSpec
from conformance.campaign.store import SPEC_FILE, CampaignStore
from conformance.report.certificate import headline
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.report.terminal import render_summary
from conformance.requirements import REGISTRY
from conformance.runner import PROFILES, Outcome

IDS = sorted(REGISTRY)[:3]
HELLO = {"protocol": "core-engine/1", "engine": {"name": "fake", "version": "1"}}


def _report(verdicts: dict[str, str], expected: dict[str, str] | None = None, **extra):
    pairs = [
        (REGISTRY[i], Outcome(i, v, examples=2, duration_ms=1, message=""))
        for i, v in verdicts.items()
    ]
    return build_report(
        pairs,
        hello=HELLO,
        engine="./fake",
        profile=PROFILES["ci"],
        expected=ExpectedFailures(expected or {}),
        **extra,
    )


def _plain(report) -> str:
    return headline(report).replace("**", "")


def test_expected_failures_that_pass_are_counted_as_passing():
    report = _report(dict.fromkeys(IDS, "pass"), expected={IDS[1]: "r", IDS[2]: "r"})
    line = _plain(report)
    assert line.startswith("NOT CERTIFIED: 3 of 3 claimed requirements pass, 2 of them listed")
    assert "remove them from the expected-failures file" in line


def test_a_whole_run_does_not_read_as_a_contradiction():
    scope = {"complete": True, "left_out": [], "not_run": []}
    report = _report({IDS[0]: "pass", IDS[1]: "not-claimed", IDS[2]: "xfail"}, scope=scope)
    line = _plain(report)
    assert "ran" not in line and "of 3 in the suite" not in line
    assert "the engine claims 2 of the suite's 3 requirements" in line


def test_a_selection_says_what_it_checked():
    scope = {"complete": False, "left_out": ["only 1"], "not_run": sorted(REGISTRY)[1:]}
    line = _plain(_report({IDS[0]: "pass"}, scope=scope))
    assert f"this run checked 1 of the suite's {len(REGISTRY)} requirements" in line


def test_an_unavailable_engine_certificate_is_titled_by_its_command(tmp_path):
    missing = str(tmp_path / "no-such-engine")
    status = cli.main(["certify", "--engine", missing, "--report", str(tmp_path / "out")])
    assert status == cli.EXIT_ENGINE
    title = (tmp_path / "out" / "certificate.md").read_text(encoding="utf-8").splitlines()[0]
    assert title == f"# Conformance certificate: `{missing}`"


def test_a_budgeted_partial_run_says_why_on_the_terminal():
    rows = [
        {"id": IDS[0], "ran": True, "cut": True, "coverage_total": 0, "coverage_cases": 0,
         "examples": 2, "asked": 25},
        {"id": IDS[1], "ran": False, "cut": False, "coverage_total": 0, "coverage_cases": 0,
         "examples": 0, "asked": 25},
    ]  # fmt: skip
    scope = budget_scope([REGISTRY[i] for i in IDS], rows, [IDS[0]])
    report = _report({IDS[0]: "pass"}, scope=scope)
    text = render_summary(report, "out")
    assert text.startswith("PARTIAL")
    assert f"the budget cut 1 requirements short: {IDS[0]} (examples 2 of 25)" in text
    assert f"the budget ended before 1 requirements ran: {IDS[1]}" in text


def test_durations_from_errors_name_the_option(tmp_path, capsys):
    path = tmp_path / "report.json"
    path.write_text('{"results": 3}', encoding="utf-8")
    status = cli.main(["certify", "--durations-from", str(path), "--report", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and err.startswith(f"error: --durations-from {path}: ")


def test_a_campaign_that_fails_to_start_leaves_nothing_behind(tmp_path, monkeypatch):
    def no_cluster(*_args, **_kwargs):
        raise CampaignError("--scheduler tcp://nowhere: cannot connect")

    monkeypatch.setattr(campaign_run, "connect", no_cluster)
    spec = CampaignSpec(engines=({"command": "./a"},), requirements=(IDS[0],))
    root = tmp_path / "campaign"
    with pytest.raises(CampaignError):
        campaign_run.run_campaign(spec, root)
    assert not (root / SPEC_FILE).exists()
    other = CampaignSpec(engines=({"command": "./b"},), requirements=(IDS[0],))
    assert CampaignStore(root).open(other) is True


def test_without_dask_a_campaign_writes_nothing_and_the_hint_works_from_a_checkout(
    tmp_path, monkeypatch
):
    def missing():
        raise CampaignError(
            "campaigns need dask.distributed; from a checkout: pip install -e '.[campaign]'"
        )

    monkeypatch.setattr(campaign_run, "_dask", missing)
    spec = CampaignSpec(engines=({"command": "./a"},), requirements=(IDS[0],))
    with pytest.raises(CampaignError):
        campaign_run.run_campaign(spec, tmp_path / "c")
    assert not (tmp_path / "c").exists()


def test_the_dask_install_hint_works_from_a_checkout(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(CampaignError) as caught:
        campaign_run._dask()
    assert "from a checkout: pip install -e '.[campaign]'" in str(caught.value)
    pyproject = Path(__file__).parents[1] / "pyproject.toml"
    assert "\ncampaign = [" in pyproject.read_text(encoding="utf-8")


def test_the_console_script_sits_beside_core_reference():
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'conformance = "conformance.entry:main"' in pyproject
    assert 'core-reference = "reference.cli:main"' in pyproject


def test_merge_names_the_shard_file(tmp_path, capsys):
    shard = tmp_path / "s1"
    shard.mkdir()
    (shard / "report.json").write_text(json.dumps({"format": 1}), encoding="utf-8")
    status = cli.main(["merge", str(shard), "--report", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and err.startswith(f"error: {shard / 'report.json'}: ")
    assert len(err.splitlines()) == 1
