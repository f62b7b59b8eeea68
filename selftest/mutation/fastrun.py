"""A mutation run certifying each mutant with the requirements that reach it, in one process.

``python -m selftest.mutation.fastrun record`` then ``python -m selftest.mutation.fastrun run
[PATTERN ...]``, from the project root, after ``python -m selftest.mutation.generate``.

The verdicts are mutmut's (written into ``mutants/**/*.meta``, so ``score report``,
``score remember`` and ``score check`` read them as they read a ``mutmut run``), and a
mutant is certified by the same tests as under mutmut (:mod:`selftest.mutation.test_suite_kills`,
one requirement each). What differs is the cost:

* **record** runs every test once on the unmutated reference in ``mutants/`` and writes
  :data:`REACH` (``reach.json``): for each mutated function, its source hash and the tests
  whose engine calls reached it (the trampolines' hits, in this process and in every engine
  process a test starts), and each test's duration. A function whose hash has changed
  since is unknown until the next record;
* **run** loads the project once, then for each mutant forks a child that sets the mutant
  and certifies it with the tests that reach its function only: first the tests that
  killed another mutant of the same function (:data:`cache.CACHE` keeps the killing test as
  ``by``), then the cheapest; the child stops at the first that fails. A mutant whose
  function no test reaches gets "no tests" (a survivor in the score) without running. A
  child that outlives its budget is killed and its mutant counted as a timeout;
* the algebra requirements, certified over stdio under mutmut so that the tables their
  module builds at import are built with the mutant live, are certified in-process unless
  the mutated function runs at import (``import`` in :data:`REACH`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from selftest.mutation.keys import Mutant

HERE = Path(__file__).resolve().parent
REACH = HERE / "reach.json"
MUTANTS = Path("mutants").resolve()
"""The generated mutants (the run starts from the project root)."""
TIMEOUT_CODE = 36
NO_TESTS_CODE = 33
BUDGET_FLOOR = 120.0
"""Seconds a mutant's child may always take, whatever its tests cost when recorded."""
BUDGET_FACTOR = 4.0
SAVE_EVERY = 10


def _enter_mutants() -> None:
    """Import the project from ``mutants/`` (the mutated copy), as mutmut's children do;
    refuse when its copy of the suite is not the project's (a verdict or a record taken
    with it would be stored as the project suite's)."""
    from selftest.mutation import cache

    if cache.suite_hash(MUTANTS) != cache.suite_hash(cache.ROOT):
        raise SystemExit(
            "mutants/ holds another copy of the suite than the project: "
            "run python -m selftest.mutation.generate (then score recall) first"
        )
    root = MUTANTS
    os.chdir(root)
    sys.path.insert(0, str(root))
    os.environ["PY_IGNORE_IMPORTMISMATCH"] = "1"


def all_tests() -> list[str]:
    """Every test of :mod:`~selftest.mutation.test_suite_kills`, one requirement each."""
    from selftest.mutation.test_suite_kills import IDS, PROTOCOL_IDS

    return [f"test_requirement_holds[{i}]" for i in IDS] + [
        f"test_protocol_requirement_holds_in_process[{i}]" for i in PROTOCOL_IDS
    ]


def _certify(test: str, tmp: Path, stdio_algebra: bool = True) -> bool:
    """Run one test of :mod:`test_suite_kills` without pytest: True when its requirement passes."""
    from conformance.requirements import REGISTRY, SuiteContext
    from conformance.runner import run_requirement
    from selftest.mutation import hits
    from selftest.mutation import test_suite_kills as kills
    from selftest.reference_engine import REFERENCE_FACTORY

    kind, _, rest = test.partition("[")
    req_id = rest.rstrip("]")
    in_process = kind == "test_protocol_requirement_holds_in_process" or (
        REGISTRY[req_id].family == "algebra" and not stdio_algebra
    )
    os.environ[hits.HITS_DIR] = str(tmp)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    kills.forget_cached_results()
    engine = (
        kills.MutatedInProcess(REFERENCE_FACTORY, timeout=kills.HANG_CEILING)
        if in_process
        else kills.engine_for(req_id)
    )
    try:
        outcome = run_requirement(
            REGISTRY[req_id],
            engine,
            SuiteContext.from_engine(engine),
            kills.PROFILE,
            kills.EXAMPLES,
        )
    finally:
        engine.close()
        kills.end_kept_engines()
    return outcome.verdict == "pass"


