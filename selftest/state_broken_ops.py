"""Broken journal recovery and soak turns, each with the signature of the part it replaces.

The recoveries stand in for ``reference.state.journal.recover`` behind ``state.journal``;
``acknowledge_first`` stands in for the checkpointed turn of ``state.soak``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from reference.jsonio import loads_untrusted
from reference.state import journal
from reference.state.fsops import FileOps
from reference.state.journal import JournalRecovery
from reference.state.soak import Emit
from reference.state.store import StateStore

HEADER_SIZE = 18


def _unchecked_entry(line: bytes) -> dict | None:
    """The payload of a line whose length matches, whatever its checksum says."""
    payload = line[HEADER_SIZE:]
    try:
        declared = int(line[:8], 16)
        value = json.loads(payload.decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) and declared == len(payload) else None


def _with_unchecked(found: JournalRecovery, lines: list[bytes]) -> JournalRecovery:
    good, entries, skipped = iter(found.entries), [], []
    for number in range(1, len(found.entries) + len(found.skipped) + 1):
        entry = next(good) if number not in found.skipped else _unchecked_entry(lines[number - 1])
        if entry is None:
            skipped.append(number)
        else:
            entries.append(entry)
    return JournalRecovery(tuple(entries), tuple(skipped), found.cut_bytes)


def recover_without_checksums(
    path: Path, *, repair: bool, fs: FileOps | None = None
) -> JournalRecovery:
    """``recover``, except that a line whose CRC does not match is kept when it parses."""
    found = journal.recover(path, repair=repair, fs=fs)
    if not found.skipped:
        return found
    return _with_unchecked(found, Path(path).read_bytes().split(b"\n"))


def _lenient(payload: bytes) -> Any:
    """The payload decoded with U+FFFD for what is not UTF-8."""
    return loads_untrusted(payload.decode("utf-8", "replace").encode("utf-8"))


def recover_lenient_utf8(path: Path, *, repair: bool, fs: FileOps | None = None) -> JournalRecovery:
    """``recover``, except that a payload that is not UTF-8 is read with replacements."""
    with mock.patch.object(journal, "loads_untrusted", _lenient):
        return journal.recover(path, repair=repair, fs=fs)


def recover_keeping_torn_tail(
    path: Path, *, repair: bool, fs: FileOps | None = None
) -> JournalRecovery:
    """``recover`` that never cuts: a torn last line is reported as corrupt and left in the file."""
    found = journal.recover(path, repair=False)
    if not found.cut_bytes:
        return found
    torn = len(found.entries) + len(found.skipped) + 1
    return JournalRecovery(found.entries, (*found.skipped, torn), 0)


def _scan(data: bytes, torn: Callable[[bytes, bool], bool]) -> JournalRecovery:
    """``journal.scan`` with *torn(line, is_last)* deciding which complete line is torn."""
    entries, skipped, pos, number = [], [], 0, 0
    while pos < len(data):
        number += 1
        end = data.find(b"\n", pos)
        if end < 0 or torn(data[pos:end], end + 1 == len(data)):
            return JournalRecovery(tuple(entries), tuple(skipped), len(data) - pos)
        entry = journal.scan(data[pos : end + 1]).entries
        if entry:
            entries.append(entry[0])
        else:
            skipped.append(number)
        pos = end + 1
    return JournalRecovery(tuple(entries), tuple(skipped), 0)


def _short(line: bytes) -> bool:
    try:
        return len(line) - HEADER_SIZE < int(line[:8], 16)
    except ValueError:
        return False


def _recover_with(path: Path, repair: bool, torn: Callable[[bytes, bool], bool]) -> JournalRecovery:
    fs = FileOps(Path(path).parent)
    data = fs.read_file(Path(path))
    if data is None:
        return JournalRecovery((), (), 0)
    found = _scan(data, torn)
    if repair and found.cut_bytes:
        fs.truncate(Path(path), len(data) - found.cut_bytes)
    return found


def recover_short_last_as_corrupt(path: Path, *, repair: bool) -> JournalRecovery:
    """``recover`` where a complete last line shorter than its length is corrupt, not torn."""
    return _recover_with(path, repair, lambda line, is_last: False)


def recover_short_line_as_torn(path: Path, *, repair: bool) -> JournalRecovery:
    """``recover`` where any complete line shorter than its length is a torn tail: the
    lines after a short middle line are cut."""
    return _recover_with(path, repair, lambda line, is_last: _short(line))


def acknowledge_first(store: StateStore, mutations: list[dict], emit: Emit) -> None:
    """Apply, emit ``begin`` and ``ack`` at once, and only then checkpoint."""
    store.apply(mutations)
    begun = {"generation": store.generation + 1, "identity": store.digest()["identity"]}
    emit({"event": "begin", **begun})
    emit({"event": "ack", **begun})
    store.checkpoint()


def with_claimed_dir_syncs(ops: list[dict]) -> list[dict]:
    """*ops* with an fsync of the parent directory claimed after every rename."""
    claimed = []
    for op in ops:
        claimed.append(op)
        if op["op"] == "rename":
            parent = op["dst"].rpartition("/")[0] or "."
            claimed.append({"op": "fsync_dir", "path": parent})
    return claimed


def recover_missing_as_torn(
    path: Path, *, repair: bool, fs: FileOps | None = None
) -> JournalRecovery:
    """``recover`` that reports one byte cut from a journal that does not exist."""
    found = journal.recover(path, repair=repair, fs=fs)
    return found if Path(path).exists() else JournalRecovery((), (), 1)


def recover_unterminated_as_whole(path: Path, *, repair: bool) -> JournalRecovery:
    """``recover`` where a last line missing only its ``\\n`` (its length and CRC-32 check)
    is read as a whole entry, not cut as a torn tail."""
    data = FileOps(Path(path).parent).read_file(Path(path))
    if data and not data.endswith(b"\n"):
        found = journal.scan(data + b"\n")
        last = data[data.rfind(b"\n") + 1 :]
        if not found.cut_bytes and journal.checked_payload(last) is not None:
            return JournalRecovery(found.entries, found.skipped, 0, len(data))
    return journal.recover(Path(path), repair=repair)
