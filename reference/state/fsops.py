"""Every file-system effect of the state store, and a recorder of those effects.

``FileOps`` performs the effects. ``RecordingFileOps`` performs them too and appends a
plain-JSON description of each to ``ops`` (paths relative to its root, file data in
base64), complete and in order, so that prefixes or subsets of a commit can be replayed
on a copy of the directory to build crash states.
"""

from __future__ import annotations

import base64
import os
import shutil
from pathlib import Path


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class FileOps:
    """Direct file-system effects; each method is one effect."""

    def mkdir(self, path: Path) -> None:
        """Create one directory (its parent must exist)."""
        os.mkdir(path)

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        """Create or truncate *path*, write *data*, and give the file *mode*."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
        finally:
            os.close(fd)

    def append_file(self, path: Path, data: bytes) -> None:
        """Append *data* to *path*, creating it with mode 0644 when missing."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)

    def truncate(self, path: Path, size: int) -> None:
        """Cut *path* to its first *size* bytes."""
        os.truncate(path, size)

    def fsync_file(self, path: Path) -> None:
        """Flush a file's data and metadata to stable storage."""
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def fsync_dir(self, path: Path) -> None:
        """Flush a directory's entries to stable storage."""
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def rename(self, src: Path, dst: Path) -> None:
        """Atomically rename *src* to *dst* (replacing a file, or an empty directory)."""
        os.rename(src, dst)

    def remove_tree(self, path: Path) -> None:
        """Remove a directory and everything in it."""
        shutil.rmtree(path)

    def unlink(self, path: Path) -> None:
        """Remove one file."""
        os.unlink(path)


class RecordingFileOps(FileOps):
    """FileOps that also records each effect, with paths relative to *root*, in ``ops``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.ops: list[dict] = []

    def _rel(self, path: Path) -> str:
        return Path(os.path.relpath(Path(path), self.root)).as_posix()

    def _record(self, op: str, **fields: object) -> None:
        self.ops.append({"op": op, **fields})

    def mkdir(self, path: Path) -> None:
        super().mkdir(path)
        self._record("mkdir", path=self._rel(path))

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        super().write_file(path, data, mode)
        encoded = base64.b64encode(data).decode("ascii")
        self._record("write", path=self._rel(path), data=encoded, mode=mode)

    def append_file(self, path: Path, data: bytes) -> None:
        super().append_file(path, data)
        self._record("append", path=self._rel(path), data=base64.b64encode(data).decode("ascii"))

    def truncate(self, path: Path, size: int) -> None:
        super().truncate(path, size)
        self._record("truncate", path=self._rel(path), size=size)

    def fsync_file(self, path: Path) -> None:
        super().fsync_file(path)
        self._record("fsync", path=self._rel(path))

    def fsync_dir(self, path: Path) -> None:
        super().fsync_dir(path)
        self._record("fsync_dir", path=self._rel(path))

    def rename(self, src: Path, dst: Path) -> None:
        super().rename(src, dst)
        self._record("rename", src=self._rel(src), dst=self._rel(dst))

    def remove_tree(self, path: Path) -> None:
        super().remove_tree(path)
        self._record("remove_tree", path=self._rel(path))

    def unlink(self, path: Path) -> None:
        super().unlink(path)
        self._record("unlink", path=self._rel(path))