def _hashes() -> dict[str, str]:
    """mutmut's source hash of every mutated function, by its mangled name."""
    out: dict[str, str] = {}
    for meta in sorted(MUTANTS.glob("reference/**/*.py.meta")):
        module = ".".join(meta.relative_to(MUTANTS).with_suffix("").with_suffix("").parts)
        data = json.loads(meta.read_text("utf-8"))
        for name, digest in data.get("hash_by_function_name", {}).items():
            out[f"{module}.{name}"] = digest
    return out


def record(only: Iterable[str] = ()) -> int:
    """Write :data:`REACH`: which tests reach each mutated function and each of its statements.

    In this process a line tracer (coverage.py, one context per test) sees which statements
    of each original function a test runs; each engine process a test starts, and each
    process an engine forks, reports the functions it reaches and, unless it is killed
    with SIGKILL, its lines (:mod:`selftest.mutation.hits`). The zygote and warm starts the
    suite keeps between requirements are ended after each test, so each test's processes
    are its own (:func:`~selftest.mutation.test_suite_kills.end_kept_engines`).
    """
    import coverage

    from selftest.mutation import reach_keys

    hashes = _hashes()
    keys = reach_keys.current()
    _enter_mutants()
    from mutmut.mutation import trampoline

    from selftest.mutation import hits

    reached: set[str] = set()

    def hit(name: str, caller: str | None = None) -> None:
        reached.add(name)

    trampoline.record_trampoline_hit = hit  # type: ignore[assignment]
    trampoline.set_mutant_under_test("stats")
    os.environ["MUTMUT_DEPENDENCY_DEPTH"] = "-1"
    import reference.serve  # noqa: F401  (every module the engine imports, with their import-time calls)
    from selftest.mutation import test_suite_kills  # noqa: F401

    at_import = set(reached)
    tests = all_tests()
    wanted = set(only)
    tracer = coverage.Coverage(data_file=None, source=[str(MUTANTS / "reference")], branch=False)
    os.environ[hits.LINES] = str(MUTANTS / "reference")
    engine_lines: dict[str, dict[str, set[int]]] = {}
    durations: dict[str, float] = {}
    in_process: dict[str, set[str]] = {}
    in_engines: dict[str, set[str]] = {}
    for index, test in enumerate(tests):
        req_id = test.partition("[")[2].rstrip("]")
        if wanted and not any(fnmatch(req_id, pattern) for pattern in wanted):
            continue
        reached.clear()
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            tracer.start()
            tracer.switch_context(test)
            try:
                passed = _certify(test, Path(tmp))
            finally:
                tracer.stop()
            durations[test] = round(time.perf_counter() - started, 3)
            lined, with_lines, without_lines = _engine_record(Path(tmp))
            engine_lines[test] = lined
            in_process[test] = reached | with_lines
            in_engines[test] = without_lines
        print(
            f"{index + 1}/{len(tests)} {test} {durations[test]:.1f}s "
            f"{len(in_process[test] | in_engines[test])} functions"
            + ("" if passed else " FAILED on the unmutated reference"),
            flush=True,
        )
    names = sorted(durations)
    number = {test: i for i, test in enumerate(names)}
    functions: dict[str, dict] = {}

    def entry(name: str) -> dict:
        return functions.setdefault(
            name, {"hash": hashes.get(name, ""), "tests": [], "engines": []}
        )

    for test in names:
        for name in in_process[test]:
            entry(name)["tests"].append(number[test])
        for name in in_engines[test]:
            entry(name)["engines"].append(number[test])
    for name in at_import:
        entry(name)["import"] = True
    _add_lines(tracer.get_data(), functions, number, engine_lines)
    data = {
        "tests": names,
        "duration": durations,
        "functions": functions,
        "keys": {test: keys[test] for test in names},
    }
    if wanted and REACH.is_file():
        data = merge(json.loads(REACH.read_text("utf-8")), data)
    REACH.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", "utf-8")
    return 0


def stale_tests(reach: dict) -> list[str]:
    """The tests *reach* has no current record of: new since, or whose key has changed
    (:mod:`selftest.mutation.reach_keys`)."""
    from selftest.mutation import reach_keys

    keys = reach.get("keys", {})
    current = reach_keys.current()
    return sorted(test for test, key in current.items() if keys.get(test) != key)


