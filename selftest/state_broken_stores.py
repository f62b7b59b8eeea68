"""Broken state stores: each is the reference ``StateStore`` with one hook replaced.

The first line of each docstring states the defect.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

from reference.state import (
    CURRENT_SCHEMA_VERSION,
    FileOps,
    LoadedState,
    StateError,
    StateStore,
    WriterLock,
    journal,
    loader,
    manifest,
)
from reference.state import commit as steps
from reference.state.commit import (
    CheckpointInfo,
    find_debris,
    remove_entry,
    remove_leftovers,
)
from reference.state.core import Key, decode_core, encode_record, sort_key
from reference.state.delta import changed_keys, delete_entry, put_entry
from reference.state.delta_writer import COMPACT_RATIO, DeltaWriter
from reference.state.journal import JournalWriter
from reference.state.layout import (
    CORE,
    CURRENT,
    CURRENT_TMP,
    DELTA,
    LINEAGE,
    MANIFEST,
    MAX_GENERATION,
    OVERFLOW,
    PROPOSALS,
    gen_name,
    gen_number,
    generations,
    is_debris,
)
from reference.state.lineage import BootInfo
from reference.state.loader import fresh_state, read_generation
from reference.state.manifest import Base, InvalidGeneration, build_manifest, check_generation
from reference.state.proposals import PENDING_CAP, ProposalQueue
from reference.state.records import OPTIONAL, Record
from selftest import state_fileops as bent

SCHEMA_REFUSALS = ("STATE_SCHEMA_TOO_NEW", "STATE_SCHEMA_MALFORMED")


def _bent(ops: type[FileOps]):
    return classmethod(lambda cls, path: ops(path))


def with_defaults(record: Record) -> Record:
    """*record* with every optional field present (absent ones take their default)."""
    defaults = {name: spec.default for name, spec in OPTIONAL[record["kind"]].items()}
    return {**defaults, **record}


class NoDirFsyncStore(StateStore):
    """Checkpoints never fsync a directory: the renames of a commit are not durable."""

    file_ops = _bent(bent.WithoutDirSync)


class NoFileFsyncStore(StateStore):
    """Generation files are not fsynced before the staging directory is renamed."""

    file_ops = _bent(bent.WithoutStagedFileSync)


class InPlaceStore(StateStore):
    """Checkpoints rewrite the live generation's files in place, then rename that directory."""

    def stage(self, generation: int, core: bytes) -> Path:
        if not self.generation:
            return super().stage(generation, core)
        directory = self.path / gen_name(self.generation)
        turn_count = self.digest()["turn_count"]
        manifest = build_manifest(generation, CURRENT_SCHEMA_VERSION, turn_count, core)
        for name, data in ((CORE, core), (MANIFEST, manifest)):
            self.fs.write_file(directory / name, data, 0o644)
            self.fs.fsync_file(directory / name)
        return directory


class LeftoversReusedStore(StateStore):
    """A leftover staging directory is never cleared, and a commit keeps the files in it."""

    file_ops = _bent(bent.KeepingLeftovers)


class FreshOnSchemaRefusalStore(StateStore):
    """A newer or malformed schema version starts a fresh, empty life instead of a refusal."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        try:
            return super().load(fs)
        except StateError as refusal:
            if refusal.code not in SCHEMA_REFUSALS:
                raise
        return fresh_state()


def _last_wins(data: bytes, schema_version: int) -> dict[Key, dict]:
    """``decode_core`` that lets a later line of the same (kind, key) replace the earlier."""
    rows: dict[Key, dict] = {}
    for line in data.splitlines(keepends=True):
        rows.update(decode_core(line, schema_version))
    return rows


class DuplicatesAcceptedStore(StateStore):
    """Reads core.jsonl line by line, a later (kind, key) replacing an earlier: a core that
    holds one record twice (or out of order) loads instead of being refused."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "decode_core", _last_wins):
            return super().load(fs)


class FreshOnBadPointerStore(StateStore):
    """A missing, empty, garbage or dangling pointer starts a fresh life, not a fall back."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        loaded = super().load(fs)
        return fresh_state() if loaded.recovered else loaded


class InsertionOrderStore(StateStore):
    """core.jsonl lists the records in insertion order, not by ``(kind, key)``."""

    def encode(self, records: Iterable[dict]) -> bytes:
        return b"".join(encode_record(record) for record in records)


class DefaultsWrittenStore(StateStore):
    """Additive-optional fields are written even when they equal their default."""

    def encode(self, records: Iterable[dict]) -> bytes:
        ordered = sorted(records, key=sort_key)
        return b"".join(encode_record(with_defaults(record)) for record in ordered)


def _bumped(record: dict) -> dict:
    return {**record, "weight": record["weight"] + 1} if record["kind"] == "recognizer" else record


class ReloadBumpsStore(StateStore):
    """Loading bumps every recognizer's weight by one."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        loaded = super().load(fs)
        records = {key: _bumped(record) for key, record in loaded.records.items()}
        return dataclasses.replace(loaded, records=records)


