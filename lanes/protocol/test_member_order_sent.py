"""PROTO-ORDER-006 sends objects in reversed and rotated member order: the wire and the
in-process round trip must keep that order, or the requirement checks nothing."""

from __future__ import annotations

import json
from typing import Any

from conformance.engines.inprocess import InProcessEngine
from conformance.engines.subprocess import encode_request
from conformance.requirements.member_order import reordered

ARGS = {"pack": {"a": 1, "b": {"x": [{"p": 1, "q": 2}], "y": 2}, "c": 3}}


def _orders(value: Any) -> list[list[str]]:
    """Each object's member order, depth first."""
    if isinstance(value, dict):
        return [list(value)] + [o for v in value.values() for o in _orders(v)]
    if isinstance(value, list):
        return [o for v in value for o in _orders(v)]
    return []


def test_reordered_objects_are_not_sorted() -> None:
    assert _orders(reordered(ARGS, "reversed")) == [
        ["pack"],
        ["c", "b", "a"],
        ["y", "x"],
        ["q", "p"],
    ]
    assert _orders(reordered(ARGS, "rotated"))[1] == ["b", "c", "a"]


def test_the_wire_keeps_member_order() -> None:
    args = reordered(ARGS, "reversed")
    line = encode_request({"id": 1, "op": "x", "args": args})
    assert _orders(json.loads(line)["args"]) == _orders(args)


class _Recorder:
    seen: list[list[str]] = []

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        _Recorder.seen = _orders(request["args"])
        return {"id": request["id"], "ok": True, "result": {}}


def test_the_in_process_round_trip_keeps_member_order() -> None:
    engine = InProcessEngine("test:recorder", factory=_Recorder)
    args = reordered(ARGS, "rotated")
    engine.raw({"id": 1, "op": "x", "args": args}, checked=False)
    assert _Recorder.seen == _orders(args)
