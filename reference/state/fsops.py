"""Every file-system effect of the state store, confined to its state directory.

``FileOps(root)`` takes paths beneath *root* and resolves them one component at a time,
relative to directory descriptors, never following a symbolic link (``O_NOFOLLOW``);
*root* itself may be a link, chosen by the caller. Failures are ``StateError``: a link
where the store reads or writes is ``STATE_SYMLINK``, an entry that exists but cannot be
read is ``STATE_UNREADABLE``, anything else ``STATE_IO``. Reads of a missing entry
answer ``None`` (or an empty listing); a missing entry under a write is ``STATE_IO``.

A descriptor the store opens is closed before the call returns; a failed ``close`` is a
refusal like any other, unless an earlier failure is already on its way out: the first
failure is the one reported.

``RecordingFileOps`` performs the effects too and appends a plain-JSON description of
each to ``ops`` (paths relative to its root, file data in base64), complete and in
order, so that prefixes or subsets of a commit can be replayed to build crash states.
"""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from reference.state.errors import io_refusal, symlink_refusal, wrong_type

T = TypeVar("T")
_RAISE = object()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _close_quietly(fds: Iterable[int]) -> None:
    """Close *fds* while an earlier failure is on its way out (theirs would hide it)."""
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _close_all(opened: list[tuple[int, Path]], *, reading: bool) -> None:
    """Close each descriptor (innermost first); the first failure is raised, naming its path."""
    first: Exception | None = None
    for fd, shown in reversed(opened):
        try:
            os.close(fd)
        except OSError as exc:
            first = first or io_refusal(shown, exc, reading=reading)
    if first is not None:
        raise first


@contextmanager
def _closing(fd: int, shown: Path, *, reading: bool) -> Iterator[int]:
    """Yield *fd*, then close it: a failed close names *shown*, unless the block failed first."""
    try:
        yield fd
    except BaseException:
        _close_quietly([fd])
        raise
    _close_all([(fd, shown)], reading=reading)


def _rmtree(name: str, dir_fd: int, shown: Path) -> None:
    """``shutil.rmtree`` of *name* under *dir_fd*; a failure names the entry that failed."""

    def failed(function: object, failing: str, info: Any) -> None:
        exc = info if isinstance(info, BaseException) else info[1]
        if not isinstance(exc, OSError):
            raise exc
        raise io_refusal(shown.parent / failing, exc, reading=False) from exc

    if sys.version_info >= (3, 12):
        shutil.rmtree(name, dir_fd=dir_fd, onexc=failed)
    else:
        shutil.rmtree(name, dir_fd=dir_fd, onerror=failed)


def _is_link(dir_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode)
    except OSError:
        return False


def _failure(exc: OSError, dir_fd: int, name: str, shown: Path, *, reading: bool) -> Exception:
    if name != "." and _is_link(dir_fd, name):
        return symlink_refusal(shown)
    return io_refusal(shown, exc, reading=reading)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


