"""What certify prints while it runs: lines that can never change the run's verdict.

:class:`Output` writes lines to stdout; once the reader has gone (a closed pipe, as in
``certify ... | head -1``) it stops writing, points stdout at /dev/null and carries on
quietly, so the run still ends with its report written and its own exit status.
:class:`Heartbeat` prints a progress line whenever nothing was printed for a while, so
a long requirement on a slow engine still shows the run is alive in CI logs.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable

HEARTBEAT_S = 20.0
"""Seconds without a printed line after which a heartbeat line is printed
(``CONFORMANCE_HEARTBEAT_S`` overrides it); below the 30 s CI logs are promised."""


def heartbeat_seconds() -> float:
    """The heartbeat interval: ``CONFORMANCE_HEARTBEAT_S`` when a positive number."""
    try:
        value = float(os.environ.get("CONFORMANCE_HEARTBEAT_S", HEARTBEAT_S))
    except ValueError:
        return HEARTBEAT_S
    return value if value > 0 else HEARTBEAT_S


class Output:
    """Lines on stdout, written under a lock (the heartbeat thread writes too); a reader
    that went away silences the rest instead of raising."""

    def __init__(self) -> None:
        self.closed = False
        self.last = time.monotonic()
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        with self._lock:
            self.last = time.monotonic()
            if self.closed:
                return
            try:
                sys.stdout.write(text + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.silence()

    def guarded(self, write: Callable[[], None]) -> None:
        """Run *write* (which prints to stdout); a closed stdout silences the rest."""
        with self._lock:
            if self.closed:
                return
            try:
                write()
                sys.stdout.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.silence()

    def silence(self) -> None:
        """Stop writing: stdout now goes to /dev/null (so a late flush cannot fail)."""
        self.closed = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            return


class Heartbeat:
    """A daemon thread printing ``describe()`` when *output* printed nothing for
    *interval* seconds; ``stop()`` ends it."""

    def __init__(self, output: Output, describe: Callable[[], str], interval: float) -> None:
        self.output, self.describe, self.interval = output, describe, interval
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        while not self._stopped.wait(self.interval / 4):
            if time.monotonic() - self.output.last >= self.interval:
                self.output.line(self.describe())
