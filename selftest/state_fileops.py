"""Bent file operations: the reference ``FileOps`` with one effect changed.

A broken store returns one of these from its ``file_ops`` hook; the reference commit
protocol runs unchanged on top of it, and ``state.trace_checkpoint`` records what the
bent ``FileOps`` really does.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from reference.canonical import canonical_json, sha256_hex
from reference.state import FileOps, StateError

T = TypeVar("T")
STAGING_PREFIX = "staging-"
DEFAULT_MODE = 0o644


def in_staging(path: Path) -> bool:
    """Whether *path* is a file inside a staging directory."""
    return Path(path).parent.name.startswith(STAGING_PREFIX)


def is_staging(path: Path) -> bool:
    """Whether *path* is a staging directory."""
    return Path(path).name.startswith(STAGING_PREFIX)


class WithoutDirSync(FileOps):
    """No directory is ever fsynced, so no new entry or rename is made durable."""

    def fsync_dir(self, path: Path) -> None:
        return None


class WithoutStagedFileSync(FileOps):
    """Files written into a staging directory are never fsynced before the rename."""

    def fsync_file(self, path: Path) -> None:
        if not in_staging(path):
            super().fsync_file(path)


class DefaultModes(FileOps):
    """Files written into a staging directory always get mode 0644."""

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        super().write_file(path, data, DEFAULT_MODE if in_staging(path) else mode)


class OneModePerGeneration(FileOps):
    """Every file of a staging directory gets the mode asked for the first one written."""

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        if in_staging(path):
            firsts: dict[Path, int] = self.__dict__.setdefault("_first_modes", {})
            mode = firsts.setdefault(Path(path).parent, mode)
        super().write_file(path, data, mode)


class KeepingLeftovers(FileOps):
    """A leftover staging directory is neither removed nor recreated, and its files are kept."""

    def remove_tree(self, path: Path) -> None:
        if not is_staging(path):
            super().remove_tree(path)

    def mkdir(self, path: Path) -> None:
        if not (is_staging(path) and Path(path).is_dir()):
            super().mkdir(path)

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        if not (in_staging(path) and Path(path).exists()):
            super().write_file(path, data, mode)


class FollowingLinks(FileOps):
    """Entries are opened through symbolic links, wherever they lead."""

    follow_links = True


class UnreadableAsMissing(FileOps):
    """A file that exists but cannot be read is taken for a missing one."""

    def read_file(self, path: Path) -> bytes | None:
        try:
            return super().read_file(path)
        except StateError as refusal:
            if refusal.code != "STATE_UNREADABLE":
                raise
            return None


class BareListing(FileOps):
    """Directories are listed with a bare ``os.listdir``: its failures escape untyped."""

    def list_dir(self, path: Path, *, reading: bool) -> list[str]:
        try:
            return sorted(os.listdir(path))
        except FileNotFoundError:
            return []


class NeverTruncating(FileOps):
    """Truncation does nothing, so the store never cuts a torn journal tail."""

    def truncate(self, path: Path, size: int) -> None:
        return None


class UnreadableModes(FileOps):
    """A live file whose mode cannot be read is ``STATE_UNREADABLE``, as if a load needed it."""

    def mode_of(self, path: Path) -> int | None:
        return _as_unreadable(lambda: super(UnreadableModes, self).mode_of(path))


class NonRegularAsMissing(FileOps):
    """A file to read that is not a regular file (a named pipe) is taken for a missing one."""

    def read_file(self, path: Path) -> bytes | None:
        try:
            return super().read_file(path)
        except StateError as refusal:
            if refusal.code != "STATE_IO" or self.entry_kind(path, reading=True) != "other":
                raise
            return None


READ_BUFFER = 1 << 16


class SingleRead(FileOps):
    """A file is read with one ``read`` of 64 KiB: anything past it is silently lost."""

    def read_file(self, path: Path) -> bytes | None:
        data = super().read_file(path)
        return None if data is None else data[:READ_BUFFER]


class UnreadableWrites(FileOps):
    """A directory made, a file unlinked or a tree removed that fails is
    ``STATE_UNREADABLE``, as if it had been a read a load needed."""

    def mkdir(self, path: Path) -> None:
        _as_unreadable(lambda: super(UnreadableWrites, self).mkdir(path))

    def unlink(self, path: Path) -> None:
        _as_unreadable(lambda: super(UnreadableWrites, self).unlink(path))

    def remove_tree(self, path: Path) -> None:
        _as_unreadable(lambda: super(UnreadableWrites, self).remove_tree(path))


class UnwritableLockUnreadable(FileOps):
    """A file that cannot be created (``LOCK`` in a read-only directory) is
    ``STATE_UNREADABLE``, as if it had been a read."""

    def open_file(self, path: Path, flags: int, mode: int) -> int:
        return _as_unreadable(
            lambda: super(UnwritableLockUnreadable, self).open_file(path, flags, mode)
        )


class WriterListsAsLoad(FileOps):
    """Every listing and ``lstat`` fails as a load's would (``STATE_UNREADABLE``), a
    checkpoint's or a proposal's too."""

    def list_dir(self, path: Path, *, reading: bool) -> list[str]:
        return super().list_dir(path, reading=True)

    def entry_kind(self, path: Path, *, reading: bool) -> str | None:
        return super().entry_kind(path, reading=True)


class RootFailureAsIO(FileOps):
    """A state directory that cannot be opened is ``STATE_IO``, for a load too."""

    def _open_root(self, *, reading: bool) -> int:
        return super()._open_root(reading=False)


class MissingUnderWriteEscapes(FileOps):
    """A directory made or a file opened for writing where the state directory is gone
    raises the bare OS error (``ENGINE_INTERNAL``), not ``STATE_IO``."""

    def mkdir(self, path: Path) -> None:
        if not self.root.exists():
            os.mkdir(path)
        super().mkdir(path)

    def open_file(self, path: Path, flags: int, mode: int) -> int:
        if not self.root.exists():
            return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
        return super().open_file(path, flags, mode)


def _as_unreadable(effect: Callable[[], T]) -> T:
    """*effect*'s result; a ``STATE_IO`` refusal is raised as ``STATE_UNREADABLE``."""
    try:
        return effect()
    except StateError as refusal:
        if refusal.code != "STATE_IO":
            raise
        raise StateError(refusal.message, field=refusal.field, code="STATE_UNREADABLE") from None


