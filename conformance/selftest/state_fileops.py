"""File operations that forward to another ``FileOps``, and bent ones that change one effect.

A broken store hands a bent ``FileOps`` to the reference commit protocol: the protocol's
code is unchanged, the defect lives in the effects alone, and ``state.trace_checkpoint``
still records exactly the effects the store performed.
"""

from __future__ import annotations

from pathlib import Path

from reference.state.fsops import FileOps
from reference.state.layout import DEFAULT_MODE

STAGING_PREFIX = "staging-"


def in_staging(path: Path) -> bool:
    """Whether *path* is a file inside a staging directory."""
    return Path(path).parent.name.startswith(STAGING_PREFIX)


def is_staging(path: Path) -> bool:
    """Whether *path* is a staging directory."""
    return Path(path).name.startswith(STAGING_PREFIX)


class ForwardingOps(FileOps):
    """Performs every effect through *inner*; a subclass changes one of them."""

    def __init__(self, inner: FileOps) -> None:
        self.inner = inner

    def mkdir(self, path: Path) -> None:
        self.inner.mkdir(path)

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        self.inner.write_file(path, data, mode)

    def append_file(self, path: Path, data: bytes) -> None:
        self.inner.append_file(path, data)

    def truncate(self, path: Path, size: int) -> None:
        self.inner.truncate(path, size)

    def fsync_file(self, path: Path) -> None:
        self.inner.fsync_file(path)

    def fsync_dir(self, path: Path) -> None:
        self.inner.fsync_dir(path)

    def rename(self, src: Path, dst: Path) -> None:
        self.inner.rename(src, dst)

    def remove_tree(self, path: Path) -> None:
        self.inner.remove_tree(path)

    def unlink(self, path: Path) -> None:
        self.inner.unlink(path)


class WithoutDirSync(ForwardingOps):
    """No directory is ever fsynced, so no new entry or rename is made durable."""

    def fsync_dir(self, path: Path) -> None:
        return None


class WithoutStagedFileSync(ForwardingOps):
    """Files written into a staging directory are never fsynced before the rename."""

    def fsync_file(self, path: Path) -> None:
        if not in_staging(path):
            self.inner.fsync_file(path)


class DefaultModes(ForwardingOps):
    """Files written into a staging directory always get mode 0644."""

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        self.inner.write_file(path, data, DEFAULT_MODE if in_staging(path) else mode)


class KeepingLeftovers(ForwardingOps):
    """A leftover staging directory is neither removed nor recreated, and its files are kept."""

    def remove_tree(self, path: Path) -> None:
        if not is_staging(path):
            self.inner.remove_tree(path)

    def mkdir(self, path: Path) -> None:
        if not (is_staging(path) and Path(path).is_dir()):
            self.inner.mkdir(path)

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        if not (in_staging(path) and Path(path).exists()):
            self.inner.write_file(path, data, mode)