class NoLineageStore(StateStore):
    """Boot events are never written: the lineage journal stays empty."""

    @classmethod
    def record_boot(cls, fs: FileOps, boot: BootInfo) -> None:
        return None


class ShutdownRecommitsStore(StateStore):
    """A clean close always commits a new generation, even when nothing changed."""

    def close(self):
        self.checkpoint()
        return super().close()


class ModesResetStore(StateStore):
    """Every new generation file gets mode 0644, whatever the live file's mode."""

    file_ops = _bent(bent.DefaultModes)


class OneModeStore(StateStore):
    """A new generation's files all get the live mode of the first one written."""

    file_ops = _bent(bent.OneModePerGeneration)


class KeepsUnreadStore(StateStore):
    """Step 6 keeps every generation that was on disk at the first checkpoint and that the
    writer did not load, valid or not (a generation past CURRENT, an older full one)."""

    def prune(self, generation: int) -> None:
        if not hasattr(self, "found_at_first"):
            on_disk = set(generations(self.fs.list_dir(self.fs.root, reading=False)))
            self.found_at_first = on_disk - {self.generation, generation}
        steps.prune(self.fs, live=self.generation, generation=generation, keep=self.found_at_first)


class DroppingQueue(ProposalQueue):
    """Past the pending cap, a proposal is dropped: neither queued nor spilled."""

    def propose(self, proposal: dict) -> dict:
        if self.pending < PENDING_CAP:
            return super().propose(proposal)
        return {"queued": False, "spilled": False, "pending": self.pending}


class ProposalsDroppedStore(StateStore):
    """Proposals past the pending cap are silently dropped instead of spilled."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return DroppingQueue.open(fs.root, fs)


class UnlockedWriter:
    """A writer lock that locks nothing: ``held`` only follows acquire and release."""

    def __init__(self, path: Path, fs: FileOps) -> None:
        self.held = False

    def acquire(self) -> None:
        """Take nothing; a second writer is never refused."""
        self.held = True

    def release(self) -> None:
        """Forget the pretend lock."""
        self.held = False


class NoLockStore(StateStore):
    """No single-writer lock: any number of writers open the same directory."""

    writer_lock = classmethod(lambda cls, path, fs: UnlockedWriter(path, fs))


class LockFileLock(WriterLock):
    """The lock is named after the ``LOCK`` file's inode, not the state directory's."""

    def lock_target(self) -> tuple[int, int]:
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644))
        found = os.stat(self.path)
        return found.st_dev, found.st_ino


class UnpaddedNameLock(WriterLock):
    """The abstract name is bound at its own length, not padded to all of ``sun_path``."""

    def address(self) -> bytes:
        return b"\0" + self.address_of_directory()

    def address_of_directory(self) -> bytes:
        dev, ino = self.lock_target()
        return f"core-state-lock/{dev}/{ino}".encode("ascii")


class UnpaddedNameStore(StateStore):
    """The lock's abstract name is not padded: another runtime's writer binds another name."""

    writer_lock = classmethod(lambda cls, path, fs: UnpaddedNameLock(path, fs))


class TmpLinkUnlinkedStore(StateStore):
    """A writer's open unlinks a ``CURRENT.tmp`` that is a symbolic link (it is debris, and
    unlinking never follows a link) instead of refusing with ``STATE_SYMLINK``."""

    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        path = fs.root / CURRENT_TMP
        if path.is_symlink():
            path.unlink()
        super().clear_leftovers(fs, loaded)


class ManifestJudgedPruneStore(StateStore):
    """Step 6 keeps a generation that is not valid only when its manifest is missing or not
    JSON: one whose manifest parses is judged by it alone, so a core that does not match
    it (or a checksum or identity that does not) is removed."""

    def prune(self, generation: int) -> None:
        for number in generations(self.fs.list_dir(self.fs.root, reading=False)):
            path = self.fs.root / gen_name(number)
            if number in (generation, self.generation) or not (path / CORE).is_file():
                continue
            try:
                json.loads((path / MANIFEST).read_bytes())
            except (OSError, ValueError):
                continue
            try:
                check_generation(path, self.fs)
            except InvalidGeneration:
                self.fs.unlink(path / CORE)
                steps.remove_entry(self.fs, path)
        super().prune(generation)


class MainFileOnlyStore(StateStore):
    """A generation's manifest is checked for its main file only: another file it lists may
    be missing or not match its SHA-256."""

    file_ops = _bent(bent.MainFileOnly)


class EmptyPidLock(WriterLock):
    """An empty ``LOCK`` names pid 0 (as a number parsed from no digits is), not unknown."""

    def _holder(self) -> str:
        holder = super()._holder()
        if holder == "unknown" and self.fs.entry_kind(self.path, reading=False) == "file":
            data = self.fs.read_file(self.path) or b""
            if not data.strip():
                return "0"
        return holder


class EmptyPidLockStore(StateStore):
    """A refusal names pid 0 when ``LOCK`` is empty (holds no pid), not the holder unknown."""

    writer_lock = classmethod(lambda cls, path, fs: EmptyPidLock(path, fs))


class LockFileStore(StateStore):
    """The writer lock is named after the ``LOCK`` file, so unlinking ``LOCK`` bypasses it."""

    writer_lock = classmethod(lambda cls, path, fs: LockFileLock(path, fs))


class FollowingLinksStore(StateStore):
    """Entries are opened through symbolic links: a link in the directory is followed."""

    file_ops = _bent(bent.FollowingLinks)


class UnreadableAsMissingStore(StateStore):
    """A file that exists but cannot be read is taken for a missing one (and fallen back from)."""

    file_ops = _bent(bent.UnreadableAsMissing)


class UntypedFailuresStore(StateStore):
    """Directories are listed with a bare ``os.listdir``: its failures escape untyped."""

    file_ops = _bent(bent.BareListing)


class SchemaFieldAsFileStore(StateStore):
    """A schema refusal names the manifest file in ``field`` instead of ``schema_version``."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        try:
            return super().load(fs)
        except StateError as refusal:
            if refusal.code not in SCHEMA_REFUSALS:
                raise
            raise StateError(refusal.message, field=MANIFEST, code=refusal.code) from refusal


