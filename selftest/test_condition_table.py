"""The condition table (``conformance/data/cognition/conditions.json``) is well formed, every
row with cases reaches MC/DC, and the broken engines of ``selftest/mutants/conditions.py``
(one atom of one row narrowed, widened, inverted or dropped) are in the table.

Those engines are checked with the others by ``selftest/test_broken_engines.py``.
"""

from __future__ import annotations

import re

import pytest

from conformance import answer_rules, conditions, rules
from selftest.engines import BROKEN
from selftest.mutants.conditions import CONDITION_MUTANTS, ReferentTakesOverOnlyWhenRequest

LABELS = ("intent", "subject", "grounding_source", "says")
MUTATED_ROWS = 10
"""How many distinct rows the broken engines must mutate at least."""


def _rows() -> list[dict[str, object]]:
    return list(conditions.catalogue()["conditions"])


def test_rows_and_cases_are_well_formed() -> None:
    data = conditions.catalogue()
    known = set(rules.rule_ids()) | {r["id"] for r in answer_rules.catalogue()["rules"]}
    ids = [c["id"] for c in data["conditions"]]
    assert len(ids) == len(set(ids)), "a row id is used twice"
    for row in data["conditions"]:
        assert row["sentences"] and row["atoms"], row["id"]
        assert set(row["rules"]) <= known, (row["id"], set(row["rules"]) - known)
        names = set(re.findall(r"\b(?!and\b|or\b|not\b)[a-z]\b", row["expression"]))
        assert names == set(row["atoms"]), (row["id"], row["expression"])
    by_id = {c["id"]: c for c in data["conditions"]}
    cases = [c["id"] for c in data["cases"]]
    assert len(cases) == len(set(cases)), "a case id is used twice"
    for case in data["cases"]:
        row = by_id[case["condition"]]
        assert set(case["values"]) == set(row["atoms"]), case["id"]
        assert any(label in case for label in LABELS), case["id"]
        conditions.evaluate(row["expression"], case["values"])


@pytest.mark.parametrize("row", _rows(), ids=lambda row: str(row["id"]))
def test_a_row_with_cases_reaches_mcdc(row: dict[str, object]) -> None:
    """Within the cases of one requirement: a pair split across the reading and ``says``
    would show an atom flipping to no single requirement."""
    cases = [c for c in conditions.catalogue()["cases"] if c["condition"] == row["id"]]
    if not cases:
        pytest.skip("a row whose cases are still to be written (counted uncovered)")
    reading = [c for c in cases if conditions.reads(c)]
    says = [c for c in cases if "says" in c]
    unflippable = row.get("unflippable", {})
    assert isinstance(unflippable, dict) and all(
        atom in row["atoms"] and str(reason).strip() for atom, reason in unflippable.items()
    ), (row["id"], "an unflippable atom names an atom of the row and says why")
    if unflippable:
        shown = set().union(
            *(conditions.independent_atoms(row, mine) for mine in (reading, says) if mine)
        )
        assert shown | set(unflippable) == set(row["atoms"]), (
            row["id"],
            "every atom not shown to flip the condition alone is named unflippable, with why",
        )
        return
    assert any(conditions.covered(row, mine) for mine in (reading, says) if mine), (
        row["id"],
        "MC/DC needs its pairs among the cases one requirement observes (reading or says)",
    )


def test_the_evaluator_reads_only_boolean_expressions() -> None:
    assert conditions.evaluate("a and (b or not c)", {"a": True, "b": False, "c": False})
    with pytest.raises(ValueError):
        conditions.evaluate("a + b", {"a": True, "b": True})
    with pytest.raises(ValueError):
        conditions.evaluate("a and z", {"a": True})


def test_every_condition_mutant_is_in_the_table() -> None:
    for name, _, req_id in CONDITION_MUTANTS:
        assert BROKEN[name].catches == (req_id,), name
    mutated = {
        re.match(r"(CD-\d+)", (factory.__doc__ or "").strip()).group(1)  # type: ignore[union-attr]
        for _, factory, _ in CONDITION_MUTANTS
    }
    assert len(mutated) >= MUTATED_ROWS, sorted(mutated)
    assert ReferentTakesOverOnlyWhenRequest in {f for _, f, _ in CONDITION_MUTANTS}
