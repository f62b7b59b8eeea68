"""Budgeted certification: a wall-clock budget, every cut reported, planted defects still found."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from campaign_helpers import conformance, id_args, read_report

from conformance.budget import BudgetError, parse_budget
from conformance.case_value import by_value
from conformance.coverage import Case
from conformance.report.validation import validate
from conformance.stopping import Deadline

SLOW_ENGINE = Path(__file__).resolve().parents[2] / "selftest/programs/slow_engine.py"


def case(*classes: str, turns: int = 1) -> Case:
    return Case(["turn"] * turns, tuple(("lemmas", c) for c in classes))


def test_coverage_cases_are_taken_by_new_classes_per_request():
    cases = [
        case("a", "b", turns=12),
        case("a"),
        case("c", "d", "e"),
        case("b", "f", turns=2),
        case("a", "c"),
    ]
    order = by_value(cases)
    assert order[:2] == [2, 1]  # three new classes in one request, then one in one
    assert order[2] == 3  # b and f in two requests beat b alone in twelve
    assert order[3:] == [0, 4]  # no new class left: the rest in plan order
    assert sorted(order) == list(range(len(cases)))


def test_a_deadline_stops_no_run_before_its_first_request():
    assert not Deadline().passed() and Deadline().left() == float("inf")
    gone = Deadline(0.0)
    assert gone.passed() and gone.left() == 0.0
    assert Deadline.after(60).sooner(gone) is gone and gone.sooner(Deadline()) is gone


@pytest.mark.parametrize("text, seconds", [("90", 90), ("90s", 90), ("10m", 600), ("1.5h", 5400)])
def test_budgets_read_as_durations(text, seconds):
    assert parse_budget(text) == seconds


@pytest.mark.parametrize("text", ["", "0", "-5m", "10 minutes", "m"])
def test_bad_budgets_are_refused(text):
    with pytest.raises(BudgetError, match="--budget"):
        parse_budget(text)


SLEEP_MS = 20
"""What the slow engine sleeps before each response."""


def test_a_slow_engine_is_cut_by_the_budget_and_every_cut_is_reported(tmp_path):
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
    validate("report", report)
    budget = report["budget"]
    rows = {row["id"]: row for row in budget["requirements"]}
    assert sorted(rows) == sorted(ids)
    assert all(r["verdict"] == "pass" for r in report["results"])
    assert all(row["ran"] or row["cut"] for row in rows.values())
    hello = rows["PROTO-HELLO-001"]
    assert hello["asked"] == 1 and (hello["cut"] or hello["examples"] == 1)
    assert rows["VAR-CHAT-001"]["coverage_total"] > 0
    for row in rows.values():
        assert row["coverage_cases"] <= row["coverage_total"], row
        assert row["examples"] >= row["coverage_cases"], row
    scope = report["scope"]
    assert scope["ended"] == "budget" and not scope["complete"]
    cut = budget["cut"] + budget["not_run"]
    assert cut and sorted(scope["thin"]) == sorted(budget["cut"])
    said = "\n".join(scope["left_out"])
    assert all(req_id in said for req_id in cut)
    assert report["summary"]["verdict"] == "partial" and not report["summary"]["certified"]
    certificate = (out / "certificate.md").read_text(encoding="utf-8")
    assert "**PARTIAL**" in certificate and "the budget" in certificate


PLANTED = {"VAR-CHAT-001": "seeding", "REG-INV-003": "invariant C"}


def test_a_slow_engine_with_planted_defects_fails_each_under_its_own_id(tmp_path):
    """The slow self-test engine (a delay before every chat turn) with a planted seeding
    defect and a planted invariant-C defect: the budget cuts the run, and both defects
    are still reported, each under its own id (docs/benchmarks.md has the 5-minute run)."""
    engine = shlex.join([sys.executable, str(SLOW_ENGINE), "0", "--chat", "0.01", "--planted"])
    ids = (*PLANTED, "PROTO-HELLO-001", "VAR-SELECT-002", "OVR-RESOLVE-001", "REG-INV-001")
    out = tmp_path / "planted"
    done = conformance(
        "certify",
        "--quiet",
        "--engine",
        engine,
        "--budget",
        "20s",
        "--timeout",
        "60",
        "--report",
        str(out),
        *id_args(ids),
    )
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    report = read_report(out)
    validate("report", report)
    failed = {r["id"] for r in report["results"] if r["outcome"] == "fail"}
    assert failed == set(PLANTED), report["summary"]
    assert not report["scope"]["complete"] and report["scope"]["ended"] == "budget"
    for req_id in PLANTED:
        assert (out / "counterexamples" / f"{req_id}.json").is_file()
