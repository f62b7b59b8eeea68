"""The expected-failures file: requirement ids an engine knowingly fails, each with a reason."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conformance.canonical import RefusedJSON, read_json


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
            entries = read_json(Path(path).read_bytes())
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise ExpectedFailuresError(
                f"{path}: cannot read expected failures: {reason}"
            ) from None
        except RefusedJSON as exc:
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
