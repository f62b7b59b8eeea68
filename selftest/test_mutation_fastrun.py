"""The fast mutation run's test selection: changed statements, test order, merged records."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from selftest.mutation import cache, fastrun, hits, reach_keys
from selftest.mutation.fastrun import REACH, _engine_record, merge, module_users, order, stale_tests
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
        "keys": {"a": "ka", "b": "kb"},
    }
    new = {
        "tests": ["b"],
        "duration": {"b": 3.0},
        "functions": {"g": {"hash": "k", "tests": [0], "engines": [], "lines": {"2": [0]}}},
        "keys": {"b": "kb2"},
    }
    merged = merge(old, new)
    assert merged["tests"] == ["a", "b"]
    assert merged["duration"] == {"a": 1.0, "b": 3.0}
    assert merged["functions"]["f"]["tests"] == [0]
    assert merged["functions"]["f"]["lines"] == {"1": [0]}
    assert merged["functions"]["g"]["tests"] == [1]
    assert merged["keys"] == {"a": "ka", "b": "kb2"}


def test_the_record_of_who_reaches_what_is_current() -> None:
    """Every requirement's record in reach.json was taken with its module, the suite modules
    it imports and the data they name as they are now: a requirement added or changed since
    would judge no mutant, and its function's mutants would be counted survivors."""
    reach = json.loads(REACH.read_text("utf-8"))
    outdated = stale_tests(reach)
    ids = " ".join(reach_keys.requirement_of(test) for test in outdated)
    assert not outdated, (
        f"reach.json has no current record of {len(outdated)} tests; record them: "
        f"python -m selftest.mutation.generate && python -m selftest.mutation.fastrun record {ids}"
    )


def test_a_test_s_key_follows_its_module_and_what_it_imports() -> None:
    test = "test_requirement_holds[COG-ANSWER-006]"
    files = reach_keys.files_of_module("conformance.requirements.cognition_pack")
    names = {path.name for path in files}
    assert {"cognition_pack.py", "driver.py", "packs.json"} <= names
    assert reach_keys.key_of(test) == reach_keys.key_of_module(
        "conformance.requirements.cognition_pack"
    )


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


FORKING_ENGINE = """
import os

from mutmut.mutation import trampoline

from selftest.mutation.hits import install_recorder

install_recorder()
trampoline.record_trampoline_hit("before.fork")


def serve():
    pid = os.fork()
    if pid == 0:
        trampoline.record_trampoline_hit("in.child")
        served = "the rest of the frame that forked"
        os._exit(0)
    os.waitpid(pid, 0)
    trampoline.record_trampoline_hit("in.parent")


serve()
"""
IN_CHILD_ONLY = 16
"""The line of FORKING_ENGINE that only the forked child runs, after the fork."""


def test_a_forked_engine_records_its_own_functions_and_lines(tmp_path: Path) -> None:
    """engine.fork's child ends with os._exit: it still saves its lines (the rest of the
    frame that forked included), in a record of its own, and its own functions."""
    directory = tmp_path / "hits"
    directory.mkdir()
    engine = tmp_path / "engine.py"
    engine.write_text(FORKING_ENGINE, "utf-8")
    assert "served" in FORKING_ENGINE.splitlines()[IN_CHILD_ONLY - 1]
    env = os.environ | {hits.HITS_DIR: str(directory), hits.LINES: str(tmp_path)}
    env["PYTHONPATH"] = os.pathsep.join([str(Path.cwd()), env.get("PYTHONPATH", "")])
    subprocess.run([sys.executable, str(engine)], env=env, check=True, timeout=120)
    records = {path.stem: set(path.read_text("utf-8").split()) for path in directory.glob("*.hits")}
    assert sorted(records.values(), key=len) == [{"in.child"}, {"before.fork", "in.parent"}]
    assert {path.stem for path in directory.glob("*.lines")} == set(records)
    lines, with_lines, without_lines = _engine_record(directory)
    assert with_lines == {"before.fork", "in.parent", "in.child"} and not without_lines
    assert IN_CHILD_ONLY in lines[str(engine)]


def test_a_process_killed_before_saving_reports_functions_without_lines(tmp_path: Path) -> None:
    (tmp_path / "1.hits").write_text("a\n", "utf-8")
    lines, with_lines, without_lines = _engine_record(tmp_path)
    assert (lines, with_lines, without_lines) == ({}, set(), {"a"})


def test_a_run_refuses_mutants_holding_another_copy_of_the_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "conformance").mkdir()
    (tmp_path / "conformance" / "__init__.py").write_text("# an older suite\n")
    (tmp_path / "selftest" / "mutation").mkdir(parents=True)
    for name in cache.HARNESS:
        (tmp_path / "selftest" / "mutation" / name).write_text("")
    monkeypatch.setattr(fastrun, "MUTANTS", tmp_path)
    with pytest.raises(SystemExit, match="another copy of the suite"):
        fastrun._enter_mutants()
