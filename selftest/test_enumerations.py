"""Dropping any one member of a closed list of docs/intents.md steps 2 to 7 and § Cue words
is caught.

One broken reader per member (``selftest/mutants/enumerations.py``): each end mark, dash,
abbreviation, word after a colon, belief opener and exclusion, and correction lead; each
typo target, contraction, wrapper and cue; and an end mark not followed by a space or a
hyphen or en dash not between spaces read as the end of a sentence. Each must fail
``COG-RULE-001`` on the cases ``python -m tools.enum_cases`` writes, one per member, while
the reference passes them (``selftest/test_rule_catalogue.py`` runs it).
"""

from __future__ import annotations

import pytest

from selftest.checks import caught, run_in_process
from selftest.engines import broken_engine
from selftest.mutants.enumerations import ABBREVIATIONS, MEMBERS, SWAPS, dropped, swapped
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


_NO_FORM = "no form reads `{0} is`, and `{0}'s` reduces to the function word `{0}` (§ Subjects)"
_THEN_KNOW = "the wrapper `i {0} to` (step 7), then `know` before a question word, is dropped alike"
OVERLAPPED_SWAPS = {
    "contraction where's": _NO_FORM.format("where"),
    "contraction when's": _NO_FORM.format("when"),
    "contraction here's": _NO_FORM.format("here"),
    "contraction there's": _NO_FORM.format("there"),
    "wrapper you u": "step 3 spells `u` out as `you` before any wrapper is read",
    "wrapper wonder verb want to know": _THEN_KNOW.format("want"),
    "wrapper wonder verb would like to know": _THEN_KNOW.format("would like"),
    "wrapper wonder verb need to know": _THEN_KNOW.format("need"),
    "wrapper tell explain to": "`explain` (+ `to me`) before a question word is dropped alike",
    "wrapper anywhere please": "`please` is an interjection too (step 7), dropped alike",
    "wrapper correct me if i am wrong but": "`but` is an interjection (step 7), dropped alike",
    "wrapper belief that": "`that A is B` reads as `A is B`: `that` is a function word",
    "wrapper reporter that": "`that A is B` reads as `A is B`: `that` is a function word",
    **{
        f"generic agent {word}": f"`{word}` is a function word: going last shows nothing"
        for word in ("someone", "somebody", "anyone", "everyone")
    },
    "asked opening why": "the CAUSE form `why (A)` reads every sentence that opens with `why`",
    "cue C-06 for instance": (
        "the EXAMPLE form `for instance` (refers) reads every sentence holding it"
    ),
}
"""Further members whose loss no prompt can show: the docs' other rules read every prompt
alike."""


def test_every_swap_changes_the_reader() -> None:
    for member, (module, attribute, change) in SWAPS.items():
        kept = getattr(module, attribute)
        assert change(kept) != kept, member


@pytest.mark.parametrize("member", [m for m in SWAPS if m not in OVERLAPPED_SWAPS])
def test_dropping_a_further_member_is_caught(member: str) -> None:
    broken = broken_engine(f"swapped_{member}", swapped(member), "COG-RULE-001")
    caught(broken, "COG-RULE-001", run_in_process(broken, "COG-RULE-001"))


@pytest.mark.parametrize("member", sorted(OVERLAPPED_SWAPS))
def test_a_further_overlapped_member_is_still_overlapped(member: str) -> None:
    """When a case starts catching an overlapped member, it leaves OVERLAPPED_SWAPS."""
    broken = broken_engine(f"swapped_{member}", swapped(member), "COG-RULE-001")
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"