class VersionAsInt32Store(StateStore):
    """A schema version is read into a 32-bit integer: one past 2^31 - 1 is malformed, not
    newer."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        try:
            return super().load(fs)
        except StateError as refusal:
            found = re.search(r"schema_version (\d+) is newer", refusal.message)
            if refusal.code != "STATE_SCHEMA_TOO_NEW" or not found or int(found[1]) < 2**31:
                raise
            raise StateError(
                f"schema_version {found[1]} is not a 32-bit integer",
                field="schema_version",
                code="STATE_SCHEMA_MALFORMED",
            ) from refusal


class FromVersionOnMigrationStore(StateStore):
    """A boot event records ``from_version`` only for a migration, null for a resume."""

    @classmethod
    def boot_event(cls, loaded: LoadedState, events: tuple[dict, ...]) -> BootInfo:
        boot = super().boot_event(loaded, events)
        if boot.reason == "schema_migration":
            return boot
        return dataclasses.replace(boot, from_version=None)


class TornJournalsKeptStore(StateStore):
    """An open never cuts a torn journal tail, so what it appends fuses with the torn bytes."""

    file_ops = _bent(bent.NeverTruncating)


def _without_deletes(mutations: list[dict]) -> list[dict]:
    if not isinstance(mutations, list):
        return mutations
    return [m for m in mutations if not (isinstance(m, dict) and m.get("op") == "delete")]


class DeletesIgnoredStore(StateStore):
    """A ``delete`` mutation is accepted and does nothing."""

    def apply(self, mutations: list[dict]) -> None:
        super().apply(_without_deletes(mutations))


class PartialBatchStore(StateStore):
    """A batch is applied one mutation at a time, so a refused batch keeps the ones before
    its bad mutation."""

    def apply(self, mutations: list[dict]) -> None:
        if not isinstance(mutations, list):
            super().apply(mutations)
            return
        for index, mutation in enumerate(mutations):
            try:
                super().apply([mutation])
            except StateError as refusal:
                field = (refusal.field or "").replace("mutations[0]", f"mutations[{index}]", 1)
                raise StateError(refusal.message, field=field, code=refusal.code) from refusal


class BareRecordFieldStore(StateStore):
    """A refused put names the record's own field (``key``), not its path in the request."""

    def apply(self, mutations: list[dict]) -> None:
        try:
            super().apply(mutations)
        except StateError as refusal:
            field = (refusal.field or "").rsplit(".", 1)[-1]
            raise StateError(refusal.message, field=field, code=refusal.code) from refusal


class ArgumentCodeQueue(ProposalQueue):
    """A proposal that is not canonical JSON is refused as a bad argument."""

    def propose(self, proposal: dict) -> dict:
        try:
            return super().propose(proposal)
        except StateError as refusal:
            raise StateError(
                refusal.message, field=refusal.field, code="PROTOCOL_BAD_ARGS"
            ) from refusal


