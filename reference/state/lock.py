"""The single-writer lock: an exclusive, non-blocking ``flock`` on the state directory itself.

Locking the directory (not the ``LOCK`` file) means that unlinking or replacing ``LOCK``
cannot let a second writer in. The lock lives on an open file description, so a second
writer is refused whether it is another process or another store in the same process,
and the OS drops it when the holder dies. ``LOCK`` holds the holder's pid, for the
refusal message only; it is written without following a link. A descriptor whose close
fails after the lock's work is done (or after an earlier failure) is dropped quietly: the
OS has released it, and the pid is advisory.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from reference.state.errors import StateError, io_refusal
from reference.state.fsops import FileOps
from reference.state.layout import LOCK


def _close_quietly(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


class WriterLock:
    """The writer lock of one state directory."""

    def __init__(self, path: Path, fs: FileOps | None = None) -> None:
        self.directory = Path(path)
        self.path = self.directory / LOCK
        self.fs = fs or FileOps(self.directory)
        self._dir_fd: int | None = None
        self._pid_fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._dir_fd is not None

    def _holder(self) -> str:
        try:
            data = self.fs.read_file(self.path) or b""
        except StateError:
            return "unknown"
        text = data[:64].decode("ascii", errors="replace").strip()
        return text if text.isdigit() else "unknown"

    def lock_target(self) -> int:
        """A new descriptor of what the flock is taken on: the state directory itself."""
        try:
            return os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise io_refusal(self.directory, exc, reading=True) from exc

    def _lock_directory(self) -> int:
        fd = self.lock_target()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _close_quietly(fd)
            raise StateError(
                f"state directory {self.directory} is locked by pid {self._holder()}",
                field="path",
                code="STATE_LOCKED",
            ) from None
        except OSError as exc:
            _close_quietly(fd)
            raise io_refusal(self.directory, exc, reading=False) from exc
        return fd

    def _write_pid(self) -> int:
        fd = self.fs.open_file(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except OSError as exc:
            _close_quietly(fd)
            raise io_refusal(self.path, exc, reading=False) from exc
        return fd

    def acquire(self) -> None:
        """Take the lock or raise ``STATE_LOCKED`` naming the holder's pid."""
        dir_fd = self._lock_directory()
        try:
            self._pid_fd = self._write_pid()
        except BaseException:
            _close_quietly(dir_fd)
            raise
        self._dir_fd = dir_fd

    def release(self) -> None:
        """Clear the pid and drop the lock (a no-op when not held)."""
        if self._dir_fd is None:
            return
        dir_fd, self._dir_fd = self._dir_fd, None
        pid_fd, self._pid_fd = self._pid_fd, None
        try:
            if pid_fd is not None:
                with contextlib.suppress(OSError):
                    os.ftruncate(pid_fd, 0)
                _close_quietly(pid_fd)
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(dir_fd, fcntl.LOCK_UN)
            _close_quietly(dir_fd)
