"""Verdicts kept across runs, keyed by mutant key, function source hash and suite hash.

``verdicts.json`` maps a mutant key (:mod:`selftest.mutation.keys`) to the verdict it got,
the hash of its function's source when it got it, the hash of the suite that gave it and,
for a kill by :mod:`selftest.mutation.fastrun`, the test that killed it (``by``: tried
first on the other mutants of the function).
Before a run, :func:`recall` gives back to mutmut every verdict that still holds, so only
changed code runs again:

* a **kill** holds while the function's source hash is unchanged (the suite only gains
  checks; a check it lost shows as a survivor in the next full run);
* a **survivor** or **no tests** holds only while the function and the suite are both
  unchanged: a changed suite may kill it now.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from selftest.mutation.keys import Mutant

HERE = Path(__file__).resolve().parent
CACHE = HERE / "verdicts.json"
ROOT = HERE.parent.parent
SUITE_FILES = ("conformance",)
HARNESS = ("conftest.py", "engine.py", "hits.py", "test_suite_kills.py")
KILLED = {1, 3, 36, 24, -24, 152, 255, -9, -11}
"""Exit codes mutmut counts as a kill (a failure, a timeout or a crash of the test run)."""


def suite_hash(root: Path = ROOT) -> str:
    """SHA-256 (16 hex digits) of every file of the suite and of the mutation harness."""
    digest = hashlib.sha256()
    files = [
        p
        for top in SUITE_FILES
        for p in sorted((root / top).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    ]
    files += [root / "selftest" / "mutation" / name for name in HARNESS]
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def load(path: Path = CACHE) -> dict[str, dict]:
    return json.loads(path.read_text("utf-8")) if path.is_file() else {}


def save(cache: dict[str, dict], path: Path = CACHE) -> None:
    lines = [
        f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(entry)}"
        for key, entry in sorted(cache.items())
    ]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", "utf-8")


def holds(entry: dict, mutant: Mutant, suite: str) -> bool:
    if entry.get("function_hash") != mutant.function_hash or not mutant.function_hash:
        return False
    return entry.get("code") in KILLED or entry.get("suite") == suite


def remember(
    cache: dict[str, dict], codes: dict[str, int | None], table: dict[str, Mutant], suite: str
) -> int:
    """Add the verdict of every mutant that has one; the number of entries written."""
    written = 0
    for name, code in codes.items():
        mutant = table.get(name)
        if code is None or mutant is None:
            continue
        entry = {"code": code, "function_hash": mutant.function_hash, "suite": suite}
        earlier = cache.get(mutant.key, {})
        if earlier.get("by") and earlier.get("code") == code:
            entry["by"] = earlier["by"]
        cache[mutant.key] = entry
        written += 1
    return written


def recall(
    cache: dict[str, dict], table: dict[str, Mutant], suite: str, root: Path = Path("mutants")
) -> int:
    """Write into mutmut's ``*.meta`` every cached verdict that holds for a mutant without
    one, and every cached kill that holds where the meta has no kill (a code an older run of
    a kept ``mutants/`` left): a kill is final for its function's source."""
    given = 0
    for meta in sorted(root.glob("reference/**/*.py.meta")):
        data = json.loads(meta.read_text("utf-8"))
        changed = False
        for name, code in data["exit_code_by_key"].items():
            mutant = table.get(name)
            entry = cache.get(mutant.key) if mutant else None
            if entry is None or mutant is None or not holds(entry, mutant, suite):
                continue
            if code is None or (code not in KILLED and entry["code"] in KILLED):
                data["exit_code_by_key"][name] = entry["code"]
                changed = True
                given += 1
        if changed:
            meta.write_text(json.dumps(data, indent=4), "utf-8")
    return given