class ProposalArgumentCodeStore(StateStore):
    """A float in a proposal is refused with ``PROTOCOL_BAD_ARGS``, not ``STATE_BAD_MUTATION``."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return ArgumentCodeQueue.open(fs.root, fs)


class LockKeptOnFailedCloseStore(StateStore):
    """A close whose commit fails keeps the lock and the handle open."""

    def close(self) -> CheckpointInfo:
        if self.digest()["dirty"]:
            self.checkpoint()
        return super().close()


class UnreadableAtCheckpointStore(StateStore):
    """A checkpoint that cannot read the live generation answers ``STATE_UNREADABLE``."""

    file_ops = _bent(bent.UnreadableModes)


class PipeAsMissingStore(StateStore):
    """A ``CURRENT`` that is a named pipe is taken for a missing pointer, not ``STATE_IO``."""

    file_ops = _bent(bent.NonRegularAsMissing)


class UncreatableAsUnreadableStore(StateStore):
    """A state directory that cannot be created is refused as ``STATE_UNREADABLE``."""

    @classmethod
    def open(cls, path: Path, *, fs: FileOps | None = None) -> StateStore:
        try:
            return super().open(path, fs=fs)
        except StateError as refusal:
            if refusal.code != "STATE_IO" or os.path.lexists(path):
                raise
            raise StateError(refusal.message, field="path", code="STATE_UNREADABLE") from None


class UnwritableLockUnreadableStore(StateStore):
    """A LOCK that cannot be created is refused as ``STATE_UNREADABLE``."""

    file_ops = _bent(bent.UnwritableLockUnreadable)


class WriterListsAsLoadStore(StateStore):
    """A writer that cannot list or stat in its directory answers ``STATE_UNREADABLE``."""

    file_ops = _bent(bent.WriterListsAsLoad)


class RootFailureAsIOStore(StateStore):
    """A load of a state directory that cannot be opened answers ``STATE_IO``."""

    file_ops = _bent(bent.RootFailureAsIO)


class MissingUnderWriteStore(StateStore):
    """A file written into a directory removed while open escapes as an internal error."""

    file_ops = _bent(bent.MissingUnderWriteEscapes)


class NewestOnlyFallBackStore(StateStore):
    """Falling back tries only the newest generation: an older valid one is never reached."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        loaded = super().load(fs)
        newest = max(generations(fs.list_dir(fs.root, reading=True)), default=0)
        if loaded.recovered and loaded.generation != newest:
            raise StateError(
                f"{gen_name(newest)} is invalid", field="CURRENT", code="STATE_CORRUPT"
            )
        return loaded


class EmptyRecoveredStore(StateStore):
    """A load that did not fall back reports ``recovered`` as ``""``, not null."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        loaded = super().load(fs)
        return dataclasses.replace(loaded, recovered=loaded.recovered or "")


class AnonymousHolderLock(WriterLock):
    """The ``STATE_LOCKED`` message never names the holder's pid."""

    def _holder(self) -> str:
        return "another writer"


class AnonymousHolderStore(StateStore):
    """A second writer is refused without the holder's pid (or ``unknown``) in the message."""

    writer_lock = classmethod(lambda cls, path, fs: AnonymousHolderLock(path, fs))


class SingleReadStore(StateStore):
    """Files are read with one 64 KiB ``read``: a larger core.jsonl loads truncated."""

    file_ops = _bent(bent.SingleRead)


class LinkReadingLock(WriterLock):
    """The holder's pid is read from ``LOCK`` following a symbolic link."""

    def _holder(self) -> str:
        try:
            text = Path(self.path).read_text("ascii").strip()
        except (OSError, UnicodeDecodeError):
            return "unknown"
        return text if text.isdigit() else "unknown"


class LinkReadingHolderStore(StateStore):
    """A ``LOCK`` replaced by a link is read through it: the refusal names a foreign pid."""

    writer_lock = classmethod(lambda cls, path, fs: LinkReadingLock(path, fs))


class UnicodeDigitLock(WriterLock):
    """The holder's pid is ``LOCK`` read as UTF-8, any Unicode digits counted as a pid."""

    def _holder(self) -> str:
        try:
            data = self.fs.read_file(self.path) or b""
        except StateError:
            return "unknown"
        text = data[:64].decode("utf-8", errors="replace").strip()
        return text if text.isdigit() else "unknown"


class UnicodeDigitHolderStore(StateStore):
    """A ``LOCK`` holding Arabic-Indic, fullwidth or superscript digits names them as a pid."""

    writer_lock = classmethod(lambda cls, path, fs: UnicodeDigitLock(path, fs))


class NumberedFromLiveStore(StateStore):
    """A checkpoint numbers its generation one past the live one, ignoring those on disk."""

    def next_generation(self) -> int:
        return self.generation + 1


class PrunesNothingStore(StateStore):
    """A checkpoint never removes an older generation: they pile up."""

    def prune(self, generation: int) -> None:
        return None


class DebrisKeptStore(StateStore):
    """A checkpoint never clears staging entries or ``CURRENT.tmp`` planted under the writer."""

    def clear_debris(self) -> None:
        return None


class LastGenerationRefusedStore(StateStore):
    """Generation 99999999 is refused as exhausted: the bound is off by one."""

    def next_generation(self) -> int:
        number = super().next_generation()
        if number >= MAX_GENERATION:
            raise StateError(f"{self.path}: generations exhausted", field="path", code="STATE_IO")
        return number


class HashOfNothingStore(StateStore):
    """A fresh state's identity is the SHA-256 of no bytes, without the schema prefix."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        loaded = super().load(fs)
        if not loaded.fresh:
            return loaded
        return dataclasses.replace(loaded, identity=hashlib.sha256(b"").hexdigest())


class ValidLeftoversRemovedStore(StateStore):
    """The open removes every generation past the one ``CURRENT`` names, valid ones too."""

    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        super().clear_leftovers(fs, loaded)
        if loaded.pointer is None:
            return
        for number in generations(fs.list_dir(fs.root, reading=False)):
            if number > loaded.pointer:
                fs.remove_tree(fs.root / gen_name(number))


class OverflowForgettingQueue(ProposalQueue):
    """The overflow journal's entries are not counted at open."""

    @classmethod
    def open(cls, path: Path, fs: FileOps) -> ProposalQueue:
        queue = super().open(path, fs)
        queue.spilled = 0
        return queue


