"""The single-writer lock: a Unix socket bound in Linux's abstract namespace under a name
made of the state directory's device and inode numbers (docs/state.md § Single writer).

The kernel refuses a second bind of the name, to another process or to this one, and
frees it when the holder's socket closes: at release, exit or SIGKILL. The name belongs to
the directory, not to ``LOCK``, so unlinking or replacing ``LOCK`` cannot let a second
writer in. ``LOCK`` holds the holder's pid, for the refusal message only; it is written
without following a link. A descriptor whose close fails after its work is done (or after
an earlier failure) is dropped quietly: the OS has released it, and the pid is advisory.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
from pathlib import Path

from reference.state.errors import StateError, io_refusal
from reference.state.fsops import FileOps
from reference.state.layout import LOCK

SUN_PATH = 108
"""Bytes of ``sockaddr_un.sun_path`` on Linux; the whole of it is the lock's name."""


def _close_quietly(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


def lock_address(device: int, inode: int) -> bytes:
    """The abstract address of the lock on a directory: NUL, the name, NULs to 108 bytes.

    Runtimes disagree on an abstract name's length (Node.js binds all of ``sun_path``),
    so the name is padded to the full 108 bytes, which every runtime binds alike.
    """
    name = f"core-state-lock/{device}/{inode}".encode("ascii")
    return b"\0" + name.ljust(SUN_PATH - 1, b"\0")


class WriterLock:
    """The writer lock of one state directory."""

    def __init__(self, path: Path, fs: FileOps | None = None) -> None:
        self.directory = Path(path)
        self.path = self.directory / LOCK
        self.fs = fs or FileOps(self.directory)
        self._socket: socket.socket | None = None
        self._pid_fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._socket is not None

    def _holder(self) -> str:
        try:
            data = self.fs.read_file(self.path) or b""
        except StateError:
            return "unknown"
        text = data[:64].decode("ascii", errors="replace").strip()
        return text if text.isdigit() else "unknown"

    def lock_target(self) -> tuple[int, int]:
        """The device and inode numbers the lock is named after: the state directory's."""
        try:
            fd = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise io_refusal(self.directory, exc, reading=True) from exc
        try:
            found = os.fstat(fd)
        except OSError as exc:
            raise io_refusal(self.directory, exc, reading=True) from exc
        finally:
            _close_quietly(fd)
        return found.st_dev, found.st_ino

    def address(self) -> bytes:
        """The abstract address this lock binds."""
        return lock_address(*self.lock_target())

    def _bind(self) -> socket.socket:
        address = self.address()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        try:
            sock.bind(address)
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE:
                raise StateError(
                    f"state directory {self.directory} is locked by pid {self._holder()}",
                    field="path",
                    code="STATE_LOCKED",
                ) from None
            raise io_refusal(self.directory, exc, reading=False) from exc
        return sock

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
        sock = self._bind()
        try:
            self._pid_fd = self._write_pid()
        except BaseException:
            sock.close()
            raise
        self._socket = sock

    def release(self) -> None:
        """Clear the pid and free the name (a no-op when not held)."""
        if self._socket is None:
            return
        sock, self._socket = self._socket, None
        pid_fd, self._pid_fd = self._pid_fd, None
        try:
            if pid_fd is not None:
                with contextlib.suppress(OSError):
                    os.ftruncate(pid_fd, 0)
                _close_quietly(pid_fd)
        finally:
            sock.close()
