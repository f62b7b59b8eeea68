"""docs/spec.md lists exactly the suite's requirements, as tools/gen_spec.py renders them."""

from __future__ import annotations

from conformance.requirements import REGISTRY
from tools.gen_spec import BEGIN, END, SPEC, render


def test_spec_table_is_current():
    current = SPEC.read_text(encoding="utf-8")
    assert BEGIN in current and END in current
    assert render(current) == current, "docs/spec.md is stale: run python -m tools.gen_spec"


def test_every_requirement_id_is_documented_once():
    current = SPEC.read_text(encoding="utf-8")
    for req_id in REGISTRY:
        assert current.count(f"`{req_id}`") >= 1, req_id
