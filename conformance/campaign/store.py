"""A campaign directory: its spec, one file per finished task, and a log of sessions.

A task's file is written atomically once its result arrives, so a campaign stopped
at any moment resumes with exactly the tasks whose files exist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance.campaign.plan import CampaignError, CampaignSpec
from conformance.canonical import canonical_json
from conformance.certify import _write

SPEC_FILE = "campaign.json"
SESSIONS_FILE = "sessions.jsonl"


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
        _write(path, json.dumps(spec.as_dict(), indent=2) + "\n")

    def done(self) -> dict[str, dict[str, Any]]:
        """Finished task results by key."""
        results = {}
        for path in sorted(self.tasks_dir.glob("*.json")):
            try:
                result = json.loads(path.read_text(encoding="utf-8"))
                results[result["key"]] = result
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CampaignError(f"{path}: not a task result ({exc}); delete it") from None
        return results

    def save(self, result: dict[str, Any]) -> None:
        path = self.tasks_dir / f"{result['key']}.json"
        _write(path, canonical_json(result) + "\n")

    def log_session(self, entry: dict[str, Any]) -> None:
        with open(self.root / SESSIONS_FILE, "a", encoding="utf-8") as handle:
            handle.write(canonical_json(entry) + "\n")

    def sessions(self) -> list[dict[str, Any]]:
        path = self.root / SESSIONS_FILE
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
