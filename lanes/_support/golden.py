"""Golden snapshots: the syrupy extension, the tree digest and the ratification ledger."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from reference.canonical import canonical_json, pretty_json

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "golden"
LEDGER = GOLDEN / "RATIFICATIONS.jsonl"
RATIFY_ENV = "CORE_GOLDEN_RATIFY"
CASES = ROOT / "lanes" / "cognition" / "cases"
SEALED_HOLDOUTS = ("holdout", "holdout2", "natural")


class GoldenExtension(SingleFileSnapshotExtension):
    """Writes ``golden/<register>/<case>.json`` in the stable pretty JSON form."""

    file_extension = "json"
    _write_mode = WriteMode.TEXT
    register = ""

    def serialize(self, data, **_options) -> str:
        return pretty_json(data)

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(GOLDEN / cls.register)

    @classmethod
    def get_snapshot_name(cls, *, test_location, index=0) -> str:
        return str(index)


def extension_for(register: str) -> type[GoldenExtension]:
    """The extension class that files snapshots under ``golden/<register>/``."""
    return type(f"Golden_{register}", (GoldenExtension,), {"register": register})


def golden_files() -> dict[str, str]:
    """Every file under golden/ except the ledger: relative path -> SHA-256 of its bytes."""
    return {
        path.relative_to(GOLDEN).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(GOLDEN.rglob("*"))
        if path.is_file() and path != LEDGER
    }


def tree_digest(files: dict[str, str] | None = None) -> str:
    """SHA-256 of the canonical JSON of the sorted [path, file digest] pairs."""
    files = golden_files() if files is None else files
    pairs = [[path, files[path]] for path in sorted(files)]
    return hashlib.sha256(canonical_json(pairs).encode("utf-8")).hexdigest()


def ledger() -> list[dict]:
    """Every ratification, oldest first."""
    if not LEDGER.exists():
        return []
    return [json.loads(line) for line in LEDGER.read_text(encoding="utf-8").splitlines() if line]


def holdout_digests() -> dict[str, str]:
    """Sealed holdout case set name -> SHA-256 of its file's bytes."""
    return {
        name: hashlib.sha256((CASES / f"{name}.jsonl").read_bytes()).hexdigest()
        for name in SEALED_HOLDOUTS
    }


def sealed_holdouts() -> dict[str, str] | None:
    """The holdout digests of the last ratification that recorded any, else None."""
    for entry in reversed(ledger()):
        if "holdouts" in entry:
            return entry["holdouts"]
    return None
