"""The CI sample: the mutants of functions changed since a base commit, plus a rotating set.

A function is *changed* when its source (top-level functions and methods, as mutmut names
them: ``x_name``, ``xǁClassǁname``) differs from the same function at the base commit, or
did not exist there. The rotating set is a fixed number of cached kills
(:mod:`selftest.mutation.cache`) chosen by the SHA-256 of the key and of the ISO week of
the HEAD commit: the same for every run of one commit, different from week to week, so over
time the sample walks through every kill and a suite that stops killing one is noticed.
"""

from __future__ import annotations

import ast
import datetime
import hashlib
import subprocess
import sys
from pathlib import Path

from selftest.mutation.cache import KILLED
from selftest.mutation.keys import Mutant


def _git(*args: str) -> str | None:
    try:
        run = subprocess.run(["git", *args], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return run.stdout


def functions(source: str) -> dict[str, str]:
    """mutmut's local name of every top-level function and method -> its source."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    lines = source.splitlines()
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[f"x_{node.name}"] = "\n".join(lines[node.lineno - 1 : node.end_lineno])
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"xǁ{node.name}ǁ{item.name}"
                    out[name] = "\n".join(lines[item.lineno - 1 : item.end_lineno])
    return out


def called_at_import(source: str) -> set[str]:
    """mutmut's local names of the top-level functions a module's own top-level code calls,
    directly or through one another (``FRAMES = tuple(frame_from(raw) ...)``).

    They run when the module is imported, before a mutmut child sets its mutant, so a
    ``mutmut run`` of the sample cannot certify their mutants (the fast run can:
    ``fastrun.first_use``); the sample leaves them to the full run."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    defined = {
        node.name: node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }

    def called(nodes: list[ast.AST]) -> set[str]:
        return {
            call.func.id
            for node in nodes
            for call in ast.walk(node)
            if isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in defined
        }

    top = [node for node in tree.body if not isinstance(node, tuple(_DEFINITIONS))]
    found, frontier = set(), called(top)
    while frontier:
        found |= frontier
        frontier = called([defined[name] for name in frontier]) - found
    return {f"x_{name}" for name in found}


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def import_time_functions(modules: set[str]) -> set[str]:
    """Qualified names of the functions of *modules* that run at import
    (:func:`called_at_import`)."""
    found = set()
    for module in sorted(modules):
        path = Path(*module.split(".")).with_suffix(".py")
        if path.is_file():
            source = path.read_text("utf-8")
            found |= {f"{module}.{name}" for name in called_at_import(source)}
    return found


def changed_functions(base: str, modules: set[str]) -> set[str]:
    """Qualified names (``module.x_name``) of the functions of *modules* changed since *base*;
    none when git does not know *base* (a shallow clone): the fixed and rotating parts of
    the sample still run."""
    if _git("rev-parse", "--verify", "--quiet", f"{base}^{{commit}}") is None:
        print(f"no commit {base}: no changed-code mutants in the sample", file=sys.stderr)
        return set()
    changed = set()
    for module in sorted(modules):
        path = Path(*module.split(".")).with_suffix(".py")
        if not path.is_file():
            continue
        now = functions(path.read_text("utf-8"))
        before = functions(_git("show", f"{base}:{path.as_posix()}") or "")
        changed |= {f"{module}.{name}" for name, text in now.items() if before.get(name) != text}
    return changed


def rotation_seed() -> str:
    """The ISO week (``2026-W49``) of the HEAD commit; this week's when git cannot say."""
    stamp = (_git("log", "-1", "--format=%cs") or "").strip()
    day = datetime.date.fromisoformat(stamp) if stamp else datetime.date.today()
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def rotating(
    cache: dict[str, dict],
    table: dict[str, Mutant],
    count: int,
    seed: str,
    skip: frozenset[str] = frozenset(),
) -> list[str]:
    """*count* mutants (mutmut names) among the cached kills, chosen by *seed*, none of a
    function in *skip*."""
    by_key = {m.key: m.name for m in table.values() if m.function not in skip}
    kills = [k for k, v in cache.items() if v.get("code") in KILLED and k in by_key]
    kills.sort(key=lambda k: hashlib.sha256(f"{seed}\n{k}".encode()).hexdigest())
    return [by_key[k] for k in kills[:count]]


CHANGED_CAP = 40
"""At most this many mutants of changed functions (chosen by key and seed), so a large
change keeps the CI run within its time; the full run covers the rest."""


def sample(
    table: dict[str, Mutant], cache: dict[str, dict], base: str, count: int, seed: str
) -> list[str]:
    """Up to :data:`CHANGED_CAP` mutants of functions changed since *base*, then *count*
    rotating kills; neither of a function that runs at import."""
    modules = {m.function.rsplit(".", 1)[0] for m in table.values()}
    at_import = frozenset(import_time_functions(modules))
    changed = changed_functions(base, modules) - at_import
    touched = [m for m in table.values() if m.function in changed]
    touched.sort(key=lambda m: hashlib.sha256(f"{seed}\n{m.key}".encode()).hexdigest())
    names = sorted(m.name for m in touched[:CHANGED_CAP])
    extra = [n for n in rotating(cache, table, count, seed, at_import) if n not in names]
    return names + extra
