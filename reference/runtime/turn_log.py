"""The session's turn log: every turn counted, only the most recent events kept in memory."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Generic, TypeVar

Event = TypeVar("Event")

RETAINED_EVENTS = 1024
"""How many of the latest turn events a session keeps in memory."""


class TurnLog(Generic[Event]):
    """Append-only turn log with bounded memory.

    ``len()`` is the number of turns ever logged, so it is the next turn's index at
    any session length. Iteration yields the retained events (the latest
    ``retained`` ones, oldest first); older events leave memory, and the audit trail,
    when one is configured, keeps every event on disk.
    """

    def __init__(self, retained: int = RETAINED_EVENTS, *, start: int = 0) -> None:
        """*start* is the number of turns logged before this log (a resumed life's)."""
        if retained < 1:
            raise ValueError(f"a turn log retains at least one event, got {retained}")
        if start < 0:
            raise ValueError(f"a turn log starts at a count of at least 0, got {start}")
        self._recent: deque[Event] = deque(maxlen=retained)
        self._count = start

    def append(self, event: Event) -> None:
        """Log one turn's event."""
        self._recent.append(event)
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Event]:
        return iter(self._recent)

    @property
    def retained(self) -> int:
        """The number of events held in memory (at most the retention bound)."""
        return len(self._recent)
