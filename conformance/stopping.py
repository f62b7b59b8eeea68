"""When a certify run must stop early: a wall-clock deadline, or SIGINT / SIGTERM.

:class:`Interrupted` is raised in the main thread by :func:`stop_on_signals` when one
of the two signals arrives; whoever holds the results so far writes them as a PARTIAL
report (scope ``ended: "interrupted"``) and the process exits ``128 + signal``
(130 for SIGINT, 143 for SIGTERM). Only the first signal raises: later ones are
ignored so that writing the partial report cannot itself be interrupted.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """A stop signal arrived: end the run now and report what ran."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(f"interrupted by {self.name}")

    @property
    def exit_status(self) -> int:
        """The shell's status for a process ended by this signal: 128 + its number."""
        return 128 + self.signum


class DeadlineReached(BaseException):
    """A deadline passed: stop the case or example at once (not a verdict of the engine)."""


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises :class:`Interrupted`."""
    raised = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal raised
        if raised:
            return
        raised = True
        raise Interrupted(signum)

    previous = {s: signal.signal(s, handler) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


@dataclass(frozen=True)
class Deadline:
    """A moment on the monotonic clock (``None``: never) after which no new work starts."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds)

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def left(self) -> float:
        """Seconds until the deadline (0 once passed; infinite with none)."""
        return float("inf") if self.at is None else max(0.0, self.at - time.monotonic())

    def sooner(self, other: Deadline) -> Deadline:
        """The earlier of the two deadlines."""
        if self.at is None or other.at is None:
            return self if other.at is None else other
        return self if self.at <= other.at else other
