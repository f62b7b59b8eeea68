"""The edge catalogue is up to date and well formed. Each broken reader of
selftest/mutants/edges.py is in _TABLE of selftest/engines.py, so
selftest/test_broken_engines.py checks it fails COG-EDGE-001 while the reference passes."""

from __future__ import annotations

from conformance import answer_rules, edges, rules
from selftest.engines import BROKEN
from selftest.mutants.edges import EDGE_MUTANTS, SAYS_MUTANTS
from tools import edge_cases


def test_the_edges_file_is_written_by_the_tool() -> None:
    assert edge_cases.main(["--check"]) == 0


def test_every_edge_names_a_class_a_known_rule_and_its_sentence() -> None:
    data = edges.catalogue()
    named = set(rules.rule_ids()) | {r["id"] for r in answer_rules.catalogue()["rules"]}
    for case in data["cases"]:
        assert case["class"] in data["classes"], case["id"]
        assert case["rules"] and set(case["rules"]) <= named, case["id"]
        assert case["doc"].startswith("docs/") and case["edge"], case["id"]
    assert {c["class"] for c in data["cases"]} == set(data["classes"])


def test_every_edge_mutant_is_in_the_table() -> None:
    for name, _ in EDGE_MUTANTS:
        assert BROKEN[name].catches == ("COG-EDGE-001",), name
    for name, _ in SAYS_MUTANTS:
        assert BROKEN[name].catches == ("COG-EDGE-002",), name
