"""Golden snapshots: every public case under each of the four registers, byte for byte."""

from __future__ import annotations

import pytest

from lanes._support.cognition import REGISTERS, golden_record, load_cases, run_case
from lanes._support.golden import extension_for

CASES = load_cases("public")


@pytest.mark.parametrize("register", REGISTERS)
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_snapshot(case, register, snapshot):
    record = golden_record(case, register, run_case(case, register))
    assert snapshot(extension_class=extension_for(register), name=case.id) == record
