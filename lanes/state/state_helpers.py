"""Shared helpers of the state lane: fixture paths, sample records, directory snapshots."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "conformance" / "data" / "state_fixtures"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
NOT_STATE = {"LOCK", "lineage.journal", "proposals.journal", "overflow.journal"}


def copy_fixture(name: str, dest: Path) -> Path:
    """A writable copy of fixture *name* at *dest*."""
    shutil.copytree(FIXTURES / name, dest)
    return dest


def recognizer(key: str, weight: int = 1, **extra: object) -> dict:
    """A recognizer record."""
    return {"kind": "recognizer", "key": key, "pattern": f"p-{key}", "weight": weight, **extra}


def candidate(key: str, score: int = 0, **extra: object) -> dict:
    """A candidate record."""
    record = {"kind": "candidate", "key": key, "lemma": f"l-{key}", "score": score}
    return {**record, "status": "speculative", **extra}


def put(record: dict) -> dict:
    """A put mutation."""
    return {"op": "put", "record": record}


def snapshot(path: Path, *, skip: set[str] = NOT_STATE) -> dict[str, tuple]:
    """Every entry under *path* (but *skip* at the top): relative path -> (mode, bytes)."""
    out = {}
    for entry in sorted(path.rglob("*")):
        rel = entry.relative_to(path).as_posix()
        if rel.split("/")[0] in skip:
            continue
        mode = stat.S_IMODE(entry.stat().st_mode)
        out[rel] = (mode, None if entry.is_dir() else entry.read_bytes())
    return out
