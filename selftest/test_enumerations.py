"""Dropping any one member of a closed list of docs/intents.md steps 2 to 7 and § Cue words
is caught.

One broken reader per member (``selftest/mutants/enumerations.py``): each end mark, dash,
abbreviation, word after a colon, belief opener and exclusion, and correction lead; each
typo target, contraction, wrapper and cue; and an end mark not followed by a space or a
hyphen or en dash not between spaces read as the end of a sentence. Each must fail
``COG-RULE-001`` on the cases ``python -m tools.enum_cases`` writes, one per member, while
the reference passes them (``selftest/test_rule_catalogue.py`` runs it).

``COG-RULE-001`` chats each case of the catalogue in a fresh session and fails when any one
breaks, so a broken reader that breaks some of the cases fails it on the whole catalogue:
each reader runs on its member's own cases first (:func:`own_cases`), then on every case
``tools.enum_cases`` writes, and only then on the whole catalogue. An overlapped member,
which must pass, runs on the whole catalogue.
"""

from __future__ import annotations

import pytest

from conformance import rules
from conformance.runner import Outcome
from selftest.checks import caught, run_in_process, run_on_scenario
from selftest.engines import BrokenEngine, broken_engine
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

CATALOGUE = rules.catalogue()["cases"]
WRITTEN = [
    case
    for case in CATALOGUE
    if any(low <= int(case["id"].split("-")[1]) < high for low, high in enum_cases.OWNED)
]
"""The catalogue cases ``tools.enum_cases`` writes (its id ranges)."""
MISSPELT = {target: typo for target, typo, *_ in enum_cases.TYPOS}


def own_cases(member: str) -> list[dict[str, object]]:
    """The catalogue cases whose prompt holds *member*'s text: the longest tail of its
    words after the list's name that some prompt holds (a typo target: its misspelling),
    compared in lower case; none when no prompt holds any."""
    kind, *words = member.split()
    tails = [MISSPELT.get(words[-1], "")] if kind == "typo" else []
    tails += [" ".join(words[i:]) for i in range(len(words))]
    for tail in filter(None, tails):
        found = [c for c in CATALOGUE if any(tail in turn.lower() for turn in c["turns"])]
        if found:
            return found
    return []


def rule_catalogue_fails(broken: BrokenEngine, member: str) -> Outcome:
    """``COG-RULE-001`` on *broken*: the outcome on *member*'s own cases if it fails there,
    else on the cases ``tools.enum_cases`` writes if it fails there, else on the whole
    catalogue."""
    for cases in (own_cases(member), WRITTEN):
        if cases:
            outcome = run_on_scenario(broken, "COG-RULE-001", cases)
            if outcome.verdict != "pass":
                return outcome
    return run_in_process(broken, "COG-RULE-001")


def test_the_catalogue_holds_the_generated_cases() -> None:
    assert enum_cases.main(["--check"]) == 0


def test_every_drop_changes_the_list() -> None:
    for member, (_, old, new) in MEMBERS.items():
        assert old != new, member


@pytest.mark.parametrize("member", [m for m in DROPS if m not in OVERLAPPED])
def test_dropping_a_member_is_caught(member: str) -> None:
    broken = broken_engine(f"dropped_{member}", dropped(member), "COG-RULE-001")
    caught(broken, "COG-RULE-001", rule_catalogue_fails(broken, member))


@pytest.mark.parametrize("member", sorted(OVERLAPPED))
def test_an_overlapped_member_is_still_overlapped(member: str) -> None:
    """When a case starts catching an overlapped member, it leaves OVERLAPPED."""
    broken = broken_engine(f"dropped_{member}", dropped(member), "COG-RULE-001")
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"


_NO_FORM = "no form reads `{0} is`, and `{0}'s` reduces to the function word `{0}` (§ Subjects)"
_THEN_KNOW = "the wrapper `i {0} to` (step 7), then `know` before a question word, is dropped alike"
_ALL_FUNCTION_WORDS = (
    "every word is a function word and no cue reads it: without the form the sentence is "
    "UNKNOWN without a subject all the same"
)
_INTERJECTION_FIRST = (
    "`{0}` is an interjection step 7 drops before any form is tried, and `there` alone is "
    "UNKNOWN without a subject all the same"
)
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
    **{
        f"small talk {alternative}": _ALL_FUNCTION_WORDS
        for alternative in (
            "thank you(?: so much| very much)?",
            "thanks(?: a lot| so much)?",
            "how do you do",
            "who are you",
            "where are you from",
            "what can you do",
        )
    },
    **{
        f"small talk {word} there": _INTERJECTION_FIRST.format(word)
        for word in ("hello", "hi", "hey")
    },
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
    caught(broken, "COG-RULE-001", rule_catalogue_fails(broken, member))


@pytest.mark.parametrize("member", sorted(OVERLAPPED_SWAPS))
def test_a_further_overlapped_member_is_still_overlapped(member: str) -> None:
    """When a case starts catching an overlapped member, it leaves OVERLAPPED_SWAPS."""
    broken = broken_engine(f"swapped_{member}", swapped(member), "COG-RULE-001")
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"
