"""Regenerate the golden snapshots and record the change in golden/RATIFICATIONS.jsonl.

``nox -s golden -- --ratify ID --reason TEXT`` runs this. It is the only way the
golden tree changes: the lane refuses a bare ``--snapshot-update``. Each entry also
seals the holdout case sets by digest, so a holdout changes only through an entry.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

from lanes._support.golden import (
    LEDGER,
    RATIFY_ENV,
    golden_files,
    holdout_digests,
    ledger,
    sealed_holdouts,
    tree_digest,
)
from reference.canonical import canonical_json

ROOT = Path(__file__).resolve().parents[1]

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SNAPSHOT_TESTS = "lanes/cognition/test_golden_snapshots.py"


def _fail(message: str) -> int:
    sys.stderr.write(f"error: {message}\n")
    return 2


def _changes(before: dict[str, str], after: dict[str, str]) -> dict[str, int]:
    return {
        "added": len(after.keys() - before.keys()),
        "removed": len(before.keys() - after.keys()),
        "modified": sum(before[p] != after[p] for p in before.keys() & after.keys()),
    }


def regenerate() -> int:
    """Run the snapshot tests with ``--snapshot-update`` (serially); return pytest's status."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        SNAPSHOT_TESTS,
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
        "-q",
        "--snapshot-update",
    ]
    return subprocess.run(command, cwd=ROOT, env={**os.environ, RATIFY_ENV: "1"}).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ratify", required=True, metavar="ID", help="ratification id")
    parser.add_argument("--reason", required=True, help="why the golden tree changes")
    args = parser.parse_args(argv)
    if not ID_PATTERN.fullmatch(args.ratify):
        return _fail(f"ratification id {args.ratify!r} must match {ID_PATTERN.pattern}")
    if not args.reason.strip():
        return _fail("--reason must say why the golden tree changes")
    if any(entry["id"] == args.ratify for entry in ledger()):
        return _fail(f"ratification id {args.ratify!r} is already in {LEDGER.name}")
    before = golden_files()
    status = regenerate()
    if status not in (0, 1):
        return _fail(f"regenerating snapshots failed (pytest exit {status})")
    after = golden_files()
    changed = _changes(before, after)
    entries = ledger()
    holdouts = holdout_digests()
    unchanged = entries and entries[-1]["tree_digest"] == tree_digest(after)
    if unchanged and sealed_holdouts() == holdouts:
        last = entries[-1]["id"]
        return _fail(f"golden tree and holdouts unchanged since {last}; nothing to ratify")
    entry = {
        "id": args.ratify,
        "reason": args.reason.strip(),
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "tree_digest": tree_digest(after),
        "files": len(after),
        "changed": changed,
        "holdouts": holdouts,
    }
    with open(LEDGER, "a", encoding="utf-8") as handle:
        handle.write(canonical_json(entry) + "\n")
    print(f"ratified {args.ratify}: {len(after)} files, {changed} -> {LEDGER.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
