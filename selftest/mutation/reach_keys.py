"""Keys of the record of who reaches what: a test's record holds while its key holds.

A requirement reaches the functions its scripts and coverage plan drive, so the record of
one test (``reach.json``, :mod:`selftest.mutation.fastrun`) is current only while the code
that chooses its inputs is unchanged. A test's key is the SHA-256 (16 hex digits) of its
requirement's module, of the ``conformance`` modules that module imports, and of every
file under ``conformance/data`` one of those names; a test that is new or whose key has
changed is recorded again before any mutant is judged by it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "conformance" / "data"


def requirement_of(test: str) -> str:
    """The requirement id of a test of :mod:`selftest.mutation.test_suite_kills`."""
    return test.partition("[")[2].rstrip("]")


@functools.cache
def _data_files() -> tuple[Path, ...]:
    return tuple(sorted(p for p in DATA.rglob("*") if p.is_file() and p.suffix != ".py"))


def _module_file(name: str) -> Path | None:
    """The source file of module *name*; None for a name that is no module."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None else None
    return Path(origin) if origin and origin.endswith(".py") else None


def _imported(source: str) -> list[str]:
    """The ``conformance`` modules a module's source imports (a package's ``from`` names
    that are modules included)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("conformance"):
            names.append(node.module or "")
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names if a.name.startswith("conformance")]
    return names


def files_of_module(module: str) -> set[Path]:
    """*module*'s file, the files of the ``conformance`` modules it imports and the data
    files any of them names."""
    own = _module_file(module)
    assert own is not None, module
    files = {own}
    for name in _imported(own.read_text("utf-8")):
        found = _module_file(name)
        if found is not None:
            files.add(found)
    text = b"\0".join(path.read_bytes() for path in files)
    return files | {path for path in _data_files() if path.name.encode() in text}


@functools.cache
def key_of_module(module: str) -> str:
    """The key of every test whose requirement is defined in *module*."""
    digest = hashlib.sha256()
    for path in sorted(files_of_module(module)):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def key_of(test: str) -> str:
    """The key of one test's record of reach."""
    from conformance.requirements import REGISTRY

    return key_of_module(REGISTRY[requirement_of(test)].check.__module__)


def current() -> dict[str, str]:
    """The key of every test of the mutation run, computed in a fresh process (so that a
    caller that imports the mutated copy of the project never imports the suite from
    elsewhere)."""
    done = subprocess.run(
        [sys.executable, "-m", "selftest.mutation.reach_keys"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    keys: dict[str, str] = json.loads(done.stdout)
    return keys


def main(argv: list[str]) -> int:
    """Print the keys of the tests named (every test of the mutation run when none is)."""
    from selftest.mutation.fastrun import all_tests

    tests = argv or all_tests()
    print(json.dumps({test: key_of(test) for test in tests}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
