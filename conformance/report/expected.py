"""The expected-failures file: requirement ids an engine knowingly fails, each with a reason."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conformance.inputs import InputFileError, display, read_input


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
    def load(cls, path: Path, option: str = "--xfail") -> ExpectedFailures:
        """Read ``[{"id": ..., "reason": ...}, ...]``; every entry needs a non-empty reason.
        Errors name *option* (the option that gave the file) and the file."""
        try:
            entries = read_input(path, option, "an expected-failures file", list)
        except InputFileError as exc:
            raise ExpectedFailuresError(str(exc)) from None
        head = f"{option} {display(path)}"
        for i, entry in enumerate(entries):
            ok = isinstance(entry, dict) and set(entry) == {"id", "reason"}
            if not ok or not all(isinstance(entry[k], str) and entry[k].strip() for k in entry):
                raise ExpectedFailuresError(f"{head}: entry {i} must be {{id, reason}} strings")
        reasons: dict[str, str] = {}
        for entry in entries:
            if entry["id"] in reasons:
                raise ExpectedFailuresError(f"{head}: {entry['id']} listed twice")
            reasons[entry["id"]] = entry["reason"]
        return cls(reasons)
