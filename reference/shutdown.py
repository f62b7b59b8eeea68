"""Clean shutdown on SIGTERM and SIGINT (docs/state.md § Shutdown).

Inside :func:`guarded`, a signal that arrives while the process waits for its next
request ends it at once (:class:`Stop` is raised out of the wait); one that arrives while
a turn or request is in flight is held until that work is committed and answered, and
the process then ends at the next boundary (:meth:`Guard.check`, which the stdio loop also
hands a long request to call between its steps). So work in flight is either committed and
answered, or not committed at all. The caller turns :class:`Stop` into the
exit status ``128 + signal``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stop(BaseException):
    """SIGTERM or SIGINT asked the process to end; it is not an error of the work."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum

    @property
    def status(self) -> int:
        """The exit status a process ended by this signal reports: 128 + the signal."""
        return 128 + self.signum


class Guard:
    """Holds SIGTERM and SIGINT while work is in flight; ends the process while it waits."""

    def __init__(self) -> None:
        self.held: int | None = None
        self.idle = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler: raise :class:`Stop` while waiting, else hold the signal."""
        if self.held is None:
            self.held = signum
        if self.idle:
            raise Stop(signum)

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """Wrap a wait for input: a signal held before, or arriving during it, ends it."""
        self.idle = True
        try:
            self.check()
            yield
        finally:
            self.idle = False

    def check(self) -> None:
        """At a boundary between turns: raise :class:`Stop` if a signal was held."""
        if self.held is not None:
            raise Stop(self.held)


@contextmanager
def guarded() -> Iterator[Guard]:
    """Install the guard's handler for SIGTERM and SIGINT for the block (in the main thread;
    elsewhere signals are not the process's to take), restoring the previous handlers."""
    guard = Guard()
    if threading.current_thread() is not threading.main_thread():
        yield guard
        return
    previous = {signum: signal.signal(signum, guard.handle) for signum in SIGNALS}
    try:
        yield guard
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