def merge(old: dict, new: dict) -> dict:
    """*old* with the tests *new* recorded again replaced by *new*'s record of them."""
    again = set(new["tests"])
    kept = [t for t in old["tests"] if t not in again]
    names = sorted(kept + new["tests"])
    number = {t: i for i, t in enumerate(names)}

    def renumber(indices: list[int], source: list[str], skip: set[str]) -> list[int]:
        return [number[source[i]] for i in indices if source[i] not in skip]

    functions: dict[str, dict] = {}
    for data, skip in ((old, again), (new, set())):
        for name, info in data["functions"].items():
            out = functions.setdefault(
                name, {"hash": info["hash"], "tests": [], "engines": [], "lines": {}}
            )
            if data is new:
                out["hash"] = info["hash"]
            for field in ("tests", "engines"):
                out[field] = sorted(
                    set(out[field]) | set(renumber(info[field], data["tests"], skip))
                )
            for offset, runs in info.get("lines", {}).items():
                got = set(out["lines"].get(offset, [])) | set(renumber(runs, data["tests"], skip))
                out["lines"][offset] = sorted(got)
            if info.get("import"):
                out["import"] = True
    durations = {t: d for t, d in old["duration"].items() if t not in again} | new["duration"]
    keys = {t: k for t, k in old.get("keys", {}).items() if t not in again} | new["keys"]
    return {"tests": names, "duration": durations, "functions": functions, "keys": keys}


def _engine_record(directory: Path) -> tuple[dict[str, set[int]], set[str], set[str]]:
    """What the engine processes of one test reached, one process at a time: the lines of
    the processes that saved theirs (by file), the functions those reached, and the
    functions reached by processes that left no record of their lines (killed with
    SIGKILL: the soak engines of STATE-KILL-001).

    Each process writes its own ``<pid>.hits`` and, once its lines are saved, ``<pid>.lines``
    (the name of their data file), a process an engine forks too
    (:mod:`selftest.mutation.hits`)."""
    from coverage import CoverageData

    lines: dict[str, set[int]] = {}
    with_lines: set[str] = set()
    without_lines: set[str] = set()
    for hits_file in sorted(directory.glob("*.hits")):
        saved = hits_file.with_suffix(".lines")
        reached = {line for line in hits_file.read_text("utf-8").splitlines() if line}
        if not saved.is_file():
            without_lines |= reached
            continue
        with_lines |= reached
        data = CoverageData(basename=saved.read_text("utf-8"))
        data.read()
        for name in data.measured_files():
            lines.setdefault(name, set()).update(data.lines(name) or ())
    return lines, with_lines, without_lines


def _add_lines(
    data: object,
    functions: dict[str, dict],
    number: dict[str, int],
    engine_lines: dict[str, dict[str, set[int]]],
) -> None:
    """Add to each recorded function ``lines``: offset from its def line -> tests running it
    (in this process, or in engine processes that all recorded their lines)."""
    import ast

    from selftest.mutation.lines import SUFFIX, definitions

    for path in sorted(MUTANTS.glob("reference/**/*.py")):
        by_line: dict[int, set[str]] = {
            line: set(tests)
            for line, tests in data.contexts_by_lineno(str(path)).items()  # type: ignore[attr-defined]
        }
        for test, files in engine_lines.items():
            for line in files.get(str(path), ()):
                by_line.setdefault(line, set()).add(test)
        if not by_line:
            continue
        module = ".".join(path.relative_to(MUTANTS).with_suffix("").parts)
        for local, node in definitions(ast.parse(path.read_text("utf-8"))).items():
            if not local.endswith(SUFFIX + "orig"):
                continue
            info = functions.get(f"{module}.{local[: -len(SUFFIX + 'orig')]}")
            if info is None:
                continue
            lines = {}
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                runs = sorted(number[t] for t in by_line.get(line, ()) if t in number)
                if runs:
                    lines[str(line - node.lineno)] = runs
            info["lines"] = lines


def first_use() -> set[str]:
    """The mutated functions a module of ``reference/`` runs when it is first imported, for the
    modules ``reference.serve`` does not import itself (the truth path's tables, built on first
    use: :mod:`reference.lazy`).

    A test process imports such a module once, so the record credits those calls to the first
    test that needed the module; every later test reads the tables they built. In a run's child
    the module is imported with the mutant live, so every test that uses the module can kill it
    (:func:`select`). Found in a throwaway child, so this process imports nothing more.
    """
    import importlib

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        reached: set[str] = set()
        try:
            from mutmut.mutation import trampoline

            trampoline.record_trampoline_hit = lambda name, caller=None: reached.add(name)  # type: ignore[assignment]
            trampoline.set_mutant_under_test("stats")
            os.environ["MUTMUT_DEPENDENCY_DEPTH"] = "-1"
            for path in sorted((MUTANTS / "reference").rglob("*.py")):
                parts = path.relative_to(MUTANTS).with_suffix("").parts
                if parts[-1] in ("__main__", "__init__") or ".".join(parts) in sys.modules:
                    continue
                with contextlib.suppress(Exception):
                    importlib.import_module(".".join(parts))
        finally:
            os.write(write, "\n".join(sorted(reached)).encode())
            os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return set(b"".join(chunks).decode().split())


