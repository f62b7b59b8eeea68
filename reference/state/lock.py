"""The single-writer lock: an exclusive, non-blocking ``flock`` on ``<dir>/LOCK``.

The lock lives on an open file description, so a second writer is refused whether it is
another process or another store in the same process; the OS drops the lock when the
holder dies. The holder's pid is written into the file for the refusal message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from reference.state.errors import StateError
from reference.state.layout import LOCK


class WriterLock:
    """The writer lock of one state directory."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path) / LOCK
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def _holder(self, fd: int) -> str:
        text = os.pread(fd, 64, 0).decode("ascii", errors="replace").strip()
        return text if text.isdigit() else "unknown"

    def acquire(self) -> None:
        """Take the lock or raise ``STATE_LOCKED`` naming the holder's pid."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._holder(fd)
            os.close(fd)
            raise StateError(
                f"state directory {self.path.parent} is locked by pid {holder}",
                field="path",
                code="STATE_LOCKED",
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        """Clear the pid and drop the lock (a no-op when not held)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
