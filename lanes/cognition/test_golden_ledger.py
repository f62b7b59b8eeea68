"""The golden tree is exactly what the last ratification recorded: no missing, no unused."""

from __future__ import annotations

from lanes._support.cognition import REGISTERS, load_cases
from lanes._support.golden import (
    LEDGER,
    SEALED_HOLDOUTS,
    golden_files,
    holdout_digests,
    ledger,
    sealed_holdouts,
    tree_digest,
)

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
        required = {"id", "reason", "date", "tree_digest", "files", "changed"}
        assert required <= set(entry) <= required | {"holdouts"}
        assert entry["reason"].strip()
        assert set(entry["changed"]) == {"added", "modified", "removed"}


def test_holdouts_are_exactly_what_the_last_ratification_sealed():
    sealed = sealed_holdouts()
    assert sealed is not None, f"no ratification seals the holdouts; {HOW}"
    assert sorted(sealed) == sorted(SEALED_HOLDOUTS)
    changed = sorted(name for name, digest in holdout_digests().items() if sealed[name] != digest)
    assert changed == [], f"holdout case sets changed since they were sealed; {HOW}"
