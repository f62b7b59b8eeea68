"""Invariants read from the golden snapshots themselves, across the four registers."""

from __future__ import annotations

import json

from lanes._support.cognition import REGISTERS, load_cases
from lanes._support.golden import GOLDEN


def _snapshots() -> dict[str, dict[str, dict]]:
    return {
        case.id: {
            r: json.loads((GOLDEN / r / f"{case.id}.json").read_text(encoding="utf-8"))
            for r in REGISTERS
        }
        for case in load_cases("public")
    }


def _field(snap: dict, key: str) -> list:
    return [turn[key] for turn in snap["turns"]]


def test_b_none_equals_default_neutral():
    for case_id, snaps in _snapshots().items():
        assert _field(snaps["none"], "surface") == _field(snaps["default_neutral_v1"], "surface"), (
            case_id
        )


def test_c_and_grounding_invariant_across_registers():
    for case_id, snaps in _snapshots().items():
        for key in ("trace_hash", "grounding_source", "intent", "versor_condition"):
            values = {json.dumps(_field(snap, key)) for snap in snaps.values()}
            assert len(values) == 1, f"{case_id}: {key} differs across registers"


def test_convivial_and_terse_each_differ_from_neutral_somewhere():
    snapshots = _snapshots().values()
    for register in ("convivial_v1", "terse_v1"):
        assert any(
            _field(s[register], "surface") != _field(s["default_neutral_v1"], "surface")
            for s in snapshots
        ), f"{register} never differs from default_neutral_v1"
