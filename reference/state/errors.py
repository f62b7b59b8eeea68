"""The one error type of the persisted state, and the mapping of OS errors onto its codes.

A file-system failure of a state op is always a ``STATE_*`` code (docs/state.md):
``STATE_SYMLINK`` when the entry is a symbolic link, ``STATE_UNREADABLE`` when an entry a
load needs exists but cannot be read, ``STATE_IO`` for every other failure.
"""

from __future__ import annotations

import errno
from pathlib import Path

from reference.errors import EngineError

UNREADABLE_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EIO})


class StateError(EngineError):
    """A refusal of the state store; ``code`` is one of the STATE_* codes of docs/state.md."""

    code = "STATE_ERROR"


def _os_error_text(exc: OSError) -> str:
    name = errno.errorcode.get(exc.errno or 0, "EUNKNOWN")
    return f"{exc.strerror or exc} ({name})"


def symlink_refusal(path: Path) -> StateError:
    """``STATE_SYMLINK``: *path* is a symbolic link the store would have read or written."""
    return StateError(
        f"{path} is a symbolic link; the state store never follows one",
        field="path",
        code="STATE_SYMLINK",
    )


def io_refusal(path: Path, exc: OSError, *, reading: bool) -> StateError:
    """``STATE_UNREADABLE`` for a read that could not be made, else ``STATE_IO``."""
    if reading and exc.errno in UNREADABLE_ERRNOS:
        return StateError(
            f"{path} exists but cannot be read: {_os_error_text(exc)}",
            field="path",
            code="STATE_UNREADABLE",
        )
    verb = "read" if reading else "write"
    return StateError(f"cannot {verb} {path}: {_os_error_text(exc)}", field="path", code="STATE_IO")


def wrong_type(path: Path, expected: str) -> StateError:
    """``STATE_IO``: *path* exists but is not a *expected* (a regular file or a directory)."""
    return StateError(f"{path} is not a {expected}", field="path", code="STATE_IO")
