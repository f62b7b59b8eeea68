"""The golden tree is exactly what the last ratification recorded: no missing, no unused."""

from __future__ import annotations

from tools.cognition import REGISTERS, load_cases
from tools.golden import LEDGER, golden_files, ledger, tree_digest

HOW = "ratify with: nox -s golden -- --ratify ID --reason TEXT"


def test_every_case_has_a_snapshot_and_nothing_else_is_there():
    expected = {f"{r}/{case.id}.json" for r in REGISTERS for case in load_cases("public")}
    present = set(golden_files())
    assert sorted(expected - present) == [], f"missing snapshots; {HOW}"
    assert sorted(present - expected) == [], f"unused snapshots; {HOW}"


def test_tree_digest_matches_the_last_ratification():
    entries = ledger()
    assert entries, f"{LEDGER.name} is empty; {HOW}"
    assert entries[-1]["tree_digest"] == tree_digest(), (
        f"golden/ differs from ratification {entries[-1]['id']}; {HOW}"
    )


def test_ledger_entries_are_complete_and_ids_unique():
    entries = ledger()
    assert len({e["id"] for e in entries}) == len(entries)
    for entry in entries:
        assert set(entry) == {"id", "reason", "date", "tree_digest", "files", "changed"}
        assert entry["reason"].strip()
        assert set(entry["changed"]) == {"added", "modified", "removed"}
