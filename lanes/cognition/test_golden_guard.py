"""The golden guard trips on the smallest changes: one byte of a file, one word of a template."""

from __future__ import annotations

import json

from lanes._support.cognition import REGISTERS, golden_record, load_cases, run_case
from lanes._support.golden import GOLDEN, golden_files, tree_digest


def test_one_changed_byte_changes_the_tree_digest():
    files = golden_files()
    first = sorted(files)[0]
    tampered = {**files, first: files[first][:-1] + ("0" if files[first][-1] != "0" else "1")}
    assert tree_digest(tampered) != tree_digest(files)


def test_one_changed_template_word_breaks_a_snapshot(monkeypatch):
    import reference.realize.compose as compose

    monkeypatch.setattr(compose, "REFUSAL", compose.REFUSAL.replace("know", "ken"))
    changed = []
    for case in load_cases("public"):
        for register in REGISTERS:
            stored = json.loads((GOLDEN / register / f"{case.id}.json").read_text("utf-8"))
            if golden_record(case, register, run_case(case, register)) != stored:
                changed.append((case.id, register))
    assert changed, "no snapshot noticed a changed word in the refusal template"
