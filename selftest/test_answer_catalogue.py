"""The answer catalogue is well formed: unique ids, every rule exercised by a case, every
case naming known rules and fixing only members of ``says`` (docs/intents.md)."""

from __future__ import annotations

from conformance import answer_rules


def test_ids_are_unique_and_every_rule_has_a_case() -> None:
    data = answer_rules.catalogue()
    rule_ids = [rule["id"] for rule in data["rules"]]
    case_ids = [case["id"] for case in data["cases"]]
    assert len(set(rule_ids)) == len(rule_ids)
    assert len(set(case_ids)) == len(case_ids)
    used = {rule for case in data["cases"] for rule in case["rules"]}
    assert used == set(rule_ids), (sorted(used - set(rule_ids)), sorted(set(rule_ids) - used))


def test_every_rule_names_its_sentence_and_every_case_fixes_says_members() -> None:
    data = answer_rules.catalogue()
    assert all(rule["rule"].startswith("docs/") for rule in data["rules"])
    for case in data["cases"]:
        assert case["turns"] and case["says"], case["id"]
        assert set(case["says"]) <= set(answer_rules.SAYS_MEMBERS), case["id"]
        assert answer_rules.case(case["id"]) == case