class FileOps:
    """The file-system effects of one state directory; each effect method is one effect."""

    follow_links = False
    """Whether entries beneath the root are opened through symbolic links (never, here)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @property
    def _open_flags(self) -> int:
        return os.O_CLOEXEC | (0 if self.follow_links else os.O_NOFOLLOW)

    def _open_dir(self, dir_fd: int, name: str) -> int:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | self._open_flags, dir_fd=dir_fd)

    def _stat(self, dir_fd: int, name: str) -> os.stat_result:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=self.follow_links)

    # Resolution --------------------------------------------------------------------------

    def _parts(self, path: Path) -> tuple[str, ...]:
        parts = Path(path).relative_to(self.root).parts
        if ".." in parts:
            raise ValueError(f"{path} leaves the state directory {self.root}")
        return parts

    def _open_root(self, *, reading: bool) -> int:
        try:
            return os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise io_refusal(self.root, exc, reading=reading) from exc

    @contextmanager
    def _at(self, path: Path, *, reading: bool) -> Iterator[tuple[int, str]]:
        """The directory holding *path* (a descriptor) and its name; missing passes through.

        The directories opened on the way are closed on leaving, the innermost first.
        """
        parts = self._parts(path)
        opened = [(self._open_root(reading=reading), self.root)]
        try:
            for depth, part in enumerate(parts[:-1]):
                shown = self.root.joinpath(*parts[: depth + 1])
                try:
                    opened.append((self._open_dir(opened[-1][0], part), shown))
                except FileNotFoundError:
                    raise
                except OSError as exc:
                    raise _failure(exc, opened[-1][0], part, shown, reading=reading) from exc
            yield opened[-1][0], parts[-1] if parts else "."
        except BaseException:
            _close_quietly(fd for fd, _ in reversed(opened))
            raise
        _close_all(opened, reading=reading)

    def _do(
        self,
        path: Path,
        action: Callable[[int, str], T],
        *,
        reading: bool,
        missing: object = _RAISE,
    ) -> T:
        """Run *action(dir_fd, name)* on *path*; map OS errors onto STATE_* refusals."""
        shown = Path(path)
        try:
            with self._at(shown, reading=reading) as (fd, name):
                try:
                    return action(fd, name)
                except FileNotFoundError:
                    raise
                except OSError as exc:
                    raise _failure(exc, fd, name, shown, reading=reading) from exc
        except FileNotFoundError as exc:
            if missing is _RAISE:
                raise io_refusal(shown, exc, reading=reading) from exc
            return missing  # type: ignore[return-value]

    # Reads (no effect) -------------------------------------------------------------------

    def read_file(self, path: Path, *, reading: bool = True) -> bytes | None:
        """The bytes of the regular file *path*, or None when it does not exist.

        *reading* says whether a load asks (a failure is ``STATE_UNREADABLE``), not a write.
        """

        def read(fd: int, name: str) -> bytes:
            file = os.open(name, os.O_RDONLY | os.O_NONBLOCK | self._open_flags, dir_fd=fd)
            with _closing(file, Path(path), reading=reading):
                if not stat.S_ISREG(os.fstat(file).st_mode):
                    raise wrong_type(Path(path), "regular file")
                return _read_all(file)

        return self._do(path, read, reading=reading, missing=None)

    def entry_kind(self, path: Path, *, reading: bool) -> str | None:
        """``link``, ``dir``, ``file`` or ``other`` (never following a link); None when missing.

        *reading* says whether a load asks (a failure is ``STATE_UNREADABLE``), not a write.
        """
        return self._do(
            path,
            lambda fd, name: _kind(self._stat(fd, name).st_mode),
            reading=reading,
            missing=None,
        )

    def mode_of(self, path: Path) -> int | None:
        """The permission bits of *path* (not following a link), or None when missing.

        Only a checkpoint asks (for the live file's mode), so a failure is ``STATE_IO``.
        """
        return self._do(
            path,
            lambda fd, name: stat.S_IMODE(self._stat(fd, name).st_mode),
            reading=False,
            missing=None,
        )

    def list_dir(self, path: Path, *, reading: bool) -> list[str]:
        """The sorted entry names of the directory *path*; empty when it does not exist.

        *reading* says whether a load asks (a failure is ``STATE_UNREADABLE``), not a write.
        """

        def listing(fd: int, name: str) -> list[str]:
            directory = self._open_dir(fd, name)
            with _closing(directory, Path(path), reading=reading):
                return sorted(os.listdir(directory))

        return self._do(path, listing, reading=reading, missing=[])

    def open_file(self, path: Path, flags: int, mode: int) -> int:
        """A descriptor of *path* opened with *flags* (never following a link); caller closes."""
        return self._do(
            path,
            lambda fd, name: os.open(name, flags | self._open_flags, mode, dir_fd=fd),
            reading=False,
        )

    # Effects -----------------------------------------------------------------------------

    def mkdir(self, path: Path) -> None:
        """Create one directory (its parent must exist)."""
        self._do(path, lambda fd, name: os.mkdir(name, dir_fd=fd), reading=False)

    def _with_file(self, path: Path, flags: int, mode: int, use: Callable[[int], T]) -> T:
        """Open *path* (never following a link), run *use(fd)* and close it; a failure of
        any of the three is ``STATE_IO`` naming *path* (the first one, when two fail)."""
        fd = self.open_file(path, flags, mode)
        try:
            with _closing(fd, Path(path), reading=False):
                return use(fd)
        except OSError as exc:
            raise io_refusal(Path(path), exc, reading=False) from exc

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        """Create or truncate *path*, write *data*, and give the file *mode*."""

        def write(fd: int) -> None:
            _write_all(fd, data)
            os.fchmod(fd, mode)

        self._with_file(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode, write)

    def append_file(self, path: Path, data: bytes) -> None:
        """Append *data* to *path*, creating it with mode 0644 when missing."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        self._with_file(path, flags, 0o644, lambda fd: _write_all(fd, data))

    def append_synced(self, path: Path, data: bytes) -> None:
        """Append *data* to *path* (created with mode 0644 when missing) and fsync it, both
        through one descriptor, so the fsync reports any failure of the write-back."""

        def append(fd: int) -> None:
            _write_all(fd, data)
            os.fsync(fd)

        self._with_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644, append)

    def truncate(self, path: Path, size: int) -> None:
        """Cut *path* to its first *size* bytes."""
        self._with_file(path, os.O_WRONLY, 0, lambda fd: os.ftruncate(fd, size))

    def fsync_file(self, path: Path) -> None:
        """Flush a file's data and metadata to stable storage."""
        self._with_file(path, os.O_RDONLY, 0, os.fsync)

    def fsync_dir(self, path: Path) -> None:
        """Flush a directory's entries to stable storage."""
        self._with_file(path, os.O_RDONLY | os.O_DIRECTORY, 0, os.fsync)

    def rename(self, src: Path, dst: Path) -> None:
        """Atomically rename *src* to *dst* (replacing a file, or an empty directory)."""

        def move(src_fd: int, src_name: str) -> None:
            def into(dst_fd: int, dst_name: str) -> None:
                os.rename(src_name, dst_name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)

            self._do(dst, into, reading=False)

        self._do(src, move, reading=False)

    def remove_tree(self, path: Path) -> None:
        """Remove a directory and everything in it (links inside are removed, not followed)."""

        def remove(fd: int, name: str) -> None:
            if not self.follow_links and _is_link(fd, name):
                raise symlink_refusal(Path(path))
            _rmtree(name, fd, Path(path))

        self._do(path, remove, reading=False)

    def unlink(self, path: Path) -> None:
        """Remove one file."""
        self._do(path, lambda fd, name: os.unlink(name, dir_fd=fd), reading=False)


class RecordingFileOps(FileOps):
    """FileOps that also records each effect, with paths relative to *root*, in ``ops``."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.ops: list[dict[str, object]] = []

    def _rel(self, path: Path) -> str:
        return "/".join(self._parts(path)) or "."

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

    def append_synced(self, path: Path, data: bytes) -> None:
        super().append_synced(path, data)
        self._record("append", path=self._rel(path), data=base64.b64encode(data).decode("ascii"))
        self._record("fsync", path=self._rel(path))

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


def recorder_of(fs: FileOps) -> RecordingFileOps:
    """A recorder over the same root that performs *fs*'s own effects (and only those).

    Its class derives from ``type(fs)`` before :class:`RecordingFileOps`, so an effect a
    ``FileOps`` subclass skips is neither performed nor recorded.
    """
    if type(fs) is FileOps:
        return RecordingFileOps(fs.root)
    bases = (type(fs), RecordingFileOps)
    recording: type[RecordingFileOps] = type(f"Recording{type(fs).__name__}", bases, {})
    return recording(fs.root)
