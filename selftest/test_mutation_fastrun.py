"""The fast mutation run's test selection: changed statements, test order, merged records."""

from __future__ import annotations

import ast

from selftest.mutation.fastrun import merge, module_users, order
from selftest.mutation.lines import changed_statements, definitions

SOURCE = """
def x_f__mutmut_orig(word):
    if word.endswith("ies") and len(word) > 4:
        return (word[:-3]
                + "y")
    return word

def x_f__mutmut_1(word):
    if word.endswith("ies") and len(word) >= 4:
        return (word[:-3]
                + "y")
    return word

def x_f__mutmut_2(word):
    if word.endswith("ies") and len(word) > 4:
        return (word[:-3]
                + "XXyXX")
    return word

def x_f__mutmut_3(word="x"):
    if word.endswith("ies") and len(word) > 4:
        return (word[:-3]
                + "y")
    return word
"""


def _changed(name: str) -> list[int] | None:
    defs = definitions(ast.parse(SOURCE))
    return changed_statements(SOURCE.splitlines(), defs["x_f__mutmut_orig"], defs[name])


def test_a_change_maps_to_the_statement_holding_it() -> None:
    assert _changed("x_f__mutmut_1") == [1]
    assert _changed("x_f__mutmut_2") == [2]


def test_a_changed_signature_falls_back_to_the_function() -> None:
    assert _changed("x_f__mutmut_3") is None


def test_killers_first_then_cheapest() -> None:
    durations = {"a": 5.0, "b": 1.0, "c": 2.0}
    assert order(["a", "b", "c"], {"c": 2, "a": 1}, durations) == ["c", "a", "b"]


def test_merge_replaces_the_tests_recorded_again() -> None:
    old = {
        "tests": ["a", "b"],
        "duration": {"a": 1.0, "b": 2.0},
        "functions": {"f": {"hash": "h", "tests": [0, 1], "engines": [], "lines": {"1": [0, 1]}}},
    }
    new = {
        "tests": ["b"],
        "duration": {"b": 3.0},
        "functions": {"g": {"hash": "k", "tests": [0], "engines": [], "lines": {"2": [0]}}},
    }
    merged = merge(old, new)
    assert merged["tests"] == ["a", "b"]
    assert merged["duration"] == {"a": 1.0, "b": 3.0}
    assert merged["functions"]["f"]["tests"] == [0]
    assert merged["functions"]["f"]["lines"] == {"1": [0]}
    assert merged["functions"]["g"]["tests"] == [1]


def test_a_module_s_users_are_every_test_reaching_any_of_its_functions() -> None:
    functions = {
        "reference.truth.intent.x_frame_from": {"tests": [0], "engines": [3]},
        "reference.truth.intent.x_read_clause": {"tests": [1, 2], "engines": []},
        "reference.truth.says.x_says": {"tests": [4]},
    }
    assert module_users(functions) == {
        "reference.truth.intent": {0, 1, 2, 3},
        "reference.truth.says": {4},
    }