def module_users(functions: dict[str, dict]) -> dict[str, set[int]]:
    """For each module of ``reference/``, the tests (numbers in :data:`REACH`) that reached
    any of its mutated functions, in this process or in an engine process."""
    users: dict[str, set[int]] = {}
    for name, info in functions.items():
        module = name.rsplit(".", 1)[0]
        users.setdefault(module, set()).update(info.get("tests", []), info.get("engines", []))
    return users


def order(tests: Iterable[str], killers: dict[str, int], durations: dict[str, float]) -> list[str]:
    """Tests that killed mutants of the function first, then the others; cheapest first in each."""
    return sorted(set(tests), key=lambda t: (t not in killers, durations.get(t, 1e9), t))


def _child(name: str, tests: list[str], stdio_algebra: bool, report: int) -> None:
    from mutmut.mutation import trampoline

    trampoline.set_mutant_under_test(name)
    for test in tests:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                passed = _certify(test, Path(tmp), stdio_algebra)
            except BaseException:  # noqa: BLE001  (a crash of the mutated engine is a kill)
                passed = False
        if not passed:
            os.write(report, test.encode())
            os._exit(1)
    os._exit(0)


def _stop(pid: int, signum: int, frame: object) -> None:
    """SIGTERM in the run: the running child and what it started end too."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    raise SystemExit(128 + signum)


def _wait(pid: int, budget: float) -> int:
    deadline = time.monotonic() + budget
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return TIMEOUT_CODE
        time.sleep(0.05)


def run(patterns: list[str], rerun: bool = False, recorded: bool = False) -> int:
    """Certify every mutant matching *patterns* (fnmatch on mutmut names) without a verdict."""
    from selftest.mutation import cache, reach_keys
    from selftest.mutation.keys import mutant_table

    table = mutant_table(MUTANTS)
    if not REACH.is_file():
        subprocess.run([sys.executable, "-m", "selftest.mutation.fastrun", "record"], check=True)
    reach = json.loads(REACH.read_text("utf-8"))
    functions: dict[str, dict] = reach["functions"]
    durations: dict[str, float] = reach["duration"]
    stored = cache.load()
    suite = cache.suite_hash()
    metas = sorted(MUTANTS.glob("reference/**/*.py.meta"))
    meta_data = {meta: json.loads(meta.read_text("utf-8")) for meta in metas}
    where = {name: meta for meta, data in meta_data.items() for name in data["exit_code_by_key"]}
    todo = [
        name
        for name in sorted(where)
        if (not patterns or any(fnmatch(name, p) for p in patterns))
        and (rerun or meta_data[where[name]]["exit_code_by_key"][name] is None)
        and name in table
    ]
    from selftest.mutation import reviews

    reviewed = reviews.reviewed_names(reviews.load(), table)
    todo = [name for name in todo if name not in reviewed]
    killers: dict[str, dict[str, int]] = {}
    for entry_key, entry in stored.items():
        if entry.get("by"):
            counts = killers.setdefault(entry_key.split("#", 1)[0], {})
            counts[entry["by"]] = counts.get(entry["by"], 0) + 1
    unknown = sorted(
        {
            table[n].function
            for n in todo
            if table[n].function in functions
            and functions[table[n].function]["hash"] != table[n].function_hash
        }
    )
    if unknown and not recorded:
        print("reach.json is stale for these functions, recording again:", *unknown, sep="\n  ")
        subprocess.run([sys.executable, "-m", "selftest.mutation.fastrun", "record"], check=True)
        return run(patterns, rerun, recorded=True)
    outdated = stale_tests(reach)
    if outdated and not recorded:
        print("reach.json is stale for these tests, recording them again:", *outdated, sep="\n  ")
        ids = [reach_keys.requirement_of(test) for test in outdated]
        command = [sys.executable, "-m", "selftest.mutation.fastrun", "record", *ids]
        subprocess.run(command, check=True)
        return run(patterns, rerun, recorded=True)
    _enter_mutants()
    import reference.serve  # noqa: F401
    from selftest.mutation import test_suite_kills  # noqa: F401

    names: list[str] = reach["tests"]
    sources: dict[str, tuple[list[str], dict]] = {}
    lazy = first_use()
    users = module_users(functions)
    chosen = {
        name: [
            names[i]
            for i in select(
                table[name],
                functions.get(table[name].function, {}),
                sources,
                users if table[name].function in lazy else None,
            )
        ]
        for name in todo
    }
    todo.sort(key=lambda name: (sum(durations.get(t, 10.0) for t in chosen[name]), name))
    log = []
    try:
        for count, name in enumerate(todo, 1):
            mutant = table[name]
            info = functions.get(mutant.function, {})
            tests = order(chosen[name], killers.get(mutant.function, {}), durations)
            started = time.perf_counter()
            by = ""
            if not tests:
                code = NO_TESTS_CODE
            else:
                budget = max(
                    BUDGET_FLOOR, BUDGET_FACTOR * sum(durations.get(t, 10.0) for t in tests)
                )
                read, write = os.pipe()
                pid = os.fork()
                signal.signal(signal.SIGTERM, functools.partial(_stop, pid))
                if pid == 0:
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    os.setpgid(0, 0)
                    os.close(read)
                    _child(name, tests, bool(info.get("import")), write)
                os.close(write)
                code = _wait(pid, budget)
                by = os.read(read, 4096).decode()
                os.close(read)
                if code == 1 and by:
                    counts = killers.setdefault(mutant.function, {})
                    counts[by] = counts.get(by, 0) + 1
            seconds = time.perf_counter() - started
            meta = where[name]
            meta_data[meta]["exit_code_by_key"][name] = code
            meta_data[meta].setdefault("durations_by_key", {})[name] = seconds
            stored[mutant.key] = {
                "code": code,
                "function_hash": mutant.function_hash,
                "suite": suite,
                **({"by": by} if by else {}),
            }
            log.append(
                {
                    "name": name,
                    "key": mutant.key,
                    "code": code,
                    "seconds": round(seconds, 2),
                    "tests": len(tests),
                    "by": by,
                }
            )
            print(
                f"{count}/{len(todo)} {name} code={code} {seconds:.1f}s tests={len(tests)} {by}",
                flush=True,
            )
            if count % SAVE_EVERY == 0 or count == len(todo):
                _save(meta_data, stored, log)
    finally:
        _save(meta_data, stored, log)
    return 0


def select(
    mutant: Mutant,
    info: dict,
    sources: dict[str, tuple[list[str], dict]],
    users: dict[str, set[int]] | None = None,
) -> list[int]:
    """The tests (numbers in :data:`REACH`) that can kill *mutant*.

    *users* is given for a function its module runs when first imported (:func:`first_use`):
    then every test that uses the module can kill the mutant, not only the first that
    imported it.

    The tests that ran a statement it changes (in this process or in engine processes that
    recorded their lines); where the change is outside the body's statements, the tests that
    reached its function. The tests whose engine processes reached the function but were
    killed before recording their lines (the SIGKILL requirements, the soaks) are added,
    also when no recorded run reached the statement (a soak's last statement runs only in
    such an engine); with neither, the mutant has no test, a survivor of the score. Any
    test that fails on the mutant is a kill, so adding tests never counts a survivor as a
    kill.
    """
    import ast

    from selftest.mutation.lines import SUFFIX, changed_statements, definitions

    module, _, local = mutant.name.rpartition(".")
    if users is not None:
        reached = set(info.get("tests", [])) | set(info.get("engines", []))
        return sorted(users.get(module, set()) | reached)
    if module not in sources:
        path = MUTANTS.joinpath(*module.split(".")).with_suffix(".py")
        text = path.read_text("utf-8")
        sources[module] = (text.splitlines(), definitions(ast.parse(text)))
    lines, defs = sources[module]
    base = local.rsplit(SUFFIX, 1)[0]
    orig, node = defs.get(base + SUFFIX + "orig"), defs.get(local)
    offsets = changed_statements(lines, orig, node) if orig and node else None
    engines = set(info.get("engines", []))
    if offsets is None or not info.get("lines"):
        return sorted(set(info.get("tests", [])) | engines)
    ran = info["lines"]
    lined = {t for offset in offsets for t in ran.get(str(offset), [])}
    return sorted(lined | engines)


def _save(meta_data: dict[Path, dict], stored: dict[str, dict], log: list[dict]) -> None:
    from selftest.mutation import cache

    for meta, data in meta_data.items():
        meta.write_text(json.dumps(data, indent=4), "utf-8")
    cache.save(stored)
    with (MUTANTS / "fastrun-log.jsonl").open("a", encoding="utf-8") as out:
        for line in log:
            out.write(json.dumps(line) + "\n")
    log.clear()


def main(argv: list[str]) -> int:
    if argv[:1] == ["record"]:
        return record(argv[1:])
    if argv[:1] == ["run"]:
        rerun = "--rerun" in argv
        return run([a for a in argv[1:] if a != "--rerun"], rerun)
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
