"""Framed journal lines: writing one, and recovering a journal after a crash.

A line is ``<length:08x> <crc32:08x> <payload>\\n`` with the payload canonical JSON.
Recovery keeps every good line, reports complete lines whose length or checksum does not
match, or whose payload is not a JSON object (NaN and lone surrogates are not JSON), by
1-based line number and skips them, and cuts off a torn last line.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.canonical import canonical_bytes
from reference.jsonio import loads_untrusted
from reference.state.fsops import FileOps

_HEADER = re.compile(rb"([0-9a-f]{8}) ([0-9a-f]{8}) ")
_HEADER_SIZE = 18


@dataclass(frozen=True)
class JournalRecovery:
    """What a journal holds: good entries, skipped line numbers, bytes of torn tail cut."""

    entries: tuple[dict[str, Any], ...]
    skipped: tuple[int, ...]
    cut_bytes: int


def frame(payload: dict[str, Any]) -> bytes:
    """One journal line for *payload*."""
    data = canonical_bytes(payload)
    return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"


def append(path: Path, payload: dict[str, Any], fs: FileOps | None = None) -> None:
    """Append one framed line to *path* and make it durable (fsync; dir fsync when created)."""
    path = Path(path)
    fs = fs or FileOps(path.parent)
    created = fs.entry_kind(path, reading=False) is None
    fs.append_file(path, frame(payload))
    fs.fsync_file(path)
    if created:
        fs.fsync_dir(path.parent)


def _declared(line: bytes) -> int | None:
    match = _HEADER.match(line)
    return int(match.group(1), 16) if match else None


def _entry(line: bytes) -> dict[str, Any] | None:
    """The payload of a good line, or None when the line is corrupt."""
    match = _HEADER.match(line)
    if match is None:
        return None
    payload = line[_HEADER_SIZE:]
    if len(payload) != int(match.group(1), 16) or zlib.crc32(payload) != int(match.group(2), 16):
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
            return JournalRecovery(tuple(entries), tuple(skipped), len(data) - pos)
        entry = _entry(line)
        if entry is None:
            skipped.append(number)
        else:
            entries.append(entry)
        pos = end + 1
    return JournalRecovery(tuple(entries), tuple(skipped), 0)


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
