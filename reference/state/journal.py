"""Framed journal lines: writing one, and recovering a journal after a crash.

A line is ``<length:08x> <crc32:08x> <payload>\\n`` with the payload canonical JSON.
Recovery keeps every good line, reports complete lines whose length or checksum does not
match, or whose payload is not a JSON object (NaN and lone surrogates are not JSON), by
1-based line number and skips them, and cuts off a torn last line.

Appending is all or nothing from a reader's view (docs/state.md § I/O errors): a
``JournalWriter`` knows how many bytes its journal's good lines take, and when an append
fails (a short write, a failed fsync or close, the directory fsync of a journal it
created) it cuts the file back to them and rewrites the journal: the good lines staged
as ``staging-<journal name>``, fsynced, renamed into place, the directory fsynced. A
failed fsync may have dropped dirty pages that a later fsync would not report, so the
journal is *stale* until that rewrite succeeds, and each append first retries it.
"""

from __future__ import annotations

import contextlib
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.canonical import canonical_bytes
from reference.jsonio import loads_untrusted
from reference.state.errors import StateError
from reference.state.fsops import FileOps
from reference.state.layout import DEFAULT_MODE, STAGING_PREFIX

_HEADER = re.compile(rb"([0-9a-f]{8}) ([0-9a-f]{8}) ")
_HEADER_SIZE = 18


@dataclass(frozen=True)
class JournalRecovery:
    """What a journal holds: good entries, skipped line numbers, bytes of torn tail cut, and
    the bytes recovery keeps (every complete line, corrupt ones included)."""

    entries: tuple[dict[str, Any], ...]
    skipped: tuple[int, ...]
    cut_bytes: int
    size: int = 0


def frame(payload: dict[str, Any]) -> bytes:
    """One journal line for *payload*."""
    data = canonical_bytes(payload)
    return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"


def append(path: Path, payload: dict[str, Any], fs: FileOps | None = None) -> None:
    """Append one framed line to *path*, all or nothing, and make it durable (see
    :class:`JournalWriter`); a torn tail is cut first."""
    path = Path(path)
    JournalWriter.open(path, fs or FileOps(path.parent))[0].append(payload)


class JournalWriter:
    """Appends to one journal; *size* is the bytes of its good lines (None: learnt from the
    file at the first append)."""

    def __init__(self, path: Path, fs: FileOps, size: int | None = None) -> None:
        self.path = Path(path)
        self.fs = fs
        self.size = size
        self.stale = False

    @classmethod
    def open(cls, path: Path, fs: FileOps) -> tuple[JournalWriter, JournalRecovery]:
        """Recover the journal at *path* (cutting a torn tail) and a writer after its lines."""
        found = recover(path, repair=True, fs=fs)
        return cls(path, fs, found.size), found

    def append(self, payload: dict[str, Any]) -> None:
        """Append one framed line and make it durable, or refuse with ``STATE_IO`` naming
        the first failure and leave the journal as it was (and rewrite it)."""
        line = frame(payload)
        if self.stale:
            self.rewrite()
        size = self._size()
        created = self.fs.entry_kind(self.path, reading=False) is None
        try:
            self.fs.append_synced(self.path, line)
            if created:
                self.fs.fsync_dir(self.path.parent)
        except StateError:
            self._roll_back(size)
            raise
        self.size = size + len(line)

    def _size(self) -> int:
        if self.size is None:
            self.size = len(self.fs.read_file(self.path, reading=False) or b"")
        return self.size

    def _roll_back(self, size: int) -> None:
        """After a failed append: cut the file back to *size*, then rewrite it. A failure
        here is not reported (the append's is); the journal stays stale instead."""
        self.size, self.stale = size, True
        with contextlib.suppress(StateError):
            self.fs.truncate(self.path, size)
        with contextlib.suppress(StateError):
            self.rewrite()

    def rewrite(self) -> None:
        """Write the journal's good lines afresh: staged, fsynced, renamed into place, the
        directory fsynced. Nothing to write for a journal that never held a line."""
        data = self.fs.read_file(self.path, reading=False)
        size = self._size()
        if data is None and not size:
            self.stale = False
            return
        if data is None or len(data) < size:
            raise StateError(
                f"cannot rewrite {self.path}: it holds {len(data or b'')} bytes, fewer than "
                f"the {size} of its acknowledged lines",
                field="path",
                code="STATE_IO",
            )
        staged = self.path.parent / (STAGING_PREFIX + self.path.name)
        mode = self.fs.mode_of(self.path)
        self.fs.write_file(staged, data[:size], DEFAULT_MODE if mode is None else mode)
        self.fs.fsync_file(staged)
        self.fs.rename(staged, self.path)
        self.fs.fsync_dir(self.path.parent)
        self.stale = False


def _declared(line: bytes) -> int | None:
    match = _HEADER.match(line)
    return int(match.group(1), 16) if match else None


def checked_payload(line: bytes) -> bytes | None:
    """The payload of *line* (without its ``\\n``) when its header, length and CRC-32 check,
    else None."""
    match = _HEADER.match(line)
    if match is None:
        return None
    payload = line[_HEADER_SIZE:]
    if len(payload) != int(match.group(1), 16) or zlib.crc32(payload) != int(match.group(2), 16):
        return None
    return payload


def _entry(line: bytes) -> dict[str, Any] | None:
    """The payload of a good line, or None when the line is corrupt."""
    payload = checked_payload(line)
    if payload is None:
        return None
    try:
        value = loads_untrusted(payload)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _is_torn(line: bytes, is_last: bool) -> bool:
    declared = _declared(line)
    return is_last and declared is not None and len(line) - _HEADER_SIZE < declared


def scan(data: bytes) -> JournalRecovery:
    """Recover the entries of journal bytes (no file is touched)."""
    entries: list[dict[str, Any]] = []
    skipped: list[int] = []
    pos, number = 0, 0
    while pos < len(data):
        number += 1
        end = data.find(b"\n", pos)
        line = None if end < 0 else data[pos:end]
        if line is None or _is_torn(line, end + 1 == len(data)):
            return JournalRecovery(tuple(entries), tuple(skipped), len(data) - pos, pos)
        entry = _entry(line)
        if entry is None:
            skipped.append(number)
        else:
            entries.append(entry)
        pos = end + 1
    return JournalRecovery(tuple(entries), tuple(skipped), 0, len(data))


def recover(path: Path, *, repair: bool, fs: FileOps | None = None) -> JournalRecovery:
    """Recover the journal at *path*; with *repair*, truncate a torn tail off the file."""
    path = Path(path)
    fs = fs or FileOps(path.parent)
    data = fs.read_file(path)
    if data is None:
        return JournalRecovery((), (), 0)
    recovery = scan(data)
    if repair and recovery.cut_bytes:
        fs.truncate(path, len(data) - recovery.cut_bytes)
        fs.fsync_file(path)
    return recovery
