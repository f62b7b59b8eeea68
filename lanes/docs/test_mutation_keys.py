"""Mutants are named by what they change, so an edit elsewhere keeps every review and sample line.

A mutant key is the mutated function and the digest of the lines the mutation changes
(selftest/mutation/keys.py). Adding a line to the function, or renumbering mutmut's
mutants, keeps the key; changing the mutated line makes a review citing it stale, and
``reviews.stale`` reports it.
"""

from __future__ import annotations

import json
from pathlib import Path

from selftest.mutation import changed, reviews
from selftest.mutation.keys import Mutant, describe, mutant_table


def write_module(root: Path, body: list[str], mutants: list[list[str]], extra: str = "") -> None:
    """A mutmut-like generated file ``reference/m.py`` with its ``.meta``."""
    out = ["def x_f__mutmut_orig(a):", *[f"    {line}" for line in [extra, *body] if line]]
    names = []
    for number, lines in enumerate(mutants, 1):
        out.append(f"def x_f__mutmut_{number}(a):")
        out += [f"    {line}" for line in [extra, *lines] if line]
        names.append(f"reference.m.x_f__mutmut_{number}")
    (root / "reference").mkdir(parents=True, exist_ok=True)
    (root / "reference" / "m.py").write_text("\n".join(out) + "\n", "utf-8")
    meta = {"exit_code_by_key": dict.fromkeys(names), "hash_by_function_name": {"x_f": "h"}}
    (root / "reference" / "m.py.meta").write_text(json.dumps(meta), "utf-8")


BODY = ["b = a + 1", "return b * 2"]
PLUS = ["b = a - 1", "return b * 2"]
TIMES = ["b = a + 1", "return b / 2"]


def test_describe_names_the_changed_lines_only():
    assert describe("def f():\n    x = 1\n    y = 2", "def f():\n    x = 1\n    y = 3") == (
        "-y = 2\n+y = 3"
    )


def test_a_key_outlives_renumbering_and_edits_of_other_lines(tmp_path):
    write_module(tmp_path / "one", BODY, [PLUS, TIMES])
    write_module(tmp_path / "two", BODY, [TIMES, PLUS], extra="a = int(a)")
    one = {m.description: m.key for m in mutant_table(tmp_path / "one").values()}
    two = {m.description: m.key for m in mutant_table(tmp_path / "two").values()}
    assert one == two
    assert all(key.startswith("reference.m.x_f#") for key in one.values())


def test_a_review_of_a_changed_line_is_stale(tmp_path):
    write_module(tmp_path, BODY, [PLUS, TIMES])
    table = mutant_table(tmp_path)
    plus = next(m for m in table.values() if "a - 1" in m.description)
    text = (
        f"{plus.key}  equivalent: kept\n"
        "reference.m.x_f#000000000000  not normative FREE-001: gone\n"
        "reference.m.x_gone  unreachable: no such function\n"
        "reference.m.x_f  unreachable: every mutant of f\n"
    )
    found = reviews.parse(text)
    assert [r.target for r in reviews.stale(found, table)] == [
        "reference.m.x_f#000000000000",
        "reference.m.x_gone",
    ]
    assert set(reviews.reviewed_names(found, table)) == {m.name for m in table.values()}


def test_a_review_line_must_say_its_kind():
    try:
        reviews.parse("reference.m.x_f#0123456789ab  looks fine\n")
    except reviews.ReviewSyntaxError:
        return
    raise AssertionError("a line without a kind was accepted")


def test_changed_functions_are_named_as_mutmut_names_them():
    source = "def f():\n    pass\n\nclass C:\n    def m(self):\n        pass\n"
    assert set(changed.functions(source)) == {"x_f", "xǁCǁm"}


def test_functions_the_module_calls_at_import_are_named_through_their_callees():
    source = (
        "def leaf(x):\n    return x\n\n"
        "def build(x):\n    return leaf(x)\n\n"
        "def later(x):\n    return leaf(x)\n\n"
        "TABLE = tuple(build(x) for x in range(3))\n"
    )
    assert changed.called_at_import(source) == {"x_build", "x_leaf"}


def test_the_sample_leaves_out_what_runs_at_import():
    table = {
        name: Mutant(name, function, f"{function}#{index:012x}", "", "")
        for index, (name, function) in enumerate([("m1", "pkg.x_build"), ("m2", "pkg.x_later")])
    }
    cache = {m.key: {"code": 1} for m in table.values()}
    chosen = changed.rotating(cache, table, 5, "2026-W49", frozenset({"pkg.x_build"}))
    assert chosen == ["m2"]
