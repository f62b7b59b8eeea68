"""The expected-failures file: requirement ids an engine knowingly fails, each with a reason."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


class ExpectedFailuresError(ValueError):
    """The expected-failures file is unreadable or malformed."""


@dataclass(frozen=True)
class ExpectedFailures:
    """Requirement id -> reason."""

    reasons: dict[str, str]

    @classmethod
    def none(cls) -> ExpectedFailures:
        return cls({})

    @classmethod
    def load(cls, path: Path) -> ExpectedFailures:
        """Read ``[{"id": ..., "reason": ...}, ...]``; every entry needs a non-empty reason."""
        try:
            entries = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ExpectedFailuresError(f"{path}: cannot read expected failures: {exc}") from None
        if not isinstance(entries, list):
            raise ExpectedFailuresError(f"{path}: expected a JSON list of {{id, reason}} objects")
        reasons: dict[str, str] = {}
        for i, entry in enumerate(entries):
            ok = isinstance(entry, dict) and set(entry) == {"id", "reason"}
            if not ok or not all(isinstance(entry[k], str) and entry[k].strip() for k in entry):
                raise ExpectedFailuresError(f"{path}: entry {i} must be {{id, reason}} strings")
            if entry["id"] in reasons:
                raise ExpectedFailuresError(f"{path}: {entry['id']} listed twice")
            reasons[entry["id"]] = entry["reason"]
        return cls(reasons)
