"""The shipped mastery reports are current: ratifying again reproduces them byte for byte."""

from __future__ import annotations

import shutil

import pytest

from reference.registers.loader import SHIPPED_DATA_DIR, SHIPPED_REGISTER_IDS, load_register_pack
from reference.registers.ratify import ratify_pack_file
from reference.runtime.probe import register_probe


@pytest.mark.parametrize("register_id", SHIPPED_REGISTER_IDS)
def test_shipped_report_is_reproduced_by_ratify_with_the_probe(tmp_path, register_id):
    for name in (f"{register_id}.json", f"{register_id}.mastery_report.json"):
        shutil.copy(SHIPPED_DATA_DIR / name, tmp_path / name)
    ratify_pack_file(tmp_path / f"{register_id}.json", evidence_probe=register_probe)
    for name in (f"{register_id}.json", f"{register_id}.mastery_report.json"):
        assert (tmp_path / name).read_bytes() == (SHIPPED_DATA_DIR / name).read_bytes(), (
            f"{name} is stale: run `python -m tools.ratify_shipped` and commit the result"
        )
    assert load_register_pack(register_id, search_path=(tmp_path,)).register_id == register_id
