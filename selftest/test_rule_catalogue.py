"""The rule catalogue names every rule, and leaving out any one entry of forms.json is caught.

One broken engine per entry of forms.json (``selftest/mutants/rule_deletions.py``): each
must fail ``COG-RULE-001``, except the entries in ``OVERLAPPED``, which another form reads
the same way on every prompt tried (each with the case that shows it).
"""

from __future__ import annotations

import pytest

from conformance import rules
from selftest.checks import caught, run_in_process
from selftest.engines import broken_engine
from selftest.mutants.rule_deletions import form_ids, without

OVERLAPPED = {
    "F-008": "`you remember A` (F-009) reads `do you remember what I said about A` alike",
    "F-013": "`recall A` (F-014) reads `recall what I said about A` alike",
    "F-035": "`explain A as B` (F-020) covers `explain A using B as an image` first",
    "F-047": "`A differs from B` (F-051) reads `how A differs from B` alike",
    "F-056": "`which ...: A or B` (F-061) reads `which lasts longer, A or B` alike",
    "F-059": "`which ...: A or B` (F-061) reads `which is older: A or B` alike",
    "F-128": "the EXAMPLE cue reads `some samples of A` alike",
    "F-148": "`is this true: A` is read alike by the yes/no question form (F-151)",
    "F-149": "`do you agree that A` is read alike by the yes/no question form (F-151)",
    "F-159": "the NARRATIVE cue reads `a tale of A` alike",
    "F-171": "`recount/summarise A` (F-154) covers `summarise the tale of A` first",
}
"""Entries whose loss no prompt tried shows: another entry reads the same prompts alike."""

IDS = form_ids()


def test_the_catalogue_names_every_entry_of_forms_json() -> None:
    named = set(rules.rule_ids())
    assert set(IDS) <= named, f"not in the catalogue: {sorted(set(IDS) - named)}"
    assert len(named) == len(rules.rule_ids()), "a rule id is named twice"


def test_every_case_names_known_rules() -> None:
    named = set(rules.rule_ids())
    for case in rules.catalogue()["cases"]:
        assert case["rules"] and set(case["rules"]) <= named, case["id"]


@pytest.mark.parametrize("rule_id", [i for i in IDS if i not in OVERLAPPED])
def test_leaving_out_an_entry_is_caught(rule_id: str) -> None:
    broken = broken_engine(f"without_{rule_id}", without(rule_id), "COG-RULE-001")
    caught(broken, "COG-RULE-001", run_in_process(broken, "COG-RULE-001"))


@pytest.mark.parametrize("rule_id", sorted(OVERLAPPED))
def test_an_overlapped_entry_is_still_overlapped(rule_id: str) -> None:
    """When a case starts catching an overlapped entry, it leaves OVERLAPPED."""
    broken = broken_engine(f"without_{rule_id}", without(rule_id), "COG-RULE-001")
    assert run_in_process(broken, "COG-RULE-001").verdict == "pass"
