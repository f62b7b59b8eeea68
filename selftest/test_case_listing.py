"""Failures over many cases read one per line, worst first, capped with a count, every
kind of disagreement shown (conformance/cases.py; issue 27 § 5)."""

from __future__ import annotations

from conformance import cases
from conformance.cases import Disagreement, listing, readable


def _found() -> list[Disagreement]:
    stray = [
        Disagreement(f"c{i:02d}", f"intent 'X{i}', labeled 'Y'", "one turn") for i in range(20)
    ]
    decisive = [
        Disagreement(f"c{i}", "intent 'CORRECTION', labeled 'NARRATIVE'", "Now tell me", rank=2)
        for i in range(20, 26)
    ]
    return stray + decisive


def test_one_case_per_line_the_most_shared_kind_first() -> None:
    text = listing("26 of 77 cases disagree on intent:", _found(), cap=5)
    lines = text.splitlines()
    assert lines[0] == "26 of 77 cases disagree on intent:"
    assert "CORRECTION" in lines[1] and "[6 cases of this kind]" in lines[1]
    assert len(lines) == 1 + 5 + 1 and lines[-1] == "- ... and 21 more case(s), 16 more kind(s)"


def test_every_kind_leads_before_a_kind_repeats() -> None:
    text = listing("h", _found(), cap=30)
    lines = text.splitlines()[1:]
    assert len(lines) == 26
    kinds_first = lines[:21]
    assert len({line.split(": ", 1)[1].split(" (")[0] for line in kinds_first}) == 21


def test_plain_problems_keep_their_order_and_count() -> None:
    text = cases.lines([f"state {i}" for i in range(15)], cap=3)
    assert text.splitlines() == [
        "15 problem(s):",
        "- state 0",
        "- state 1",
        "- state 2",
        "- ... and 12 more",
    ]


def test_readable_keeps_whole_lines_and_counts_the_rest() -> None:
    message = "\n".join(f"line {i}" for i in range(30))
    shown = readable(message, max_lines=4)
    assert shown.splitlines() == [
        "line 0",
        "line 1",
        "line 2",
        "line 3",
        "  (26 more line(s) in report.json)",
    ]