def _retried(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError:
        os.fsync(fd)


class RetriedSyncs(FileOps):
    """A failed fsync is retried at once on the same descriptor, and a success believed."""

    def _with_file(self, path: Path, flags: int, mode: int, use: Callable[[int], T]) -> T:
        retried: Callable[[int], object] = _retried if use is os.fsync else use
        return super()._with_file(path, flags, mode, retried)  # type: ignore[arg-type]

    def append_synced(self, path: Path, data: bytes) -> None:
        def append(fd: int) -> None:
            os.write(fd, data)
            _retried(fd)

        self._with_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644, append)


HEADER_SIZE = 18


class TwoWriteAppends(FileOps):
    """A journal line is appended in two writes, its header then its payload (a legitimate
    way to write it; what a failure between them leaves is the store's business)."""

    def append_synced(self, path: Path, data: bytes) -> None:
        def append(fd: int) -> None:
            os.write(fd, data[:HEADER_SIZE])
            os.write(fd, data[HEADER_SIZE:])
            os.fsync(fd)

        self._with_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644, append)


class UntypedCloses(FileOps):
    """A descriptor is closed with a bare ``os.close``: a failed close escapes untyped."""

    def _with_file(self, path: Path, flags: int, mode: int, use: Callable[[int], T]) -> T:
        fd = self.open_file(path, flags, mode)
        try:
            return use(fd)
        except OSError as exc:
            raise StateError(f"cannot write {path}: {exc}", field="path", code="STATE_IO") from exc
        finally:
            os.close(fd)


class WritesUnreadable(FileOps):
    """A failed write of a file (its open for writing, a write, an fsync, its close) is
    answered STATE_UNREADABLE, as a load's read, not STATE_IO."""

    def _with_file(self, path: Path, flags: int, mode: int, use: Callable[[int], T]) -> T:
        try:
            return super()._with_file(path, flags, mode, use)
        except StateError as refusal:
            if refusal.code != "STATE_IO":
                raise
            raise StateError(str(refusal), field="path", code="STATE_UNREADABLE") from refusal


MAIN_FILES = {"core.jsonl", "delta.jsonl"}


def _plain(name: str) -> bool:
    return name not in ("", ".", "..") and "/" not in name


class MainFileOnly(FileOps):
    """A manifest is read with the plain file names its ``files`` lists beside the
    generation's main file (``core.jsonl`` or ``delta.jsonl``) dropped and its checksum
    recomputed: any other file it lists is never checked, missing or not."""

    def read_file(self, path: Path) -> bytes | None:
        data = super().read_file(path)
        if data is None or path.name != "manifest.json":
            return data
        try:
            body = json.loads(data)
            files = body["files"]
            kept = {k: v for k, v in files.items() if k in MAIN_FILES or not _plain(k)}
        except (ValueError, KeyError, TypeError, AttributeError):
            return data
        if kept == files or not MAIN_FILES & set(kept):
            return data
        body = {k: v for k, v in body.items() if k != "checksum"}
        body["files"] = kept
        checksum = sha256_hex(canonical_json(body).encode("utf-8"))
        return canonical_json({**body, "checksum": checksum}).encode("utf-8") + b"\n"


class ManifestEncodingDetected(FileOps):
    """A manifest's bytes are parsed in whatever encoding they look like (a byte order mark
    skipped, UTF-16 and UTF-32 read), as Python's ``json.loads`` of bytes does."""

    def read_file(self, path: Path, *, reading: bool = True) -> bytes | None:
        data = super().read_file(path, reading=reading)
        if data is None or Path(path).name != "manifest.json":
            return data
        try:
            return json.dumps(json.loads(data), ensure_ascii=False).encode("utf-8")
        except ValueError:
            return data
