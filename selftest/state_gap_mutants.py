"""Broken state engines for the state spec gaps closed by a sentence of docs/state.md: a
checksummed manifest read without its consistency rules, a well-framed journal line read
whatever its payload, and a writer's open of an unopenable directory answered STATE_IO.
The first line of each docstring states the defect."""

from __future__ import annotations

import os
import zlib
from pathlib import Path
from typing import Any
from unittest import mock

from reference.jsonio import loads_untrusted
from reference.serve import ProtocolHandler
from reference.state import FileOps, LoadedState, StateStore, WriterLock, journal, manifest
from reference.state.errors import io_refusal
from reference.state.journal import JournalRecovery

HEADER_SIZE = 18


class CountsUncheckedStore(StateStore):
    """A manifest's ``generation`` and ``turn_count`` are read as any integer: ``true``,
    ``false`` and negative counts load."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(manifest, "_is_count", lambda value: isinstance(value, int)):
            return super().load(fs)


def _generation_unchecked(directory: Path, document: dict[str, Any], core: bytes, version: int):
    """The manifest's consistency rules but the one tying its generation to its directory."""
    del directory
    if not manifest._is_count(document["turn_count"]):
        raise manifest.InvalidGeneration("manifest.json turn_count is not a count")
    if document["identity"] != manifest.identity(version, core):
        raise manifest.InvalidGeneration("manifest.json identity does not match the core")


class GenerationUncheckedStore(StateStore):
    """A manifest naming another generation than its directory's loads."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(manifest, "_check_consistent", _generation_unchecked):
            return super().load(fs)


class CountsUnchecked(ProtocolHandler):
    """A checksummed manifest with a count that is ``true``, ``false`` or negative loads."""

    def store_class(self) -> type[StateStore]:
        return CountsUncheckedStore


class GenerationUnchecked(ProtocolHandler):
    """A checksummed manifest naming another generation loads."""

    def store_class(self) -> type[StateStore]:
        return GenerationUncheckedStore


def _any_payload(line: bytes) -> Any:
    """A line's payload when its framing holds, whatever JSON value it is (None: corrupt)."""
    match = journal._HEADER.match(line)
    payload = line[HEADER_SIZE:]
    if match is None or len(payload) != int(match.group(1), 16):
        return None
    if zlib.crc32(payload) != int(match.group(2), 16):
        return None
    try:
        return loads_untrusted(payload)
    except ValueError:
        return None


class AnyPayloadJournal(ProtocolHandler):
    """A well-framed journal line whose payload is JSON but not an object (an array, a
    string, a number) is read as an entry, not skipped as corrupt."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        with mock.patch.object(journal, "_entry", _any_payload):
            return super().recover_journal(path, repair=repair)


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
