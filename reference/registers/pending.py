"""Ratify's atomic commit of a pack and its report, through a pending pair.

``commit_pair`` stages the new pack and report in ``.<stem>.ratify.tmp/`` beside the
pack (each file fsynced, keeping the mode of the file it replaces), then renames it to
``.<stem>.ratify/``: that rename is the commit point. ``roll_forward`` then moves each
file out to its final name and removes the directory. Until it has, a file in the
pending directory takes precedence over the file at its final name (``effective_pair``,
used by the loader), so a reader sees the old pair or the new pair, never one of each.
A staging directory is never read; ``recover`` removes whatever is at its name and
finishes a committed pair, after checking that the pair can be rolled forward: a
directory (not a symbolic link) holding nothing but regular files at the names of the pack
and its report. Anything else there is refused (``PendingPairError``) before anything is
changed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from pathlib import Path

from reference.registers.seal import report_path_for

DEFAULT_FILE_MODE = 0o644


def pending_dir(pack_path: Path) -> Path:
    """The committed pending directory of the pack at *pack_path*."""
    return pack_path.parent / f".{pack_path.stem}.ratify"


def staging_dir(pack_path: Path) -> Path:
    """Where ratify stages the pair before the commit rename (never read)."""
    return pack_path.parent / f".{pack_path.stem}.ratify.tmp"


def effective_pair(pack_path: Path) -> tuple[Path, Path]:
    """The files a reader of the pack at *pack_path* reads: ``(pack, report)``."""
    pending = pending_dir(pack_path)

    def effective(final: Path) -> Path:
        staged = pending / final.name
        return staged if staged.is_file() else final

    return effective(pack_path), effective(report_path_for(pack_path))


def _file_mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return DEFAULT_FILE_MODE


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_synced(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)
        os.fsync(fd)
    finally:
        os.close(fd)


class PendingPairError(OSError):
    """What is at ``.<stem>.ratify`` is not a pair ratify can roll forward."""


def pending_pair(pack_path: Path) -> bool:
    """Whether a committed pair of *pack_path* is pending; :class:`PendingPairError` when
    what is at its name cannot be rolled forward. Reads only; no link is followed."""
    pending = pending_dir(pack_path)
    try:
        mode = os.lstat(pending).st_mode
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(mode):
        raise PendingPairError(errno.ENOTDIR, f"{pending.name} is not a directory")
    names = {pack_path.name, report_path_for(pack_path).name}
    with os.scandir(pending) as entries:
        for entry in entries:
            if entry.name not in names or not entry.is_file(follow_symlinks=False):
                message = f"{pending.name}/{entry.name} is not a file of the pair"
                raise PendingPairError(errno.EEXIST, message)
    return True


def roll_forward(pack_path: Path) -> None:
    """Finish a committed pair: move its files to their final names, remove the directory."""
    pending = pending_dir(pack_path)
    for final in (report_path_for(pack_path), pack_path):
        staged = pending / final.name
        if staged.is_file():
            os.replace(staged, final)
    _fsync_dir(pack_path.parent)
    os.rmdir(pending)
    _fsync_dir(pack_path.parent)


def _remove(path: Path) -> None:
    """Remove whatever is at *path*: a directory with all it holds, else the entry itself
    (a symbolic link is removed, never followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def recover(pack_path: Path) -> None:
    """Remove what is at the staging name and finish a committed pair, if any; refuse a
    pending pair that cannot be rolled forward before changing anything."""
    committed = pending_pair(pack_path)
    _remove(staging_dir(pack_path))
    if committed:
        roll_forward(pack_path)


def commit_pair(pack_path: Path, pack_bytes: bytes, report_bytes: bytes) -> None:
    """Replace the pack and its report together: readers see both new files or both old."""
    recover(pack_path)
    staging = staging_dir(pack_path)
    files = {report_path_for(pack_path): report_bytes, pack_path: pack_bytes}
    os.mkdir(staging)
    try:
        for final, data in files.items():
            _write_synced(staging / final.name, data, _file_mode(final))
        _fsync_dir(staging)
    except BaseException:
        with contextlib.suppress(OSError):
            shutil.rmtree(staging)
        raise
    os.rename(staging, pending_dir(pack_path))
    _fsync_dir(pack_path.parent)
    roll_forward(pack_path)
