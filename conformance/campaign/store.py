"""A campaign directory: its spec, one file per finished task, and a log of sessions.

A task's file is written atomically once its result arrives, so a campaign stopped
at any moment resumes with exactly the tasks whose files exist.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from conformance.campaign.plan import CampaignError, CampaignSpec
from conformance.canonical import RefusedJSON, canonical_json, read_json
from conformance.certify import _write
from conformance.inputs import InputFileError, display, read_bytes, read_input

SPEC_FILE = "campaign.json"
SESSIONS_FILE = "sessions.jsonl"


class CampaignStore:
    """The files of one campaign under *root*."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tasks_dir = root / "tasks"

    def open(self, spec: CampaignSpec) -> bool:
        """Start or resume *spec* here; refuse a directory holding another campaign.

        Returns True when this call started the campaign (wrote its spec)."""
        try:
            self.tasks_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise CampaignError(f"--dir {display(self.root)}: cannot create it: {reason}") from None
        path = self.root / SPEC_FILE
        if path.exists():
            try:
                held = read_input(path, "--dir", "a campaign spec")
            except InputFileError as exc:
                raise CampaignError(str(exc)) from None
            if held != spec.as_dict():
                raise CampaignError(f"{self.root} holds a different campaign; use another --dir")
            return False
        _write(path, json.dumps(spec.as_dict(), indent=2) + "\n")
        return True

    def discard_if_unstarted(self) -> None:
        """Remove the files of a campaign no task of which finished, so that a campaign
        that failed to start leaves nothing behind that blocks the next one."""
        if any(self.tasks_dir.glob("*.json")):
            return
        for name in (SPEC_FILE, SESSIONS_FILE):
            (self.root / name).unlink(missing_ok=True)
        for directory in (self.tasks_dir, self.root):
            with contextlib.suppress(OSError):
                directory.rmdir()

    def done(self) -> dict[str, dict[str, Any]]:
        """Finished task results by key."""
        results = {}
        for path in sorted(self.tasks_dir.glob("*.json")):
            try:
                result = read_input(path, "--dir", "a task result")
            except InputFileError as exc:
                raise CampaignError(f"{exc}; delete it") from None
            if not isinstance(result.get("key"), str):
                raise CampaignError(f"--dir {display(path)}: not a task result (no key); delete it")
            results[result["key"]] = result
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
        try:
            data = read_bytes(path, "--dir", "a session log")
            return [read_json(line) for line in data.splitlines()]
        except (InputFileError, RefusedJSON) as exc:
            raise CampaignError(f"--dir {display(path)}: not a session log ({exc})") from None
