"""Broken engines whose failed ``close`` is taken the wrong way (GAP-010): docs/state.md
§ I/O errors says a failed close of a descriptor opened to write, or one a change went
through, refuses the request it serves with ``STATE_IO``, also when the file's fsync
succeeded before it, and a failed close of a file a load opened to read is the load's read,
``STATE_UNREADABLE``. Only a close the file system fails shows either mistake, so only an
injected failure (STATE-EIO-001, STATE-EIO-002) does.

Each store's file operations run with ``os.close`` replaced while a call of theirs is in
flight (the engine serves one request at a time): a port that closes through a helper of
its own, which drops the close's failure or maps it the writer's way.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from unittest.mock import patch

from reference.serve import ProtocolHandler
from reference.state import FileOps, StateStore
from reference.state.errors import io_refusal

EFFECTS = (
    "read_file",
    "entry_kind",
    "mode_of",
    "list_dir",
    "open_file",
    "mkdir",
    "write_file",
    "append_file",
    "append_synced",
    "truncate",
    "fsync_file",
    "fsync_dir",
    "rename",
    "remove_tree",
    "unlink",
)
"""The public methods of ``FileOps`` that open and close descriptors."""
REAL_CLOSE = os.close
Chooser = Callable[[dict[str, Any]], Callable[[int], None] | None]
"""Which close a call of the file operations runs with, by its keyword arguments."""


def _quiet_close(fd: int) -> None:
    """A close whose failure is dropped (the descriptor's work is done, it seems)."""
    with suppress(OSError):
        REAL_CLOSE(fd)


def _writer_close(fd: int) -> None:
    """A close whose failure is a writer's ``STATE_IO``, whatever opened the descriptor."""
    try:
        shown = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        shown = f"descriptor {fd}"
    try:
        REAL_CLOSE(fd)
    except OSError as exc:
        raise io_refusal(Path(shown), exc, reading=False) from exc


@contextmanager
def _closing_with(close: Callable[[int], None]) -> Iterator[None]:
    with patch("os.close", close):
        yield


def _wrapped(name: str, chooses: Chooser) -> Any:
    """``FileOps.<name>`` of the next class in the MRO (a recorder's too), run with the
    close *chooses* picks for its arguments (None: the real one)."""

    def call(self: FileOps, *args: Any, **kwargs: Any) -> Any:
        method = getattr(super(_owner(type(self), name), self), name)
        close = chooses(kwargs)
        if close is None:
            return method(*args, **kwargs)
        with _closing_with(close):
            return method(*args, **kwargs)

    call.__name__ = name
    call.__doc__ = getattr(FileOps, name).__doc__
    return call


def _owner(cls: type, name: str) -> type:
    """The class of *cls*'s MRO whose own *name* is a wrapper of this module."""
    return next(
        c for c in cls.__mro__ if getattr(c.__dict__.get(name), "__module__", "") == __name__
    )


def _ops_class(name: str, chooses: Chooser) -> type[FileOps]:
    return type(name, (FileOps,), {effect: _wrapped(effect, chooses) for effect in EFFECTS})


_DroppingOps = _ops_class("_DroppingOps", lambda kwargs: _quiet_close)


def _when_reading(default: bool) -> Chooser:
    """The writer's close for a call that reads for a load (*reading*, else *default*)."""
    return lambda kwargs: _writer_close if kwargs.get("reading", default) else None


class _DroppingStore(StateStore):
    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        return _DroppingOps(path)


class _ReadAsWriteOps(FileOps):
    """``read_file`` reads for a load unless told otherwise; the others say which."""

    read_file = _wrapped("read_file", _when_reading(True))
    entry_kind = _wrapped("entry_kind", _when_reading(False))
    list_dir = _wrapped("list_dir", _when_reading(False))


class _ReadAsWriteStore(StateStore):
    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        return _ReadAsWriteOps(path)


class CloseFailureIgnored(ProtocolHandler):
    """Every failed close of the store's file operations is dropped: a proposal or a
    checkpoint whose file's close fails after its fsync succeeded is acknowledged."""

    def store_class(self) -> Any:
        return _DroppingStore


class ReadCloseStateIo(ProtocolHandler):
    """A failed close of a descriptor a load opened to read is refused ``STATE_IO`` (a
    writer's), not ``STATE_UNREADABLE`` (the load's read)."""

    def store_class(self) -> Any:
        return _ReadAsWriteStore
