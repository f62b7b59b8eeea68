"""``python -m tools.differential``: the two engines agree on a small fixed stream, and a
planted divergence (a broken engine against the reference) is reported and shrunk."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tools.differential.areas import AREAS
from tools.differential.compare import compare_case
from tools.differential.damage import damage
from tools.differential.engines import NODE, REFERENCE
from tools.differential.replay import Pair
from tools.differential.run import run
from tools.differential.shrink import shrink

HOST = f"{shlex.quote(sys.executable)} -m conformance.engines.host"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_reference_and_the_node_port_agree_on_a_small_fixed_stream() -> None:
    found, sent = run(7, 240, list(AREAS), REFERENCE, NODE)
    assert sent >= 240
    assert not found, [(d.op, d.member, d.stream) for d in found.values()]


def test_a_planted_divergence_is_reported_and_shrunk() -> None:
    broken = f"{HOST} selftest.engines:FlippedProductSign"
    found, _ = run(3, 60, ["algebra"], REFERENCE, broken)
    assert found, "a flipped product sign went unnoticed"
    for disagreement in found.values():
        assert disagreement.op.startswith("algebra."), disagreement.op
        assert len(disagreement.stream) == 1  # shrunk to the one request that shows it


def test_a_broken_reading_is_reported_on_its_member() -> None:
    """The Node port's old mistake (U+FEFF trimmed) against the fixed reference."""
    broken = f"{HOST} selftest.engines:JavaScriptTrimmed"
    pair = Pair(REFERENCE, broken)
    try:
        case = [
            {"id": 0, "op": "session.open", "args": {"register_id": "terse_v1"}},
            {"id": 1, "op": "session.chat", "args": {"session": {"$handle": 0}, "text": "Hi."}},
            {
                "id": 2,
                "op": "session.chat",
                "args": {"session": {"$handle": 0}, "text": "\ufeffIs bark a picture?"},
            },
        ]
        ra, rb = pair.answers(case)
        assert compare_case(case, ra, rb, {"rvid": True}) == (
            2,
            "session.chat",
            ".result.says.checked",
        )
        key = ("session.chat", ".result.says.checked")
        assert len(shrink(pair, case, {"rvid": True}, key)) == 2
    finally:
        pair.close()


def test_only_what_a_freedom_grants_is_dropped() -> None:
    request = {"id": 1, "op": "session.chat", "args": {"session": "s1", "text": "x"}}
    says = {"verdict": None, "said": []}
    a = {
        "id": 1,
        "ok": True,
        "result": {
            "surface": "one",  # FREE-002
            "pre_decoration_surface": "one",
            "trace_hash": "a" * 64,  # FREE-003
            "versor_condition": 1e-16,  # FREE-005
            "register_variant_id": "0123456789ab",
            "intent": "DEFINITION",
            "says": says,
            "extra": 1,  # FREE-201
        },
    }
    b = {
        "id": 1,
        "ok": True,
        "result": {
            "surface": "two",
            "pre_decoration_surface": "two",
            "trace_hash": "b" * 64,
            "versor_condition": 2e-16,
            "register_variant_id": "ba9876543210",
            "intent": "DEFINITION",
            "says": says,
        },
    }
    context = {"rvid": False}
    assert compare_case([request], [a], [b], context) is None
    b["result"]["intent"] = "CAUSE"
    assert compare_case([request], [a], [b], context) == (
        0,
        "session.chat",
        ".result.intent",
    )
    error = {"id": 1, "ok": False, "error": {"code": "SESSION_UNKNOWN", "field": "session"}}
    worded = {**error, "error": {**error["error"], "message": "no such session"}}
    other = {**error, "error": {**error["error"], "message": "unknown handle"}}
    assert compare_case([request], [worded], [other], {}) is None  # FREE-001
    other["error"]["field"] = "text"
    assert compare_case([request], [worded], [other], {}) is not None


def test_damage_is_applied_and_a_delta_layout_ends_the_comparison(tmp_path: Path) -> None:
    """A damage step answers the entries it found; two layouts that differ by a delta
    generation (FREE-024) end the comparison, any other difference is reported."""
    directory = tmp_path / "state"
    (directory / "gen-00000001").mkdir(parents=True)
    (directory / "gen-00000001" / "core.jsonl").write_bytes(b"")
    (directory / "CURRENT").write_bytes(b"gen-00000001\n")
    answer = damage(str(directory), "current", 0)
    assert answer["result"]["layout"] == ["CURRENT", "gen-00000001/core.jsonl"]
    assert not (directory / "CURRENT").exists()
    step = {"$damage": "current", "pick": 0}
    later = {"id": 1, "op": "state.load", "args": {"dir": "$dir"}}
    loads = [{"id": 1, "ok": True, "result": {"generation": g}} for g in (1, 2)]

    def found(layouts: list[list[str]]) -> Any:
        a, b = (
            {"ok": True, "result": {"damage": "current", "did": "", "layout": x}} for x in layouts
        )
        return compare_case([step, later], [a, loads[0]], [b, loads[1]], {})

    assert found([["gen-00000002/delta.jsonl"], ["gen-00000002/core.jsonl"]]) is None
    assert found([["CURRENT"], ["CURRENT", "LOCK"]]) == (0, "$damage", ".result.layout[len]")
    assert found([["CURRENT"], ["CURRENT"]]) == (1, "state.load", ".result.generation")