class OverflowForgottenStore(StateStore):
    """An open forgets that the overflow journal holds proposals: new ones are queued ahead."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return OverflowForgettingQueue.open(fs.root, fs)


class NonObjectAsOpStore(StateStore):
    """A mutation that is not an object is refused naming ``mutations[i].op``."""

    def apply(self, mutations: list[dict]) -> None:
        for index, mutation in enumerate(mutations):
            if not isinstance(mutation, dict):
                field = f"mutations[{index}].op"
                raise StateError(f"{field} is missing", field=field, code="STATE_BAD_MUTATION")
        super().apply(mutations)


class UnreadableWritesStore(StateStore):
    """A checkpoint that cannot create or remove an entry answers ``STATE_UNREADABLE``."""

    file_ops = _bent(bent.UnreadableWrites)


class StrictAsciiLock(WriterLock):
    """The holder's pid is decoded as strict ASCII: other bytes raise."""

    def _holder(self) -> str:
        data = self.fs.read_file(self.path) or b""
        text = data[:64].decode("ascii").strip()
        return text if text.isdigit() else "unknown"


class StrictAsciiHolderStore(StateStore):
    """A ``LOCK`` holding bytes that are not ASCII makes a second writer's open crash."""

    writer_lock = classmethod(lambda cls, path, fs: StrictAsciiLock(path, fs))


class AnyFileNameStore(StateStore):
    """A manifest may list any name (``.``, ``..``, ``sub/core.jsonl``): the file-name rule
    is never applied, so such a generation is read as far as the names lead."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(manifest, "plain_file_name", lambda name: True):
            return super().load(fs)


class NormalisedFileNameStore(StateStore):
    """A manifest's file name is normalised before the rule is applied (``normpath``), so
    ``./core.jsonl``, ``sub/../core.jsonl`` and ``core.jsonl/`` pass as ``core.jsonl``."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        plain = manifest.plain_file_name
        with mock.patch.object(
            manifest, "plain_file_name", lambda name: plain(os.path.normpath(name) if name else "")
        ):
            return super().load(fs)


class PathComponentFileNameStore(StateStore):
    """A manifest's file name is plain when pathlib sees one component in it, so
    ``./core.jsonl`` and ``core.jsonl/`` pass (pathlib drops both slashes)."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(
            manifest,
            "plain_file_name",
            lambda name: len(Path(name).parts) == 1 and Path(name).parts[0] not in ("/", ".."),
        ):
            return super().load(fs)


class UnnamedWrongTypeStore(StateStore):
    """A generation entry that is not a directory is refused as STATE_IO without naming it."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        unnamed = StateError("a generation is not a directory", field="path", code="STATE_IO")
        with mock.patch.object(loader, "wrong_type", lambda path, expected: unnamed):
            return super().load(fs)


