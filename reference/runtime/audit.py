"""An append-only JSON Lines audit trail: one line per turn."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from reference.canonical import canonical_json


class _Event(Protocol):
    def as_json(self) -> dict[str, object]: ...


class AuditLog:
    """Appends canonical JSON lines; content (input, surface) only when asked for."""

    def __init__(self, path: Path | None, *, with_content: bool = False) -> None:
        """Raise ``OSError`` now, before any turn, if *path* cannot be appended to."""
        self.path = path
        self.with_content = with_content
        if path is not None:
            with open(path, "a", encoding="utf-8"):
                pass

    def write(self, event: _Event, *, text: str, surface: str) -> None:
        if self.path is None:
            return
        line = event.as_json()
        if self.with_content:
            line = {**line, "input": text, "surface": surface}
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(canonical_json(line) + "\n")
            handle.flush()
