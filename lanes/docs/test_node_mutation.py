"""The Node mutation harness's data: the reach map, the reviews and the recorded figures."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.requirements import REGISTRY
from selftest.mutation import node_reach
from tools import nodefigures

PORT = Path(__file__).resolve().parents[2] / "ports" / "node"
FREE_KINDS = ("equivalent", "unreachable", "not normative FREE-")


def test_every_file_of_the_port_has_families() -> None:
    files = [PORT / "engine.js", *sorted((PORT / "lib").rglob("*.js"))]
    missing = [p.relative_to(PORT).as_posix() for p in files]
    assert [f for f in missing if f not in node_reach.REACH] == []


def test_every_prefix_selects_a_requirement() -> None:
    given = {p.lstrip("!") for prefixes in node_reach.REACH.values() for p in prefixes}
    empty = {p for p in given if not node_reach.select(REGISTRY, [p], {})}
    assert empty == set()


def test_selection_is_cheapest_first() -> None:
    cost = {"A-1": 30, "A-2": 10}
    assert node_reach.select(["A-1", "A-2", "A-3", "B-1"], ["A-"], cost) == ["A-2", "A-1", "A-3"]


def test_expand_turns_reach_into_ids() -> None:
    argv = node_reach.expand(["certify", node_reach.MARK, "LOAD-ID-001"])
    assert argv == ["certify", "--id", "LOAD-ID-001"]


def test_reviews_are_well_formed_and_name_recorded_survivors() -> None:
    reviews = nodefigures.reviews()
    assert all(kind.startswith(FREE_KINDS) for kind in reviews.values())
    runs = json.loads(nodefigures.FIGURES.read_text("utf-8"))["runs"]
    survivors = {s["key"] for run in runs for s in run["survivors"]}
    assert sorted(set(reviews) - survivors) == []


def test_a_rerun_kills_survivors_by_key_and_count() -> None:
    """Two survivors sharing a key, one killed by the rerun: one kill, one survivor kept; a
    key the rerun did not run keeps its survivor."""
    shared = {
        "key": "lib/x.js:3:4 ConditionalExpression",
        "status": "Survived",
        "replacement": "true",
    }
    other = {"key": "lib/x.js:9:1 StringLiteral", "status": "Survived", "replacement": '""'}
    after = [dict(shared)]
    killed = nodefigures._killed_on_rerun(
        [dict(shared), dict(shared), dict(other)], after, {shared["key"]}
    )
    assert killed == [shared]
