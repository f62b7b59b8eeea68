"""The backstop of a budget's promise: work that sends no request through the engine
client (a requirement's own engine processes, the suite's own computing) is stopped too.

A budgeted run stops cleanly at its deadline before the next request
(:attr:`conformance.engines.base.EngineClient.stop_at`). Work that does not go through
that client would run on: :func:`backstop` arms a watchdog thread that, from the moment
*at* (monotonic clock) on, signals the main thread (``SIGUSR1``, every half second until
the block ends); while *armed* () is true the signal raises
:class:`~conformance.stopping.DeadlineReached` there, interrupting even a blocking read.
The caller then ends the run: the engine exchange it may have cut is not trusted again.
Outside the main thread the block runs without a backstop.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from conformance.stopping import DeadlineReached

SIGNAL = signal.SIGUSR1
REPEAT_S = 0.5


@contextmanager
def backstop(at: float, armed: Callable[[], bool]) -> Iterator[None]:
    """Within the block, raise DeadlineReached in the main thread from *at* on, whenever
    *armed* () is true when the signal arrives."""
    main = threading.main_thread()
    if threading.current_thread() is not main:
        yield
        return
    done = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        if armed():
            raise DeadlineReached

    def watch() -> None:
        if done.wait(max(0.0, at - time.monotonic())):
            return
        while not done.is_set() and main.ident is not None:
            signal.pthread_kill(main.ident, SIGNAL)
            done.wait(REPEAT_S)

    previous = signal.signal(SIGNAL, handler)
    watchdog = threading.Thread(target=watch, name="budget-backstop", daemon=True)
    watchdog.start()
    try:
        yield
    finally:
        done.set()
        watchdog.join()
        signal.signal(SIGNAL, previous)