class OverflowTornKeptStore(StateStore):
    """A writer's open repairs the proposals journal but not the overflow journal, so a
    proposal spilled after a crash fuses with the torn bytes before it."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        pending = journal.recover(fs.root / PROPOSALS, repair=True, fs=fs)
        spilled = journal.recover(fs.root / OVERFLOW, repair=False, fs=fs)
        return ProposalQueue(
            fs.root, fs, pending=len(pending.entries), spilled=len(spilled.entries)
        )


class DebrisOneByOneStore(StateStore):
    """Debris is removed entry by entry, so what comes before a staging-* link is gone by
    the time the link is refused."""

    def clear_debris(self) -> None:
        for name in sorted(self.fs.list_dir(self.fs.root, reading=False)):
            if is_debris(name):
                remove_entry(self.fs, self.fs.root / name)


class FallenBackFromRemovedStore(StateStore):
    """Leftover removal at open counts the generation CURRENT names among the invalid ones
    past it: a generation the loader fell back from is deleted."""

    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        below = None if loaded.pointer is None else loaded.pointer - 1
        remove_leftovers(fs, below)


class SchemaRefusedPastRemovedStore(StateStore):
    """Leftover removal at open takes a generation past CURRENT whose schema version is
    refused for one proven invalid, and removes it (a newer engine's checkpoint lost)."""

    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        doomed = list(find_debris(fs))
        for number in generations(fs.list_dir(fs.root, reading=False)):
            if loaded.pointer is None or number <= loaded.pointer:
                continue
            try:
                read_generation(fs, number)
            except InvalidGeneration:
                doomed.append(fs.root / gen_name(number))
            except StateError as refusal:
                if refusal.code not in SCHEMA_REFUSALS:
                    raise
                doomed.append(fs.root / gen_name(number))
        for path in doomed:
            remove_entry(fs, path)


def _unreadable_as_invalid(read):
    """*read* (``read_generation``) taking a generation it cannot read for one proven invalid."""

    def reading(fs: FileOps, number: int):
        try:
            return read(fs, number)
        except StateError as refusal:
            if refusal.code != "STATE_UNREADABLE":
                raise
            raise InvalidGeneration(f"{gen_name(number)} cannot be read") from None

    return reading


class UnreadableInvalidStore(StateStore):
    """A generation that cannot be read is taken for one proven invalid: a load falls back
    past it, and leftover removal at open removes it."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "read_generation", _unreadable_as_invalid(read_generation)):
            return super().load(fs)

    @classmethod
    def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
        from reference.state import commit

        with mock.patch.object(commit, "read_generation", _unreadable_as_invalid(read_generation)):
            super().clear_leftovers(fs, loaded)


class PidKeptLock(WriterLock):
    """Releasing frees the lock but leaves the holder's pid in ``LOCK``."""

    def release(self) -> None:
        held = self.fs.read_file(self.path)
        super().release()
        if held:
            self.fs.write_file(self.path, held, 0o644)


class PidKeptStore(StateStore):
    """A close leaves the writer's pid in ``LOCK``."""

    writer_lock = classmethod(lambda cls, path, fs: PidKeptLock(path, fs))


class BootIdentityIsParentStore(StateStore):
    """A boot event records its parent's identity as its own (empty when fresh), which is
    wrong for a fresh start and for a migration."""

    @classmethod
    def record_boot(cls, fs: FileOps, boot: BootInfo) -> None:
        super().record_boot(fs, dataclasses.replace(boot, identity=boot.parent or ""))


class RepairWhileReadingStore(StateStore):
    """The open cuts torn journal tails while it is still reading, so an open refused by a
    later read (a staging-* link) has already written."""

    @classmethod
    def preflight(cls, fs: FileOps) -> None:
        for name in (PROPOSALS, OVERFLOW, LINEAGE):
            journal.recover(fs.root / name, repair=True, fs=fs)


_READ_POINTER = loader.read_pointer


def _stripped_pointer(fs: FileOps) -> loader.Pointer:
    """CURRENT as a port that calls ``strip()`` reads it: no newline needed, spaces ignored."""
    found = _READ_POINTER(fs)
    number = gen_number((fs.read_file(fs.root / CURRENT) or b"").decode("ascii", "replace").strip())
    if found.number is not None or number is None:
        return found
    return dataclasses.replace(found, number=number, why=None)


class StrippedPointerStore(StateStore):
    """CURRENT is read with whitespace stripped and no newline required, so a pointer
    without its newline, or with a space, loads as if it were well formed."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "read_pointer", _stripped_pointer):
            return super().load(fs)


class RetriedSyncStore(StateStore):
    """A failed fsync is retried on the same descriptor and its success believed: a
    checkpoint or proposal is acknowledged though its data may be gone."""

    file_ops = _bent(bent.RetriedSyncs)


class KeptAppendWriter(JournalWriter):
    """A failed append is not rolled back: its bytes stay, and the next line follows them."""

    def _roll_back(self, size: int) -> None:
        self.size = None


def _kept_appends(fs: FileOps) -> ProposalQueue:
    queue = ProposalQueue.open(fs.root, fs)
    queue.writers = {
        name: KeptAppendWriter(writer.path, fs) for name, writer in queue.writers.items()
    }
    return queue


class RefusedListedStore(StateStore):
    """A proposal whose append failed is refused, but its line stays in the journal (and
    counts at the next open)."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _kept_appends(fs)


class TornAppendKeptStore(StateStore):
    """A journal line is written in two writes and a failed append is not rolled back: torn
    bytes stay, and the next acknowledged line fuses with them."""

    file_ops = _bent(bent.TwoWriteAppends)

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _kept_appends(fs)


class UntypedCloseStore(StateStore):
    """A failed close escapes untyped (ENGINE_INTERNAL)."""

    file_ops = _bent(bent.UntypedCloses)


class RetryErrorWriter(JournalWriter):
    """When the rewrite after a failed append fails too, its error is the one reported."""

    def _roll_back(self, size: int) -> None:
        self.size, self.stale = size, True
        self.rewrite()


class RetryErrorReportedStore(StateStore):
    """A failed proposal reports the failure of the journal's rewrite that followed, not
    the append's own."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        queue = ProposalQueue.open(fs.root, fs)
        queue.writers = {
            name: RetryErrorWriter(writer.path, fs, writer.size)
            for name, writer in queue.writers.items()
        }
        return queue


class PrunesUnverifiedStore(StateStore):
    """Prune removes every generation but the new and the live one, also one a fall back
    could not verify whose core holds acknowledged records."""

    def prune(self, generation: int) -> None:
        for number in generations(self.fs.list_dir(self.fs.root, reading=False)):
            if number not in (self.generation, generation):
                remove_entry(self.fs, self.fs.root / gen_name(number))


class _StaleEntryDeltaWriter(DeltaWriter):
    """Keeps each key's delta entry from the first time it wrote it since the base: the
    cache is keyed by the key alone, not by the record it encodes."""

    def delta(self, records: Mapping[Key, Record], core: bytes) -> tuple[Base, bytes] | None:
        if self._base is None:
            return None
        base, held = self._base
        keys = changed_keys(records, held, self._since)
        self._since = set(keys)
        lines = []
        for key in keys:
            record = records.get(key)
            if key not in self._lines:
                line = delete_entry(key) if record is None else put_entry(record)
                self._lines[key] = (record, line)
            lines.append(self._lines[key][1])
        data = b"".join(lines)
        return None if len(data) * COMPACT_RATIO > len(core) else (base, data)


class DeltaOverMissingBaseStore(StateStore):
    """Stages a delta over the base it remembers, though that base was removed under it."""

    def base_on_disk(self, generation: int) -> bool:
        return True


class DeltaOverBaseWithoutManifestStore(StateStore):
    """Stages a delta over a base whose ``core.jsonl`` is on disk, though its
    ``manifest.json`` was removed under it."""

    def base_on_disk(self, generation: int) -> bool:
        base = self.fs.root / gen_name(generation)
        return self.fs.entry_kind(base / CORE, reading=False) == "file"


class DeltaOverBaseWithoutCoreStore(StateStore):
    """Stages a delta over a base whose directory is on disk, though its ``core.jsonl`` was
    removed under it."""

    def base_on_disk(self, generation: int) -> bool:
        return self.fs.entry_kind(self.fs.root / gen_name(generation), reading=False) == "dir"


class StaleDeltaEntryStore(StateStore):
    """A key changed twice in one delta chain keeps its first entry in later deltas."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deltas = _StaleEntryDeltaWriter()


class AllDigitBitsRefusedStore(StateStore):
    """A bit pattern is checked against a set of hex digits it must be a proper subset of,
    so a pattern that holds all sixteen digits is refused."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        def upper(record: object) -> object:
            if not isinstance(record, dict) or not isinstance(record.get("rotor"), list):
                return record
            rotor = [
                p.upper() if isinstance(p, str) and len(set(p)) == 16 else p
                for p in record["rotor"]
            ]
            return {**record, "rotor": rotor}

        super().apply(
            [
                {**m, "record": upper(m.get("record"))} if isinstance(m, dict) else m
                for m in mutations
            ]
        )


class ForgetsLiveBaseStore(StateStore):
    """After each checkpoint the live generation's base is forgotten, so a compaction's
    step 6 removes the base of the delta generation it keeps."""

    def prune(self, generation: int) -> None:
        self._live_base = None
        super().prune(generation)


class ArrivalOrderWriter(JournalWriter):
    """Frames a payload with its members in the order they arrived, not canonical JSON."""

    def append(self, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        line = b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"
        size = self._size()
        created = self.fs.entry_kind(self.path, reading=False) is None
        self.fs.append_synced(self.path, line)
        if created:
            self.fs.fsync_dir(self.path.parent)
        self.size = size + len(line)


class ArrivalOrderQueue(ProposalQueue):
    """Journals each proposal with its members in the order the request listed them."""

    @classmethod
    def open(cls, path: Path, fs: FileOps) -> ProposalQueue:
        queue = super().open(path, fs)
        queue.writers = {
            name: ArrivalOrderWriter(writer.path, fs, writer.size)
            for name, writer in queue.writers.items()
        }
        return queue


class ProposalsInArrivalOrderStore(StateStore):
    """Proposals are journaled in the members' arrival order (PROTO-ORDER-006)."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return ArrivalOrderQueue.open(fs.root, fs)


class RecordsInArrivalOrderStore(StateStore):
    """Writes each core record with its members in the order the mutation gave them."""

    def encode(self, records: Iterable[Record]) -> bytes:
        lines = (
            json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
            for record in sorted(records, key=sort_key)
        )
        return b"".join(lines)


class _TouchedDeltaWriter(DeltaWriter):
    """Puts every key a batch put since the base whose record is another object than the
    base's, so a record put again as it is (or put back to the base's value) is put again."""

    def delta(self, records: Mapping[Key, Record], core: bytes) -> tuple[Base, bytes] | None:
        if self._base is None:
            return None
        base, held = self._base
        keys = sorted(
            (key for key in self._since if records.get(key) is not held.get(key)),
            key=lambda key: (key[0].encode("utf-8"), key[1].encode("utf-8")),
        )
        data = b"".join(
            delete_entry(key) if records.get(key) is None else put_entry(records[key])
            for key in keys
            if records.get(key) is not None or key in held
        )
        return None if len(data) * COMPACT_RATIO > len(core) else (base, data)


class _DeleteAbsentDeltaWriter(DeltaWriter):
    """Writes a delete for every key deleted since the base, also one the base never held
    (a record put and deleted since)."""

    def delta(self, records: Mapping[Key, Record], core: bytes) -> tuple[Base, bytes] | None:
        if self._base is None:
            return None
        base, held = self._base
        keys = sorted(
            {
                *changed_keys(records, held, self._since),
                *(k for k in self._since if k not in records),
            },
            key=lambda key: (key[0].encode("utf-8"), key[1].encode("utf-8")),
        )
        data = b"".join(
            delete_entry(key) if records.get(key) is None else put_entry(records[key])
            for key in keys
        )
        return None if len(data) * COMPACT_RATIO > len(core) else (base, data)


class TouchedDeltaStore(StateStore):
    """A delta puts every record a batch put since the base, unchanged ones too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deltas = _TouchedDeltaWriter()


class DeleteAbsentDeltaStore(StateStore):
    """A delta deletes every record deleted since the base, also one the base never held."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deltas = _DeleteAbsentDeltaWriter()


class WritesUnreadableStore(StateStore):
    """A failed file write is answered STATE_UNREADABLE, not STATE_IO."""

    file_ops = _bent(bent.WritesUnreadable)


class StaleAfterRewriteWriter(JournalWriter):
    """A journal stays stale after a rewrite that succeeded: each later append rewrites it
    again first."""

    def rewrite(self) -> None:
        super().rewrite()
        self.stale = True


class StaleAfterRewriteStore(StateStore):
    """Once a failed append had its journal rewritten, every later append rewrites the
    journal again before it appends."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        queue = ProposalQueue.open(fs.root, fs)
        queue.writers = {
            name: StaleAfterRewriteWriter(writer.path, fs, writer.size)
            for name, writer in queue.writers.items()
        }
        return queue


class NothingToRewriteRefusedWriter(JournalWriter):
    """A rewrite of a journal that holds no line and no file refuses, so once the append
    that would have created it failed, every later append of the life is refused."""

    def rewrite(self) -> None:
        if self.fs.read_file(self.path, reading=False) is None and not self._size():
            raise StateError(
                f"cannot rewrite {self.path}: it is gone", field="path", code="STATE_IO"
            )
        super().rewrite()


class NothingToRewriteRefusedStore(StateStore):
    """After a refused append that would have created the proposals journal, every later
    proposal of that life is refused."""

    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        queue = ProposalQueue.open(fs.root, fs)
        queue.writers = {
            name: NothingToRewriteRefusedWriter(writer.path, fs, writer.size)
            for name, writer in queue.writers.items()
        }
        return queue


def _holds_any_entry(fs: FileOps, number: int, name: str) -> bool:
    """Whether gen-<number> holds an entry *name*, a directory included."""
    path = fs.root / gen_name(number)
    return fs.entry_kind(path, reading=False) == "dir" and (
        fs.entry_kind(path / name, reading=False) is not None
    )


class HollowCoreKeptStore(StateStore):
    """Step 6 takes a directory named core.jsonl or delta.jsonl for a core, so an invalid
    generation holding one is kept."""

    def prune(self, generation: int) -> None:
        with mock.patch.object(steps, "holds", _holds_any_entry):
            super().prune(generation)


class _CoreDirsAsFiles(FileOps):
    """A directory named core.jsonl or delta.jsonl inside a generation is taken for a file."""

    def entry_kind(self, path: Path, *, reading: bool) -> str | None:
        kind = super().entry_kind(path, reading=reading)
        parent = Path(path).parent.name
        if kind == "dir" and Path(path).name in (CORE, DELTA) and parent.startswith("gen-"):
            return "file"
        return kind


class HollowCoreUnlinkedStore(StateStore):
    """A directory named core.jsonl or delta.jsonl in a generation is taken for a file: step
    6 keeps such an invalid generation, or unlinks the directory and fails."""

    file_ops = _bent(_CoreDirsAsFiles)


def _unterminated_core_read(data: bytes, schema_version: int) -> dict[Key, Record]:
    """``core.jsonl`` decoded as if its last line had its ``\\n``."""
    return decode_core(data if not data or data.endswith(b"\n") else data + b"\n", schema_version)


class UnterminatedCoreLineStore(StateStore):
    """A core whose last line lacks its ``\\n`` is read as if it had one (a reader splitting
    the lines wherever they end), so its record loads where it is malformed."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "decode_core", _unterminated_core_read):
            return super().load(fs)


def _bom_stripped_core_read(data: bytes, schema_version: int) -> dict[Key, Record]:
    """``core.jsonl`` decoded with a leading UTF-8 byte order mark dropped."""
    return decode_core(data.removeprefix(b"\xef\xbb\xbf"), schema_version)


class BomStrippedCoreStore(StateStore):
    """A core opening with a byte order mark is read without it (a decoder that drops the
    mark, TextDecoder's default), so its first record loads where it is malformed."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "decode_core", _bom_stripped_core_read):
            return super().load(fs)


_real_check_generation = manifest.check_generation


def _manifest_members_of_any_json(directory: Path, fs: FileOps | None = None) -> Any:
    """A generation read with its manifest's members looked up in whatever JSON it holds: a
    manifest that is JSON but no object is not caught, and the load fails on it."""
    data = (fs or FileOps(directory)).read_file(directory / MANIFEST)
    if data is not None:
        try:
            value = json.loads(data.decode("utf-8"))
        except ValueError:
            value = {}
        if not isinstance(value, dict):
            raise TypeError(f"a {type(value).__name__} has no members")
    return _real_check_generation(directory, fs)


class ManifestNotObjectUncaughtStore(StateStore):
    """A manifest that is JSON but no object (null, an array) makes the load fail, not fall back."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "check_generation", _manifest_members_of_any_json):
            return super().load(fs)


class ManifestEncodingDetectedStore(StateStore):
    """A manifest is parsed in the encoding it looks like: a byte order mark, UTF-16 or UTF-32
    make no generation invalid."""

    file_ops = _bent(bent.ManifestEncodingDetected)
