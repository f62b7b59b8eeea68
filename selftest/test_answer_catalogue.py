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


def test_says_members_are_the_documented_ones() -> None:
    """docs/intents.md's table of ``says``, the schema and the suite name the same members."""
    import json
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "intents.md").read_text(encoding="utf-8")
    section = doc[doc.index("### What an answer says") : doc.index("## Rule ids")]
    documented = sorted(re.findall(r"^\| `([a-z]+)` \|", section, re.MULTILINE))
    schema_path = root / "conformance" / "protocol" / "schemas" / "result.session.chat.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    required = sorted(schema["properties"]["says"]["required"])
    assert documented == required == list(answer_rules.SAYS_MEMBERS)
