"""Budgeted certification: a plan that fits the budget, and PARTIAL where examples fell short."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from campaign_helpers import conformance, id_args, read_report

from conformance.budget import BudgetError, Planner, parse_budget, plan_examples

SLOW_ENGINE = Path(__file__).resolve().parents[2] / "selftest/programs/slow_engine.py"


def test_plan_shares_the_budget_fairly_and_never_exceeds_what_is_asked():
    per_example = {"A": 0.1, "B": 1.0, "C": 10.0}
    asked = {"A": 25, "B": 25, "C": 25}
    assert plan_examples(30.0, per_example, asked) == {"A": 25, "B": 13, "C": 1}
    assert plan_examples(1000.0, per_example, asked) == asked
    assert plan_examples(0.5, per_example, asked) == {"A": 1, "B": 1, "C": 1}
    plan = plan_examples(30.0, per_example, asked)
    assert sum(plan[i] * per_example[i] for i in plan if plan[i] > 1) <= 30.0


def test_runs_slower_than_calibration_shrink_the_next_shares():
    planner = Planner(remaining_s=40.0)
    assert planner.examples(2, 1.0, 25) == 20
    planner.record(seconds=30.0, seconds_per_example=1.0, count=10)
    assert planner.inflation == 3.0 and planner.remaining_s == 10.0
    assert planner.examples(1, 1.0, 25) == 3
    assert planner.examples(1, 5.0, 25) == 1


@pytest.mark.parametrize("text, seconds", [("90", 90), ("90s", 90), ("10m", 600), ("1.5h", 5400)])
def test_budgets_read_as_durations(text, seconds):
    assert parse_budget(text) == seconds


@pytest.mark.parametrize("text", ["", "0", "-5m", "10 minutes", "m"])
def test_bad_budgets_are_refused(text):
    with pytest.raises(BudgetError, match="--budget"):
        parse_budget(text)


SLEEP_MS = 20
"""What the slow engine sleeps before each response; calibration must measure at least this."""


def test_a_slow_engine_gets_a_partial_run_with_examples_per_requirement(tmp_path):
    engine = shlex.join([sys.executable, str(SLOW_ENGINE), str(SLEEP_MS / 1000)])
    ids = ("PROTO-HELLO-001", "VAR-SELECT-001", "VAR-CHAT-001", "OVR-RESOLVE-001")
    out = tmp_path / "budget"
    done = conformance(
        "certify",
        "--quiet",
        "--engine",
        engine,
        "--budget",
        "2s",
        "--report",
        str(out),
        *id_args(ids),
    )
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    report = read_report(out)
    budget = report["budget"]
    rows = {row["id"]: row for row in budget["requirements"]}
    assert sorted(rows) == sorted(ids)
    assert all(r["verdict"] == "pass" for r in report["results"])
    assert rows["PROTO-HELLO-001"]["asked"] == rows["PROTO-HELLO-001"]["examples"] == 1
    short = [i for i, row in rows.items() if row["planned"] < row["asked"]]
    assert short and budget["partial"] == sorted(short, key=list(ids).index)
    assert all(1 <= row["planned"] <= row["asked"] for row in rows.values())
    assert rows["VAR-CHAT-001"]["coverage_cases"] > 0
    for row in rows.values():
        assert row["examples"] == row["coverage_cases"] + row["planned"], row
    assert report["summary"]["partial"] and not report["summary"]["certified"]
    assert budget["cost_per_op_ms"] >= SLEEP_MS
    certificate = (out / "certificate.md").read_text(encoding="utf-8")
    assert "**PARTIAL**" in certificate
