"""docs/orderings.json (tools/orderings.py): every order docs/ states is mapped, and every
pair of an order of checks is covered by a case, free, unreachable or counted open."""

from __future__ import annotations

from tools import orderings


def test_every_stated_order_is_mapped_and_every_pair_accounted_for() -> None:
    problems = orderings.problems(orderings.load(), orderings.units(), orderings.requirement_cases)
    assert not problems, "\n".join(problems)


def test_a_new_ordering_sentence_is_unmapped() -> None:
    text = "## A\n\nThe engine checks the name first, then the value.\n\nNo order here.\n"
    (unit,) = orderings.stated("x.md", text)
    inventory = {"open_pairs_allowed": 0, "sections": {}, "pairs": {}}
    problems = orderings.problems(inventory, [unit], orderings.requirement_cases)
    assert problems == [f"unmapped order {unit.key} (x.md § A): {unit.text}"]
    assert orderings.add_unreviewed(inventory, [unit]) == [unit.key]
    assert inventory["sections"]["x.md § A"]["checked_by"] == orderings.UNMAPPED
    problems = orderings.problems(inventory, [unit], orderings.requirement_cases)
    assert any(p.startswith("unreviewed order") for p in problems)
    assert any("'unmapped' is neither" in p for p in problems)


def test_a_new_numbered_list_is_found_once() -> None:
    text = "## Steps\n\n1. check the name\n2. check the value\n\n```\n1. fenced\n```\n"
    (unit,) = orderings.stated("x.md", text)
    assert unit.key.endswith("#list") and unit.section == "Steps"


def test_pairs_are_every_pair_of_the_checks_in_order() -> None:
    order = {"checks": ["a", "b", "c"], "within": {"x < y": "open"}}
    assert orderings.enumerate_pairs(order) == ["a < b", "a < c", "b < c", "x < y"]


def test_a_pair_citing_a_case_its_requirement_lacks_fails() -> None:
    inventory = {
        "open_pairs_allowed": 0,
        "sections": {},
        "pairs": {"O-10": {"checks": ["a", "b"], "pairs": {"a < b": "PROTO-ORDER-001: nope"}}},
    }
    problems = orderings.problems(inventory, [], orderings.requirement_cases)
    assert problems == ["O-10 a < b: PROTO-ORDER-001 has no case 'nope'"]
