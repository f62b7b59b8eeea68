"""The committed case history (conformance/data/case_history.json) is what
``python -m tools.case_history`` builds from the self-test's broken engines: it names only
known requirements and broken engines, each engine under a requirement it must fail, and
regenerating one engine's record gives the committed one."""

from __future__ import annotations

from conformance.case_history import load
from conformance.requirements import REGISTRY
from selftest.engines import BROKEN
from tools.case_history import found


def test_the_history_names_known_requirements_and_the_engines_that_must_fail_them() -> None:
    history = load()
    assert history.requirements
    assert set(history.requirements) <= set(REGISTRY)
    for req_id, row in history.requirements.items():
        engines = [name for names in row.get("found", {}).values() for name in names]
        for name in engines + row.get("example_found", []):
            assert name in BROKEN and req_id in BROKEN[name].catches, (req_id, name)


def test_one_engines_record_regenerates_as_committed() -> None:
    committed = load().requirements["REG-INV-003"]["found"]
    fresh = found(["terse_hash_slip"])["REG-INV-003"]["found"]
    mine = {key for key, names in committed.items() if "terse_hash_slip" in names}
    assert mine and set(fresh) == mine
