"""Broken engines that end their process wrongly with a store open (docs/state.md § Shutdown).

Each is the reference ``ProtocolHandler`` with its end of serving replaced: the host
(``python -m conformance.engines.host``) calls ``close()`` at end of input and on SIGTERM
or SIGINT while it waits, and ends a signalled process with ``signal_status(signum)``.
``STATE-SHUTDOWN-601`` fails on each.
"""

from __future__ import annotations

import contextlib

from reference.serve import ProtocolHandler
from reference.state import StateError


class ShutdownCommitsDirty(ProtocolHandler):
    """Ends serving as `state.close` would: each store still open commits what changed."""

    def close(self) -> None:
        stores, self.stores = self.stores, {}
        for opened in stores.values():
            with contextlib.suppress(StateError):
                opened.close()


class ShutdownKeepsLock(ProtocolHandler):
    """Ends serving without releasing its stores: `LOCK` keeps the pid (the kernel frees
    the name at exit)."""

    def close(self) -> None:
        self.stores = {}


class ShutdownSignalStatusZero(ProtocolHandler):
    """Ends on SIGTERM or SIGINT with status 0, as after end of input, not 128 + the signal."""

    def signal_status(self, signum: int) -> int:
        return 0


class ShutdownStopsAtClosedHandle(ProtocolHandler):
    """Ends serving by releasing its stores in the order they were opened, with no guard:
    the handle of a store whose `state.close` failed (closed all the same) raises, so the
    stores after it keep `LOCK` and the process ends with a traceback."""

    def close(self) -> None:
        stores, self.stores = self.stores, {}
        for opened in stores.values():
            opened.release()
