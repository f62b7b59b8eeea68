"""Dropping any one member of a closed list of docs/intents.md steps 5 and 6 is caught.

One broken reader per member (``selftest/mutants/enumerations.py``): each end mark, dash,
abbreviation, word after a colon, belief opener and exclusion, and correction lead. Each
must fail ``COG-RULE-001`` on the cases ``python -m tools.enum_cases`` writes, one per
member, while the reference passes them (``selftest/test_rule_catalogue.py`` runs it).
"""

from __future__ import annotations

import pytest

from selftest.checks import caught, run_in_process
from selftest.engines import broken_engine
from selftest.mutants.enumerations import ABBREVIATIONS, MEMBERS, dropped
from tools import enum_cases

_UNWRAPPED = "`i think` is a belief wrapper (step 7), then `you {} {}` is a lead"
OVERLAPPED = {
    "lead think you are": _UNWRAPPED.format("are", "wrong"),
    "lead think you were": _UNWRAPPED.format("were", "wrong"),
    "lead think you wrong": _UNWRAPPED.format("are", "wrong"),
    "lead think you mistaken": _UNWRAPPED.format("were", "mistaken"),
    "lead got subject i think you": _UNWRAPPED.format("have got", "that all backwards"),
}
"""Members whose loss no prompt can show: the docs' other rules read every prompt alike."""

DROPS = [*MEMBERS, *(f"abbreviation {word}" for word in ABBREVIATIONS)]


def test_the_catalogue_holds_the_generated_cases() -> None:
    assert enum_cases.main(["--check"]) == 0


def test_every_drop_changes_the_list() -> None:
    for member, (_, old, new) in MEMBERS.items():
        assert old != new, member


@pytest.mark.parametrize("member", [m for m in DROPS if m not in OVERLAPPED])
def test_dropping_a_member_is_caught(member: str) -> None:
    broken = broken_engine(f"dropped_{member}", dropped(member), "COG-RULE-001")
    caught(broken, "COG-RULE-001", run_in_process(broken, "COG-RULE-001"))


@pytest.mark.parametrize("member", sorted(OVERLAPPED))
def test_an_overlapped_member_is_still_overlapped(member: str) -> None:
    """When a case starts catching an overlapped member, it leaves OVERLAPPED."""
    broken = broken_engine(f"dropped_{member}", dropped(member), "COG-RULE-001")
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"
