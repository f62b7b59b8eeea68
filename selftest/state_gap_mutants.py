"""Broken state engines for the state spec gaps closed by a sentence of docs/state.md: a
checksummed manifest read without its consistency rules, a well-framed journal line read
whatever its payload, and a writer's open of an unopenable directory answered STATE_IO.
The first line of each docstring states the defect."""

from __future__ import annotations

import hashlib
import json
import os
import re
import zlib
from pathlib import Path
from typing import Any
from unittest import mock

from reference.canonical import canonical_bytes
from reference.jsonio import loads_untrusted
from reference.serve import ProtocolHandler
from reference.state import FileOps, LoadedState, StateStore, WriterLock, journal, manifest
from reference.state.errors import io_refusal
from reference.state.journal import JournalRecovery

HEADER_SIZE = 18


def _loose(value: object) -> object:
    """A count as a port reading it loosely would: ``true`` as 1, ``-3`` as 3."""
    if isinstance(value, bool) or (isinstance(value, int) and value < 0):
        return abs(int(value))
    return value


class LooseCountOps(FileOps):
    """Reads a manifest with its counts coerced by :func:`_loose` (its checksum kept
    matching), as a reader that takes any integer-like count would see it."""

    def read_file(self, path: Path, *, reading: bool = True) -> bytes | None:
        data = super().read_file(path, reading=reading)
        if data is None or path.name != "manifest.json":
            return data
        try:
            document = json.loads(data)
        except ValueError:
            return data
        if not isinstance(document, dict):
            return data
        body = {k: _loose(v) if k in COUNTS else v for k, v in document.items() if k != "checksum"}
        if all(repr(body.get(k)) == repr(document.get(k)) for k in COUNTS):
            return data
        checksum = hashlib.sha256(canonical_bytes(body)).hexdigest()
        return canonical_bytes({**body, "checksum": checksum}) + b"\n"


COUNTS = ("generation", "turn_count")


class CountsUncheckedStore(StateStore):
    """A manifest's ``generation`` and ``turn_count`` are read as any integer-like value:
    ``true`` as 1, ``false`` as 0, a negative count as its magnitude."""

    file_ops = classmethod(lambda cls, path: LooseCountOps(path))


class _AnyNumber:
    """Equal to every generation number."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


class GenerationUncheckedStore(StateStore):
    """A manifest naming another generation than its directory's loads."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(manifest, "gen_number", lambda name: _AnyNumber()):
            return super().load(fs)


class CountsUnchecked(ProtocolHandler):
    """A checksummed manifest with a count that is ``true``, ``false`` or negative loads."""

    def store_class(self) -> type[StateStore]:
        return CountsUncheckedStore


class GenerationUnchecked(ProtocolHandler):
    """A checksummed manifest naming another generation loads."""

    def store_class(self) -> type[StateStore]:
        return GenerationUncheckedStore


HEADER = re.compile(rb"([0-9a-f]{8}) ([0-9a-f]{8}) ")


def _any_payload(line: bytes) -> tuple[bool, Any]:
    """Whether a complete line's framing holds, and its payload, whatever JSON value."""
    match = HEADER.match(line)
    payload = line[HEADER_SIZE:]
    if match is None or len(payload) != int(match.group(1), 16):
        return False, None
    if zlib.crc32(payload) != int(match.group(2), 16):
        return False, None
    try:
        return True, loads_untrusted(payload)
    except ValueError:
        return False, None


def recover_any_payload(path: Path, *, repair: bool) -> JournalRecovery:
    """``recover``, except that a well-framed line whose payload is JSON but not an object
    is an entry."""
    found = journal.recover(path, repair=repair)
    if not found.skipped:
        return found
    lines = Path(path).read_bytes().split(b"\n")[: len(found.entries) + len(found.skipped)]
    entries, skipped = [], []
    for number, line in enumerate(lines, 1):
        framed, value = _any_payload(line)
        if number not in found.skipped:
            entries.extend(journal.scan(line + b"\n").entries)
        elif framed:
            entries.append(value)
        else:
            skipped.append(number)
    return JournalRecovery(tuple(entries), tuple(skipped), found.cut_bytes, found.size)


class AnyPayloadJournal(ProtocolHandler):
    """A well-framed journal line whose payload is JSON but not an object (an array, a
    string, a number) is read as an entry, not skipped as corrupt."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_any_payload(path, repair=repair)


class WritingLock(WriterLock):
    """Names the directory it cannot open as a failure to write (``STATE_IO``)."""

    def lock_target(self) -> tuple[int, int]:
        try:
            fd = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise io_refusal(self.directory, exc, reading=False) from exc
        try:
            found = os.fstat(fd)
        finally:
            os.close(fd)
        return found.st_dev, found.st_ino


class UnopenableAsIoStore(StateStore):
    """A writer's open of a state directory it cannot open answers STATE_IO."""

    @classmethod
    def writer_lock(cls, path: Path, fs: FileOps) -> WriterLock:
        return WritingLock(path, fs)


class UnopenableAsIo(ProtocolHandler):
    """A writer's open of a state directory it cannot open (mode 000) answers STATE_IO, not
    STATE_UNREADABLE as a load does."""

    def store_class(self) -> type[StateStore]:
        return UnopenableAsIoStore
