"""The verdict store gives back what holds: a stored kill wins over a kept meta's older code."""

from __future__ import annotations

import json
from pathlib import Path

from selftest.mutation import cache
from selftest.mutation.keys import Mutant

SUITE = "suite-now"


def _mutant(n: int) -> Mutant:
    name = f"reference.m.x_f__mutmut_{n}"
    return Mutant(name, "reference.m.x_f", f"reference.m.x_f#{n:012d}", "-a\n+b", "hash-f")


def test_a_stored_kill_replaces_an_older_survived_code_and_fills_a_missing_one(
    tmp_path: Path,
) -> None:
    table = {m.name: m for m in map(_mutant, range(1, 6))}
    codes = {name: code for name, code in zip(table, [0, None, 1, 0, None], strict=True)}
    meta = tmp_path / "reference" / "m.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": codes}), "utf-8")
    m1, m2, m3, m4, m5 = table.values()
    store = {
        m1.key: {"code": 1, "function_hash": "hash-f", "suite": "suite-old"},
        m2.key: {"code": 0, "function_hash": "hash-f", "suite": SUITE},
        m3.key: {"code": 0, "function_hash": "hash-f", "suite": SUITE},
        m4.key: {"code": 1, "function_hash": "hash-edited", "suite": SUITE},
        m5.key: {"code": 0, "function_hash": "hash-f", "suite": "suite-old"},
    }
    given = cache.recall(store, table, SUITE, root=tmp_path)
    got = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
    assert got == {m1.name: 1, m2.name: 0, m3.name: 1, m4.name: 0, m5.name: None}
    assert given == 2
