"""A campaign directory: its spec, one file per finished task, and a log of sessions.

A task's file is written atomically once its result arrives, so a campaign stopped
at any moment resumes with exactly the tasks whose files exist.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from conformance.campaign.plan import CampaignError, CampaignSpec
from conformance.canonical import canonical_json

SPEC_FILE = "campaign.json"
SESSIONS_FILE = "sessions.jsonl"


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


class CampaignStore:
    """The files of one campaign under *root*."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tasks_dir = root / "tasks"

    def open(self, spec: CampaignSpec) -> None:
        """Start or resume *spec* here; refuse a directory holding another campaign."""
        self.tasks_dir.mkdir(parents=True, exist_ok=True)
        path = self.root / SPEC_FILE
        if path.exists():
            try:
                held = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as exc:
                raise CampaignError(f"{path}: not a campaign spec ({exc})") from None
            if held != spec.as_dict():
                raise CampaignError(f"{self.root} holds a different campaign; use another --dir")
            return
        write_atomically(path, json.dumps(spec.as_dict(), indent=2) + "\n")

    def done(self) -> dict[str, dict[str, Any]]:
        """Finished task results by key."""
        results = {}
        for path in sorted(self.tasks_dir.glob("*.json")):
            result = json.loads(path.read_text(encoding="utf-8"))
            results[result["key"]] = result
        return results

    def save(self, result: dict[str, Any]) -> None:
        path = self.tasks_dir / f"{result['key']}.json"
        write_atomically(path, canonical_json(result) + "\n")

    def log_session(self, entry: dict[str, Any]) -> None:
        with open(self.root / SESSIONS_FILE, "a", encoding="utf-8") as handle:
            handle.write(canonical_json(entry) + "\n")

    def sessions(self) -> list[dict[str, Any]]:
        path = self.root / SESSIONS_FILE
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
