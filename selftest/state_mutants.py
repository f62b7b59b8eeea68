"""Every deliberately broken persisted-state engine, with the requirement ids that must fail on it.

Each engine is the reference ``ProtocolHandler`` with one of its state hooks replaced
(``store_class``, ``recover_journal``, ``soak_turn`` or ``resume_life``), so it has one
defect in its state store, journal recovery, soak or the life of a session on a store;
its class is its factory, so
``selftest.state_mutants:<ClassName>`` plugs it in by name, in-process or
through ``python -m conformance.engines.host`` for the process-level requirements.
``BROKEN_STATE`` maps a short name to a :class:`BrokenEngine`; the self-test proves
every id in ``catches`` fails on it.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from pathlib import Path
from typing import Any
from unittest.mock import patch

from reference.errors import EngineError
from reference.protocol.envelope import bad_arg
from reference.runtime import ChatRuntime
from reference.runtime.persistence import PersistedSession
from reference.serve import ProtocolHandler
from reference.state import JournalRecovery, StateError, StateStore, journal
from reference.state.soak import Emit
from selftest import state_broken_stores as stores
from selftest.engines import BrokenEngine, broken_engine
from selftest.mutants.bounds import (
    DeleteKeyUnbounded,
    JournalHeaderUnicodeDigits,
    JournalHexAnyCase,
    JournalReadsDeclaredLength,
    RotorDigitsUncounted,
    SaidCutBefore160,
    SaidCutInUtf16Units,
    SaidKeptAsSent,
    SaidKeptFour,
    VaultKeyAnyCase,
)
from selftest.mutants.check_order import ChecksumBeforeSchema, InUseBeforeFiles
from selftest.mutants.order_pairs import Order2SchemaBeforeFields
from selftest.mutants.porting_state import (
    AnyCaseDigest,
    BufferKeys,
    CStringKeys,
    DirtyAsInteger,
    FoldedKeys,
    FreshNullWhenLoaded,
    Int32Fields,
    LenientCoreReader,
    LineageForgetsRecovery,
    NegativeCountsClamped,
    NormalisedKeys,
    ParsedPointer,
    PartialApply,
    PendingCapInclusive,
    TurnsForgotten,
    Utf16KeyLength,
    Utf16KeyOrder,
    WholeFloatsAsIntegers,
)
from selftest.mutants.restart47 import (
    ClaimForgottenOnPlainTurn,
    ClaimFromKeptSaid,
    ClaimFromLatestSaid,
    ContextFromVault,
    ContextNotRestored,
    CountFromSaid,
    FirstTurnFromLastTurn,
    FirstTurnFromSaid,
    LastTurnFromSaid,
    RecencyFromFirstMention,
    RotorAsFloat32,
    SaidClaimsDropped,
    SaidCutToTwo,
    SaidOldestFirst,
    SaidTextCutAt128,
    TurnsFromVault,
)
from selftest.state_apart_mutants import PendingCountPerProcess
from selftest.state_broken_ops import (
    acknowledge_first,
    recover_keeping_torn_tail,
    recover_lenient_utf8,
    recover_missing_as_torn,
    recover_short_last_as_corrupt,
    recover_short_line_as_torn,
    recover_unterminated_as_whole,
    recover_without_checksums,
    with_claimed_dir_syncs,
)
from selftest.state_close_mutants import CloseFailureIgnored, ReadCloseStateIo
from selftest.state_codecs import (
    JournalCrcUpperHex,
    JournalLengthInCodePoints,
    LifeContextEmptyString,
    LineageBootsFromZero,
    LineageNullsOmitted,
    ManifestTurnCountOffByOne,
    ManifestUpperHex,
    PointerWithoutNewline,
    RotorFloats,
    RotorLittleEndian,
    VaultAddressLowBits,
    VaultTurnsOneBased,
)
from selftest.state_commit_start_mutants import (
    FirstCommitIgnoresDirSync,
    FirstCommitKeepsDebris,
    ModesFromPointer,
    OverflowSkipsCanonicalCheck,
    RefusedFirstCommitForgets,
)
from selftest.state_counter_mutants import (
    BootsAsText,
    GenerationsAsText,
    LookalikeAloneNotFresh,
)
from selftest.state_delta_mutants import (
    DeltaAbsentDeleteRefused,
    DeltaBaseAnySchema,
    DeltaBaseHashTrusted,
    DeltaBaseMembersInOrder,
    DeltaBaseMembersLoose,
    DeltaBasePruned,
    DeltaBaseValidityUnchecked,
    DeltaBaseZeroAllowed,
    DeltaDeletesUnchecked,
    DeltaEntryMembersByOp,
    DeltaIdentityTrusted,
    DeltaIgnored,
    DeltaKeysInUtf16Units,
    DeltaLaterBaseAllowed,
    DeltaLinkedBaseInvalid,
    DeltaLinkedBaseMissing,
    DeltaMalformedAsDamage,
    DeltaOnWrongBase,
    DeltaUnchangedPutRefused,
    DeltaUnreadableBaseInvalid,
    HeldDeltaBasesPruned,
    IdentityOfHexLineDigests,
)
from selftest.state_dirty_mutants import (
    FreshCloseCommits,
    RecoveredStoreHealsPointer,
    StickyDirtyFlag,
)
from selftest.state_disk_mutants import (
    DiskAnyIntegerBoot,
    DiskBoolBoot,
    DiskFoldedDebris,
    DiskIntegersTo253,
    DiskIsdigitPointer,
    DiskManifestLastMemberWins,
    DiskShortNumberPointer,
    DiskUnboundedCoreIntegers,
    DiskUnboundedTurnCount,
    DiskUnicodeGenerations,
    DiskZeroGeneration,
)
from selftest.state_fallback_mutants import (
    DebrisNotFresh,
    FallbackSkipsRefused,
    MissingPointerFresh,
)
from selftest.state_gap_mutants import (
    AnyPayloadJournal,
    CountsUnchecked,
    GenerationUnchecked,
    UnopenableAsIo,
)
from selftest.state_gaps40_mutants import (
    GapsFieldsAtEveryVersion,
    GapsKindsAtEveryVersion,
    GapsOrphanVaultResumed,
    GapsSignalEndsAnswer,
    GapsSoakIgnoresSignal,
    GapsSoakStopsUnacknowledged,
    GapsStoppedHolderIgnored,
)
from selftest.state_journal_mutants import (
    BadLastLineCut,
    DirtiedByJournalRewrite,
    JournalRewriteLeftToUmask,
    JournalRewrittenAt0644,
    JournalsRepairedAsRead,
    JournalStaleForever,
    LineageRewrittenAt0644,
    NothingAckedNotRewritten,
    UnreadableJournalAsEmpty,
    UnreadableJournalAsIO,
)
from selftest.state_leftover_mutants import (
    DanglingPointerRemovesPast,
    MalformedPastRemoved,
    PastLeftoverOnlyWithoutCore,
    PastLeftoverOnlyWithoutManifest,
    PointerlessRemovesPast,
)
from selftest.state_life_turns_mutants import LifeTurnsAsTurnCount, SessionAtTurnCount
from selftest.state_lineage_mutants import (
    BootAfterLast,
    BootsCounted,
    MigrationParentAtCurrentVersion,
)
from selftest.state_load_mutants import LoadClearsLeftovers
from selftest.state_lstat_mutants import LstatFailureSwapped
from selftest.state_mode_mutants import (
    CoreAndDeltaModedApart,
    FileModesLeftToUmask,
    FreshFilesOwnerOnly,
)
from selftest.state_open_mutants import (
    LeftoversRemovedBeforeJournals,
    LockedRefusalClearsLock,
    LockedRefusalLate,
    RefusedOpenKeepsLock,
)
from selftest.state_order_mutants import (
    DebrisClearedLate,
    ManifestBeforeCoreSync,
    PointerRenamedBeforeSync,
    PruneBeforePointer,
    PruneManifestFirstReportedCoreFirst,
    PruneOldestFirst,
)
from selftest.state_proposal_mutants import (
    EmptyProposalAsList,
    OverflowCorruptLinesSpill,
    PendingCountsCorruptLines,
    ProposalIntegersAsDoubles,
    ProposalIntegersInHashedRange,
)
from selftest.state_put_mutants import PutMergesOptionalMembers
from selftest.state_register_mutants import (
    RegisterFromSessionRecord,
    SessionRecordKept,
    StoreClaimedBeforeRegister,
)
from selftest.state_retry_mutants import NumberedOnce
from selftest.state_session_start_mutants import (
    LifeOnlyFromSchema4,
    SessionRecordAtOpen,
    ShutdownEndsSessionsThroughClose,
    ShutdownSettlesRefusedCheckpoint,
)
from selftest.state_shutdown_mutants import (
    ShutdownCommitsDirty,
    ShutdownKeepsLock,
    ShutdownSignalStatusZero,
    ShutdownStopsAtClosedHandle,
)
from selftest.state_start_mutants import RefusalResetsTurns, SessionHoldsStore
from selftest.state_type_mutants import (
    BoolCoreIntegers,
    BoolRecordIntegers,
    LaxBoot,
    LaxSchemaVersion,
)
from selftest.state_utf8_mutants import CoreLenientUtf8, DeltaNotObjectAsDamage
from selftest.state_vault_mutants import VaultKeyOfWordAsWritten
from selftest.utf8_tail_mutants import Utf8TailHeldBack


class NoDirFsync(ProtocolHandler):
    """Checkpoints never fsync a directory: the renames of a commit are not durable."""

    def store_class(self) -> type[StateStore]:
        return stores.NoDirFsyncStore


class NoFileFsync(ProtocolHandler):
    """Generation files are not fsynced before the staging directory is renamed."""

    def store_class(self) -> type[StateStore]:
        return stores.NoFileFsyncStore


class ClaimedDirSync(ProtocolHandler):
    """Checkpoints never fsync a directory, yet ``state.trace_checkpoint`` reports they did."""

    def store_class(self) -> type[StateStore]:
        return stores.NoDirFsyncStore

    def op_state_trace_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        """The checkpoint's trace with a directory fsync claimed after each rename."""
        traced = super().op_state_trace_checkpoint(args)
        return {**traced, "ops": with_claimed_dir_syncs(traced["ops"])}


class DebrisRemovalUnreported(ProtocolHandler):
    """``state.trace_checkpoint`` leaves out the files the checkpoint unlinks."""

    def op_state_trace_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        traced = super().op_state_trace_checkpoint(args)
        return {**traced, "ops": [op for op in traced["ops"] if op["op"] != "unlink"]}


class WriteModeMisreported(ProtocolHandler):
    """``state.trace_checkpoint`` reports each write with the mode asked of ``open`` (0666)."""

    def op_state_trace_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        traced = super().op_state_trace_checkpoint(args)
        ops = [{**op, "mode": 0o666} if op["op"] == "write" else op for op in traced["ops"]]
        return {**traced, "ops": ops}


class DuplicatesAccepted(ProtocolHandler):
    """A core.jsonl holding one (kind, key) on two lines (or out of order) loads, the later
    line winning."""

    def store_class(self) -> type[StateStore]:
        return stores.DuplicatesAcceptedStore


class UnknownHandleAsBadArgs(ProtocolHandler):
    """A store handle that is closed or was never opened is refused as an invalid argument
    (PROTOCOL_BAD_ARGS), not STATE_NOT_OPEN."""

    def store(self, store_id: str) -> StateStore:
        if store_id not in self.stores:
            bad_arg("store", f"no store {store_id!r}")
        return super().store(store_id)


class InPlaceCommit(ProtocolHandler):
    """Checkpoints rewrite the live generation's files in place, then rename that directory."""

    def store_class(self) -> type[StateStore]:
        return stores.InPlaceStore


class AckBeforeDurable(ProtocolHandler):
    """``state.soak`` acknowledges a checkpoint before committing it."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        acknowledge_first(store, mutations, emit)


class QueuedSoakEvents(ProtocolHandler):
    """``state.soak`` hands its event lines to a writer thread and goes on at once (an
    asynchronous write it never awaits): when the reader lags, checkpoints are committed
    before their ``begin`` reaches the output."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        if not hasattr(self, "_queued"):
            self._queued: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
            threading.Thread(target=self._write_queued, args=(emit,), daemon=True).start()
        super().soak_turn(store, mutations, self._queued.put)

    def _write_queued(self, emit: Emit) -> None:
        while True:
            emit(self._queued.get())


class SoakEventsWithBatchId(ProtocolHandler):
    """A ``state.soak`` inside a batch streams its events with the batch's id, not its
    element's (the id taken from the line, not from the request the op answers)."""

    _batch_id: int | str | None = None

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        self._batch_id = self.current_id
        try:
            return super().op_batch(args)
        finally:
            self._batch_id = None

    def op_state_soak(self, args: dict[str, Any]) -> dict[str, Any]:
        if self._batch_id is not None:
            self.current_id = self._batch_id
        return super().op_state_soak(args)


class SoakEventsWithoutId(ProtocolHandler):
    """``state.soak`` event lines carry ``"id": null`` instead of the request's id."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        super().soak_turn(store, mutations, lambda event: emit({**event, "id": None}))


class SoakEventsWithTurn(ProtocolHandler):
    """``state.soak`` event lines carry an extra ``turn`` member the schema does not list."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        turn = store.generation + 1
        super().soak_turn(store, mutations, lambda event: emit({**event, "turn": turn}))


class SoakRefusesLargestCount(ProtocolHandler):
    """``state.soak`` refuses ``iterations`` 2^53 - 1, the largest count it must take (an
    "at most" read as "less than")."""

    soak_max_iterations = 2**53 - 2


class JournalEscapesByteOrderMark(ProtocolHandler):
    """A journal payload escapes U+FEFF (the byte order mark, invisible in text) as
    ``\\ufeff``; canonical JSON writes it as itself."""

    def dispatch(self, request: object) -> dict[str, Any]:
        encode = journal.canonical_bytes

        def escaped(value: object) -> bytes:
            return encode(value).replace("\ufeff".encode(), b"\\ufeff")

        with patch.object(journal, "canonical_bytes", escaped):
            return super().dispatch(request)


class SoakIterationsUnbounded(ProtocolHandler):
    """``state.soak`` takes an ``iterations`` past 2^53 - 1 (the reference's mistake, found by
    ``tools.differential``: a soak that never ends)."""

    soak_max_iterations = 2**64


class SoakResultWithTurnCount(ProtocolHandler):
    """``state.soak``'s response carries a ``turn_count`` besides ``{iterations, generation,
    identity}`` (the Node port's mistake, found by ``tools.differential``)."""

    def op_state_soak(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_state_soak(args)
        return {**result, "turn_count": result["iterations"]}


class ApplyAnswerRenamed(ProtocolHandler):
    """``state.apply`` answers ``{"changed": ...}`` instead of ``{"dirty": ...}``."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"changed": super().op_state_apply(args)["dirty"]}


class LeftoversReused(ProtocolHandler):
    """A leftover staging directory is never cleared, and a commit keeps the files in it."""

    def store_class(self) -> type[StateStore]:
        return stores.LeftoversReusedStore


class VersionUnchecked(ProtocolHandler):
    """A newer or malformed schema version starts a fresh, empty life instead of a refusal."""

    def store_class(self) -> type[StateStore]:
        return stores.FreshOnSchemaRefusalStore


class FreshOnBadPointer(ProtocolHandler):
    """A missing, empty, garbage or dangling pointer starts a fresh life, not a fall back."""

    def store_class(self) -> type[StateStore]:
        return stores.FreshOnBadPointerStore


class InsertionOrder(ProtocolHandler):
    """core.jsonl lists the records in insertion order, not by ``(kind, key)``."""

    def store_class(self) -> type[StateStore]:
        return stores.InsertionOrderStore


class DefaultsWritten(ProtocolHandler):
    """Additive-optional fields are written even when they equal their default."""

    def store_class(self) -> type[StateStore]:
        return stores.DefaultsWrittenStore


class ReloadChangesBytes(ProtocolHandler):
    """Loading bumps every recognizer's weight by one."""

    def store_class(self) -> type[StateStore]:
        return stores.ReloadBumpsStore


class NoLineage(ProtocolHandler):
    """Boot events are never written: the lineage journal stays empty."""

    def store_class(self) -> type[StateStore]:
        return stores.NoLineageStore


class ShutdownRecommits(ProtocolHandler):
    """A clean close always commits a new generation, even when nothing changed."""

    def store_class(self) -> type[StateStore]:
        return stores.ShutdownRecommitsStore


class ModesReset(ProtocolHandler):
    """Every new generation file gets mode 0644, whatever the live file's mode."""

    def store_class(self) -> type[StateStore]:
        return stores.ModesResetStore


class OneModeForAllFiles(ProtocolHandler):
    """A new generation's files all take one live file's mode, not each its own."""

    def store_class(self) -> type[StateStore]:
        return stores.OneModeStore


class UnreadGenerationsKept(ProtocolHandler):
    """A checkpoint never removes a valid generation its writer did not load."""

    def store_class(self) -> type[StateStore]:
        return stores.KeepsUnreadStore


class StaleDeltaEntry(ProtocolHandler):
    """A key changed twice in one delta chain keeps its first entry in later deltas."""

    def store_class(self) -> type[StateStore]:
        return stores.StaleDeltaEntryStore


class TouchedDelta(ProtocolHandler):
    """A delta puts every record a batch put since the base, unchanged ones too."""

    def store_class(self) -> type[StateStore]:
        return stores.TouchedDeltaStore


class DeleteAbsentDelta(ProtocolHandler):
    """A delta deletes every record deleted since the base, also one the base never held."""

    def store_class(self) -> type[StateStore]:
        return stores.DeleteAbsentDeltaStore


class DeltaOverMissingBase(ProtocolHandler):
    """A delta is staged over the base the writer remembers, though every generation was
    removed under it (the reference's mistake, found by ``tools.differential``)."""

    def store_class(self) -> type[StateStore]:
        return stores.DeltaOverMissingBaseStore


class DeltaOverBaseWithoutManifest(ProtocolHandler):
    """A delta is staged over a base whose ``manifest.json`` alone was removed under it."""

    def store_class(self) -> type[StateStore]:
        return stores.DeltaOverBaseWithoutManifestStore


class DeltaOverBaseWithoutCore(ProtocolHandler):
    """A delta is staged over a base whose ``core.jsonl`` alone was removed under it."""

    def store_class(self) -> type[StateStore]:
        return stores.DeltaOverBaseWithoutCoreStore


class ListedFilesBesideCoreUnchecked(ProtocolHandler):
    """Only the core (or delta) a manifest lists is checked: another listed file that is
    missing, or does not match its SHA-256, leaves the generation valid."""

    def store_class(self) -> type[StateStore]:
        return stores.MainFileOnlyStore


class CurrentTmpLinkUnlinked(ProtocolHandler):
    """A ``CURRENT.tmp`` that is a symbolic link is unlinked as debris, not refused with
    ``STATE_SYMLINK``."""

    def store_class(self) -> type[StateStore]:
        return stores.TmpLinkUnlinkedStore


class InvalidCoreJudgedByManifest(ProtocolHandler):
    """Step 6 keeps a generation that is not valid only when its manifest is damaged: a
    core that does not match a manifest that parses is removed."""

    def store_class(self) -> type[StateStore]:
        return stores.ManifestJudgedPruneStore


class FreshDigestGenerationNull(ProtocolHandler):
    """``state.digest`` answers generation null while nothing is committed (a fresh
    directory), not generation 0 as ``state.load`` and ``state.open`` do."""

    def op_state_digest(self, args: dict[str, Any]) -> dict[str, Any]:
        found = super().op_state_digest(args)
        return {**found, "generation": found["generation"] or None}


class EmptyLockNamesPid0(ProtocolHandler):
    """A second writer's refusal names pid 0 when ``LOCK`` is empty (a pid parsed as a
    number from no digits), not the holder unknown."""

    def store_class(self) -> type[StateStore]:
        return stores.EmptyPidLockStore


class LiveBaseForgotten(ProtocolHandler):
    """A compaction's step 6 removes the base of the live delta generation it keeps."""

    def store_class(self) -> type[StateStore]:
        return stores.ForgetsLiveBaseStore


class AllDigitBitsRefused(ProtocolHandler):
    """A bit pattern holding all sixteen hex digits is refused (a proper-subset test)."""

    def store_class(self) -> type[StateStore]:
        return stores.AllDigitBitsRefusedStore


class JournalWithoutChecksums(ProtocolHandler):
    """Journal recovery ignores the CRC: a corrupt line that parses is returned, not skipped."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_without_checksums(path, repair=repair)


class TornTailKept(ProtocolHandler):
    """Journal recovery never cuts a torn tail: it is reported as corrupt and left in the file."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_keeping_torn_tail(path, repair=repair)


class ProposalsDropped(ProtocolHandler):
    """Proposals past the pending cap are silently dropped instead of spilled."""

    def store_class(self) -> type[StateStore]:
        return stores.ProposalsDroppedStore


class ProposalsInArrivalOrder(ProtocolHandler):
    """state.propose journals a proposal with its members in the order they arrived."""

    def store_class(self) -> type[StateStore]:
        return stores.ProposalsInArrivalOrderStore


class RecordsInArrivalOrder(ProtocolHandler):
    """The core's records are written with their members in the order the mutation gave."""

    def store_class(self) -> type[StateStore]:
        return stores.RecordsInArrivalOrderStore


class NoLock(ProtocolHandler):
    """No single-writer lock: any number of writers open the same directory."""

    def store_class(self) -> type[StateStore]:
        return stores.NoLockStore


class LockFileOnly(ProtocolHandler):
    """The writer lock is named after the ``LOCK`` file, so unlinking ``LOCK`` bypasses it."""

    def store_class(self) -> type[StateStore]:
        return stores.LockFileStore


class UnpaddedLockName(ProtocolHandler):
    """The lock's abstract name is not padded: another runtime's writer binds another name."""

    def store_class(self) -> type[StateStore]:
        return stores.UnpaddedNameStore


class FollowsLinks(ProtocolHandler):
    """Entries are opened through symbolic links: a link in the directory is followed."""

    def store_class(self) -> type[StateStore]:
        return stores.FollowingLinksStore


class UnreadableAsMissing(ProtocolHandler):
    """A file that exists but cannot be read is taken for a missing one (and fallen back from)."""

    def store_class(self) -> type[StateStore]:
        return stores.UnreadableAsMissingStore


class UntypedFailures(ProtocolHandler):
    """Directories are listed with a bare ``os.listdir``: its failures escape untyped."""

    def store_class(self) -> type[StateStore]:
        return stores.UntypedFailuresStore


class SchemaFieldAsFile(ProtocolHandler):
    """A schema refusal names the manifest file in ``field`` instead of ``schema_version``."""

    def store_class(self) -> type[StateStore]:
        return stores.SchemaFieldAsFileStore


class VersionAsInt32(ProtocolHandler):
    """A schema version past 2^31 - 1 is refused as malformed, not as newer."""

    def store_class(self) -> type[StateStore]:
        return stores.VersionAsInt32Store


class FromVersionOnMigration(ProtocolHandler):
    """A boot event records ``from_version`` only for a migration, null for a resume."""

    def store_class(self) -> type[StateStore]:
        return stores.FromVersionOnMigrationStore


class TornJournalsKept(ProtocolHandler):
    """An open never cuts a torn journal tail, so what it appends fuses with the torn bytes."""

    def store_class(self) -> type[StateStore]:
        return stores.TornJournalsKeptStore


class DeletesIgnored(ProtocolHandler):
    """A ``delete`` mutation is accepted and does nothing."""

    def store_class(self) -> type[StateStore]:
        return stores.DeletesIgnoredStore


class PartialBatch(ProtocolHandler):
    """A refused batch keeps the mutations before its bad one."""

    def store_class(self) -> type[StateStore]:
        return stores.PartialBatchStore


class BareRecordField(ProtocolHandler):
    """A refused put names the record's own field (``key``), not its path in the request."""

    def store_class(self) -> type[StateStore]:
        return stores.BareRecordFieldStore


class ProposalArgumentCode(ProtocolHandler):
    """A float in a proposal is refused with ``PROTOCOL_BAD_ARGS``, not ``STATE_BAD_MUTATION``."""

    def store_class(self) -> type[StateStore]:
        return stores.ProposalArgumentCodeStore


class LockKeptOnFailedClose(ProtocolHandler):
    """A close whose commit fails keeps the lock and the handle open."""

    def store_class(self) -> type[StateStore]:
        return stores.LockKeptOnFailedCloseStore


class UnreadableAtCheckpoint(ProtocolHandler):
    """A checkpoint that cannot read the live generation answers ``STATE_UNREADABLE``."""

    def store_class(self) -> type[StateStore]:
        return stores.UnreadableAtCheckpointStore


class PipeAsMissing(ProtocolHandler):
    """A ``CURRENT`` that is a named pipe is taken for a missing pointer, not ``STATE_IO``."""

    def store_class(self) -> type[StateStore]:
        return stores.PipeAsMissingStore


class NewestOnlyFallBack(ProtocolHandler):
    """Falling back tries only the newest generation: an older valid one is never reached."""

    def store_class(self) -> type[StateStore]:
        return stores.NewestOnlyFallBackStore


class UnterminatedCoreLine(ProtocolHandler):
    """A core whose last line lacks its newline loads its record, not STATE_RECORD_MALFORMED."""

    def store_class(self) -> type[StateStore]:
        return stores.UnterminatedCoreLineStore


class BomStrippedCore(ProtocolHandler):
    """A core opening with a byte order mark loads its first record, not STATE_RECORD_MALFORMED."""

    def store_class(self) -> type[StateStore]:
        return stores.BomStrippedCoreStore


class ManifestNotObjectUncaught(ProtocolHandler):
    """A manifest that is JSON but no object fails the load instead of being fallen back from."""

    def store_class(self) -> type[StateStore]:
        return stores.ManifestNotObjectUncaughtStore


class ManifestEncodingDetected(ProtocolHandler):
    """A manifest is parsed in whatever encoding it looks like (a byte order mark, UTF-16)."""

    def store_class(self) -> type[StateStore]:
        return stores.ManifestEncodingDetectedStore


class NormalisedFileName(ProtocolHandler):
    """A manifest's file name is normalised before the rule: ``./core.jsonl`` is read."""

    def store_class(self) -> type[StateStore]:
        return stores.NormalisedFileNameStore


class PathComponentFileName(ProtocolHandler):
    """A manifest's file name is plain when pathlib sees one component: ``core.jsonl/`` is read."""

    def store_class(self) -> type[StateStore]:
        return stores.PathComponentFileNameStore


class AnyFileName(ProtocolHandler):
    """A manifest may list any file name: ``.``, ``..`` and ``sub/core.jsonl`` are read."""

    def store_class(self) -> type[StateStore]:
        return stores.AnyFileNameStore


class UnnamedWrongType(ProtocolHandler):
    """A generation entry that is not a directory is refused without naming it."""

    def store_class(self) -> type[StateStore]:
        return stores.UnnamedWrongTypeStore


class OverflowTornKept(ProtocolHandler):
    """A writer's open leaves the overflow journal's torn tail in place."""

    def store_class(self) -> type[StateStore]:
        return stores.OverflowTornKeptStore


class DebrisOneByOne(ProtocolHandler):
    """Debris is removed entry by entry: a staging-* link is refused after the rest is gone."""

    def store_class(self) -> type[StateStore]:
        return stores.DebrisOneByOneStore


class FallenBackFromRemoved(ProtocolHandler):
    """The open deletes the invalid generation CURRENT names, which it fell back from."""

    def store_class(self) -> type[StateStore]:
        return stores.FallenBackFromRemovedStore


class SchemaRefusedPastRemoved(ProtocolHandler):
    """A generation past CURRENT whose schema version is refused is removed at open as a
    leftover, and the open succeeds."""

    def store_class(self) -> type[StateStore]:
        return stores.SchemaRefusedPastRemovedStore


class LoadTakesLock(ProtocolHandler):
    """``state.load`` takes the writer lock while it reads: refused while a writer holds it."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        store_class = self.store_class()
        path = Path(args["dir"]) if isinstance(args.get("dir"), str) else None
        if path is None or not path.is_dir():
            return super().op_state_load(args)
        lock = store_class.writer_lock(path, store_class.file_ops(path))
        lock.acquire()
        try:
            return super().op_state_load(args)
        finally:
            lock.release()


class UnreadableInvalid(ProtocolHandler):
    """An unreadable generation that is not the live one is fallen back past, or removed at
    open, as if proven invalid."""

    def store_class(self) -> type[StateStore]:
        return stores.UnreadableInvalidStore


class PidKept(ProtocolHandler):
    """A close leaves the writer's pid in LOCK."""

    def store_class(self) -> type[StateStore]:
        return stores.PidKeptStore


class BootIdentityIsParent(ProtocolHandler):
    """A boot event's identity is its parent's, not the identity the open answered."""

    def store_class(self) -> type[StateStore]:
        return stores.BootIdentityIsParentStore


class RepairWhileReading(ProtocolHandler):
    """The open repairs journals before its last read, so a refused open has written."""

    def store_class(self) -> type[StateStore]:
        return stores.RepairWhileReadingStore


class StrippedPointer(ProtocolHandler):
    """CURRENT is stripped before it is read: a pointer without its newline loads."""

    def store_class(self) -> type[StateStore]:
        return stores.StrippedPointerStore


class EmptyRecovered(ProtocolHandler):
    """A load that did not fall back reports ``recovered`` as ``""``, not null."""

    def store_class(self) -> type[StateStore]:
        return stores.EmptyRecoveredStore


class AnonymousHolder(ProtocolHandler):
    """A second writer is refused without the holder's pid (or ``unknown``) in the message."""

    def store_class(self) -> type[StateStore]:
        return stores.AnonymousHolderStore


class SingleRead(ProtocolHandler):
    """Files are read with one 64 KiB ``read``: a larger core.jsonl loads truncated."""

    def store_class(self) -> type[StateStore]:
        return stores.SingleReadStore


class MissingJournalTorn(ProtocolHandler):
    """A journal that does not exist reads as one byte cut from a torn tail."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_missing_as_torn(path, repair=repair)


class LinkReadingHolder(ProtocolHandler):
    """A ``LOCK`` replaced by a link is read through it: the refusal names a foreign pid."""

    def store_class(self) -> type[StateStore]:
        return stores.LinkReadingHolderStore


class UnicodeDigitHolder(ProtocolHandler):
    """A ``LOCK`` holding a pid in Arabic-Indic, fullwidth or superscript digits is named as
    the holder's pid, not ``unknown``."""

    def store_class(self) -> type[StateStore]:
        return stores.UnicodeDigitHolderStore


class NumberedFromLive(ProtocolHandler):
    """A checkpoint numbers its generation one past the live one, ignoring those on disk."""

    def store_class(self) -> type[StateStore]:
        return stores.NumberedFromLiveStore


class PrunesNothing(ProtocolHandler):
    """A checkpoint never removes an older generation: they pile up."""

    def store_class(self) -> type[StateStore]:
        return stores.PrunesNothingStore


class DebrisKept(ProtocolHandler):
    """A checkpoint never clears staging entries or ``CURRENT.tmp`` planted under the writer."""

    def store_class(self) -> type[StateStore]:
        return stores.DebrisKeptStore


class LastGenerationRefused(ProtocolHandler):
    """Generation 99999999 is refused as exhausted: the bound is off by one."""

    def store_class(self) -> type[StateStore]:
        return stores.LastGenerationRefusedStore


class HashOfNothing(ProtocolHandler):
    """A fresh state's identity is the SHA-256 of no bytes, without the schema prefix."""

    def store_class(self) -> type[StateStore]:
        return stores.HashOfNothingStore


class ValidLeftoversRemoved(ProtocolHandler):
    """The open removes every generation past the one ``CURRENT`` names, valid ones too."""

    def store_class(self) -> type[StateStore]:
        return stores.ValidLeftoversRemovedStore


class JournalLenientUtf8(ProtocolHandler):
    """A journal payload that is not UTF-8 is decoded with replacements, not skipped."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_lenient_utf8(path, repair=repair)


class UnterminatedLineWhole(ProtocolHandler):
    """A last journal line that lacks only its newline is read as whole, not cut as torn.

    A port that frames by length and CRC alone accepts the line; the spec calls a last line
    without ``\\n`` a torn tail."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_unterminated_as_whole(path, repair=repair)


class ShortLastLineCorrupt(ProtocolHandler):
    """A complete last journal line shorter than its length is skipped as corrupt, not cut."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_short_last_as_corrupt(path, repair=repair)


class ShortLineTorn(ProtocolHandler):
    """A short line anywhere in a journal is a torn tail: the lines after it are cut."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover_short_line_as_torn(path, repair=repair)


class OverflowForgotten(ProtocolHandler):
    """An open forgets that the overflow journal holds proposals: new ones are queued ahead."""

    def store_class(self) -> type[StateStore]:
        return stores.OverflowForgottenStore


class NonObjectAsOp(ProtocolHandler):
    """A mutation that is not an object is refused naming ``mutations[i].op``."""

    def store_class(self) -> type[StateStore]:
        return stores.NonObjectAsOpStore


class UncreatableAsUnreadable(ProtocolHandler):
    """A writer's open that cannot create its directory answers ``STATE_UNREADABLE``."""

    def store_class(self) -> type[StateStore]:
        return stores.UncreatableAsUnreadableStore


class UnwritableLockUnreadable(ProtocolHandler):
    """A writer's open of a read-only directory answers ``STATE_UNREADABLE``, not ``STATE_IO``."""

    def store_class(self) -> type[StateStore]:
        return stores.UnwritableLockUnreadableStore


class WriterListsAsLoad(ProtocolHandler):
    """A checkpoint or proposal in a directory made unsearchable answers ``STATE_UNREADABLE``."""

    def store_class(self) -> type[StateStore]:
        return stores.WriterListsAsLoadStore


class RootFailureAsIO(ProtocolHandler):
    """A load of a state directory of mode 000 answers ``STATE_IO``, not ``STATE_UNREADABLE``."""

    def store_class(self) -> type[StateStore]:
        return stores.RootFailureAsIOStore


class MissingUnderWrite(ProtocolHandler):
    """A checkpoint or proposal after the directory was removed is ``ENGINE_INTERNAL``."""

    def store_class(self) -> type[StateStore]:
        return stores.MissingUnderWriteStore


class UnreadableWrites(ProtocolHandler):
    """A checkpoint that cannot create or remove an entry answers ``STATE_UNREADABLE``."""

    def store_class(self) -> type[StateStore]:
        return stores.UnreadableWritesStore


class StrictAsciiHolder(ProtocolHandler):
    """A ``LOCK`` holding bytes that are not ASCII makes a second writer's open crash."""

    def store_class(self) -> type[StateStore]:
        return stores.StrictAsciiHolderStore


class RetriedSync(ProtocolHandler):
    """A failed fsync is retried on the same descriptor and its success believed."""

    def store_class(self) -> type[StateStore]:
        return stores.RetriedSyncStore


class RefusedListed(ProtocolHandler):
    """A proposal whose append failed is refused, yet its line stays in the journal."""

    def store_class(self) -> type[StateStore]:
        return stores.RefusedListedStore


class TornAppendKept(ProtocolHandler):
    """A journal line written in two writes is not rolled back when the second fails: the
    next acknowledged line fuses with the torn bytes."""

    def store_class(self) -> type[StateStore]:
        return stores.TornAppendKeptStore


class UntypedClose(ProtocolHandler):
    """A failed close escapes untyped, as ENGINE_INTERNAL."""

    def store_class(self) -> type[StateStore]:
        return stores.UntypedCloseStore


class WritesUnreadable(ProtocolHandler):
    """A failed file write is answered STATE_UNREADABLE, as a load's read, not STATE_IO."""

    def store_class(self) -> type[StateStore]:
        return stores.WritesUnreadableStore


class StaleAfterRewrite(ProtocolHandler):
    """A journal stays stale after its rewrite succeeded: every later append rewrites it."""

    def store_class(self) -> type[StateStore]:
        return stores.StaleAfterRewriteStore


class NothingToRewriteRefused(ProtocolHandler):
    """After the append that would have created a journal failed, every later one is refused."""

    def store_class(self) -> type[StateStore]:
        return stores.NothingToRewriteRefusedStore


class HollowCoreKept(ProtocolHandler):
    """Step 6 keeps an invalid generation whose core.jsonl or delta.jsonl is a directory."""

    def store_class(self) -> type[StateStore]:
        return stores.HollowCoreKeptStore


class HollowCoreUnlinked(ProtocolHandler):
    """A directory named core.jsonl or delta.jsonl in a generation is taken for a file."""

    def store_class(self) -> type[StateStore]:
        return stores.HollowCoreUnlinkedStore


class RetryErrorReported(ProtocolHandler):
    """A failed proposal reports the failure of the rewrite that followed, not its own."""

    def store_class(self) -> type[StateStore]:
        return stores.RetryErrorReportedStore


class PrunesUnverified(ProtocolHandler):
    """Prune removes a generation a fall back could not verify, acknowledged records and all."""

    def store_class(self) -> type[StateStore]:
        return stores.PrunesUnverifiedStore


class BeginBeforeNumbering(ProtocolHandler):
    """``state.soak``'s begin announces one past the live generation, though a crash left a
    generation past ``CURRENT`` and the checkpoint numbers past it."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        store.apply(mutations)
        begun = {"generation": store.generation + 1, "identity": store.digest()["identity"]}
        emit({"event": "begin", **begun})
        info = store.checkpoint()
        emit({"event": "ack", "generation": info.generation, "identity": info.identity})


class LifeForgotten(ProtocolHandler):
    """A session on a store checkpoints its life but starts a fresh one: a restart forgets
    the vault (and all the life)."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        runtime.persisted = PersistedSession(store, runtime.register_id)


class TurnReplayed(ProtocolHandler):
    """A resumed session counts its last committed turn as not lived: the client sends it
    again and it is lived twice."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        life = runtime.truth.life()
        if life.turns:
            runtime.resume(dataclasses.replace(life, turns=life.turns - 1))


class FieldWithoutVault(ProtocolHandler):
    """A resumed session gets its turns, subject and field back, but not its vault."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        runtime.resume(dataclasses.replace(runtime.truth.life(), hits=()))


class SharedLife(ProtocolHandler):
    """Any number of sessions may live on one store at once, each writing its own life."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        self.lives.clear()
        return super().op_session_open(args)


class ClosedStoreOpensSessions(ProtocolHandler):
    """``session.open`` takes a handle ``state.close`` closed: only an unknown one is refused."""

    def op_state_close(self, args: dict[str, Any]) -> dict[str, Any]:
        store_id = args.get("store")
        closing = self.stores.get(store_id) if isinstance(store_id, str) else None
        result = super().op_state_close(args)
        if closing is not None:
            self.__dict__.setdefault("closed_stores", {})[store_id] = closing
        return result

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        store_id = args.get("store")
        closed = self.__dict__.get("closed_stores", {})
        if not isinstance(store_id, str) or store_id in self.stores or store_id not in closed:
            return super().op_session_open(args)
        self.stores[store_id] = closed[store_id]
        try:
            return super().op_session_open(args)
        finally:
            self.stores.pop(store_id, None)


class DroppingSession(PersistedSession):
    """Takes a turn whose checkpoint is refused back out of the store's memory."""

    def record_turn(self, life: Any) -> Any:
        records, turns = dict(self.store._records), self.store._turn_count
        try:
            return super().record_turn(life)
        except StateError:
            self.store._records, self.store._turn_count = records, turns
            raise


class RefusedTurnDropped(ProtocolHandler):
    """A turn whose checkpoint is refused is dropped from the store: the next session
    resumes before it, though the session lived it."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        persisted = DroppingSession(store, runtime.register_id)
        runtime.persisted = persisted


class RefusedTurnKeepsStore(ProtocolHandler):
    """A turn whose checkpoint is refused ends its session but leaves the store marked as
    carrying it: the next ``session.open`` on that handle is ``STATE_IN_USE``."""

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        lives = dict(self.lives)
        try:
            return super().op_session_chat(args)
        except EngineError:
            self.lives = lives
            raise


class RefusedTurnHeldUntilClose(ProtocolHandler):
    """A turn whose checkpoint was refused is committed by ``state.close`` only.

    ``state.checkpoint`` of its store answers the last durable generation, as if clean."""

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        owner = args.get("session")
        store_id = next((s for s, o in self.lives.items() if o == owner), None)
        try:
            return super().op_session_chat(args)
        except EngineError:
            if store_id is not None:
                self.__dict__.setdefault("held", set()).add(store_id)
            raise

    def op_state_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        store_id = args.get("store")
        held = self.__dict__.get("held", set())
        if isinstance(store_id, str) and store_id in held and store_id in self.stores:
            committed = self.stores[store_id]._committed
            return {
                "generation": committed.generation,
                "identity": committed.identity,
                "turn_count": committed.turn_count,
            }
        return super().op_state_checkpoint(args)


class RegisterBeforeStore(ProtocolHandler):
    """``session.open`` loads the register before it checks the store it was given."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        register_id = args.get("register_id")
        if isinstance(register_id, str):
            self.new_runtime(register_id, ())
        return super().op_session_open(args)


_TABLE = (
    broken_engine("no_dir_fsync", NoDirFsync, "STATE-CRASH-001"),
    broken_engine("lstat_failure_swapped", LstatFailureSwapped, "STATE-EIO-001"),
    broken_engine("close_failure_ignored", CloseFailureIgnored, "STATE-EIO-001", "STATE-EIO-002"),
    broken_engine("read_close_state_io", ReadCloseStateIo, "STATE-EIO-001", "STATE-EIO-002"),
    broken_engine("no_file_fsync", NoFileFsync, "STATE-CRASH-001"),
    broken_engine("in_place_commit", InPlaceCommit, "STATE-CRASH-001"),
    broken_engine("debris_removal_unreported", DebrisRemovalUnreported, "STATE-TRACE-001"),
    broken_engine("write_mode_misreported", WriteModeMisreported, "STATE-TRACE-001"),
    broken_engine(
        "prune_manifest_first_reported_core_first",
        PruneManifestFirstReportedCoreFirst,
        "STATE-TRACE-001",
    ),
    broken_engine("pointer_renamed_before_sync", PointerRenamedBeforeSync, "STATE-STEPS-001"),
    broken_engine("prune_before_pointer", PruneBeforePointer, "STATE-STEPS-001"),
    broken_engine("prune_oldest_first", PruneOldestFirst, "STATE-STEPS-001"),
    broken_engine("debris_cleared_late", DebrisClearedLate, "STATE-STEPS-001"),
    broken_engine("manifest_before_core_sync", ManifestBeforeCoreSync, "STATE-STEPS-001"),
    broken_engine("manifest_counts_unchecked", CountsUnchecked, "STATE-MANIFEST-001"),
    broken_engine("manifest_generation_unchecked", GenerationUnchecked, "STATE-MANIFEST-001"),
    broken_engine("manifest_name_normalised", NormalisedFileName, "STATE-MANIFEST-001"),
    broken_engine("manifest_encoding_detected", ManifestEncodingDetected, "STATE-MANIFEST-002"),
    broken_engine("manifest_not_object_uncaught", ManifestNotObjectUncaught, "STATE-MANIFEST-001"),
    broken_engine("unterminated_core_line", UnterminatedCoreLine, "STATE-CANON-001"),
    broken_engine("bom_stripped_core", BomStrippedCore, "STATE-CANON-001"),
    broken_engine("manifest_name_one_component", PathComponentFileName, "STATE-MANIFEST-001"),
    broken_engine("journal_any_payload", AnyPayloadJournal, "STATE-JOURNAL-002"),
    broken_engine("unopenable_as_io", UnopenableAsIo, "STATE-UNREADABLE-001"),
    broken_engine("unknown_handle_as_bad_args", UnknownHandleAsBadArgs, "STATE-HANDLE-001"),
    broken_engine("duplicates_accepted", DuplicatesAccepted, "STATE-SCHEMA-001"),
    broken_engine("claimed_dir_sync", ClaimedDirSync, "STATE-TRACE-001", "STATE-CRASH-001"),
    broken_engine("ack_before_durable", AckBeforeDurable, "STATE-KILL-001"),
    broken_engine("queued_soak_events", QueuedSoakEvents, "STATE-KILL-002"),
    broken_engine("soak_events_with_batch_id", SoakEventsWithBatchId, "STATE-SOAK-003"),
    broken_engine("soak_events_without_id", SoakEventsWithoutId, "STATE-SOAK-001"),
    broken_engine("soak_events_with_turn", SoakEventsWithTurn, "STATE-SOAK-001"),
    broken_engine("soak_refuses_largest_count", SoakRefusesLargestCount, "STATE-SOAK-004"),
    broken_engine("journal_escapes_bom", JournalEscapesByteOrderMark, "STATE-CANON-002"),
    broken_engine("soak_result_with_turn_count", SoakResultWithTurnCount, "STATE-SOAK-001"),
    broken_engine("soak_iterations_unbounded", SoakIterationsUnbounded, "PROTO-ORDER-004"),
    broken_engine("apply_answer_renamed", ApplyAnswerRenamed, "STATE-APPLY-001"),
    broken_engine("leftovers_reused", LeftoversReused, "STATE-LEFTOVER-001"),
    broken_engine("checksum_before_schema", ChecksumBeforeSchema, "STATE-FIRST-001"),
    broken_engine("order2_schema_before_fields", Order2SchemaBeforeFields, "STATE-FIRST-001"),
    broken_engine("version_unchecked", VersionUnchecked, "STATE-SCHEMA-001", "STATE-SCHEMA-002"),
    broken_engine(
        "fresh_on_bad_pointer", FreshOnBadPointer, "STATE-POINTER-001", "STATE-SCHEMA-001"
    ),
    broken_engine("insertion_order", InsertionOrder, "STATE-ORDER-001"),
    broken_engine("defaults_written", DefaultsWritten, "STATE-ORDER-003"),
    broken_engine("reload_changes_bytes", ReloadChangesBytes, "STATE-ORDER-002"),
    broken_engine("no_lineage", NoLineage, "STATE-LINEAGE-001"),
    broken_engine("shutdown_recommits", ShutdownRecommits, "STATE-SHUTDOWN-001"),
    broken_engine("modes_reset", ModesReset, "STATE-MODE-001"),
    broken_engine("modes_from_pointer", ModesFromPointer, "STATE-MODE-001"),
    broken_engine("unread_generations_kept", UnreadGenerationsKept, "STATE-PRUNE-002"),
    broken_engine("stale_delta_entry", StaleDeltaEntry, "STATE-DELTA-356"),
    broken_engine("touched_delta", TouchedDelta, "STATE-DELTA-358"),
    broken_engine("delete_absent_delta", DeleteAbsentDelta, "STATE-DELTA-358"),
    broken_engine("live_base_forgotten", LiveBaseForgotten, "STATE-DELTA-356"),
    broken_engine("delta_over_missing_base", DeltaOverMissingBase, "STATE-DELTA-356"),
    broken_engine(
        "delta_over_base_without_manifest", DeltaOverBaseWithoutManifest, "STATE-DELTA-356"
    ),
    broken_engine("delta_over_base_without_core", DeltaOverBaseWithoutCore, "STATE-DELTA-356"),
    broken_engine("all_digit_bits_refused", AllDigitBitsRefused, "STATE-VAULT-001"),
    broken_engine("one_mode_for_all_files", OneModeForAllFiles, "STATE-MODE-001"),
    broken_engine("journal_without_checksums", JournalWithoutChecksums, "STATE-JOURNAL-002"),
    broken_engine("torn_tail_kept", TornTailKept, "STATE-JOURNAL-001"),
    broken_engine("proposals_dropped", ProposalsDropped, "STATE-JOURNAL-003"),
    broken_engine("proposals_in_arrival_order", ProposalsInArrivalOrder, "PROTO-ORDER-006"),
    broken_engine("records_in_arrival_order", RecordsInArrivalOrder, "PROTO-ORDER-006"),
    broken_engine("no_lock", NoLock, "STATE-LOCK-001", "STATE-LOCK-002"),
    broken_engine("lock_file_only", LockFileOnly, "STATE-LOCK-003"),
    broken_engine("empty_lock_names_pid_0", EmptyLockNamesPid0, "STATE-LOCK-003"),
    broken_engine("fresh_digest_generation_null", FreshDigestGenerationNull, "STATE-FRESH-461"),
    broken_engine(
        "invalid_core_judged_by_manifest", InvalidCoreJudgedByManifest, "STATE-PRUNE-491"
    ),
    broken_engine("current_tmp_link_unlinked", CurrentTmpLinkUnlinked, "STATE-SYMLINK-001"),
    broken_engine(
        "listed_files_beside_core_unchecked", ListedFilesBesideCoreUnchecked, "STATE-MANIFEST-001"
    ),
    broken_engine("unpadded_lock_name", UnpaddedLockName, "STATE-LOCK-004"),
    broken_engine("follows_links", FollowsLinks, "STATE-SYMLINK-001"),
    broken_engine("unreadable_as_missing", UnreadableAsMissing, "STATE-UNREADABLE-001"),
    broken_engine("untyped_failures", UntypedFailures, "STATE-IO-001"),
    broken_engine("partial_apply", PartialApply, "STATE-APPLY-002"),
    broken_engine("utf16_key_length", Utf16KeyLength, "STATE-KEY-001"),
    broken_engine("delete_key_unbounded", DeleteKeyUnbounded, "STATE-KEY-001"),
    broken_engine("said_cut_in_utf16_units", SaidCutInUtf16Units, "STATE-SAID-001"),
    broken_engine("said_cut_before_160", SaidCutBefore160, "STATE-SAID-001"),
    broken_engine("said_kept_as_sent", SaidKeptAsSent, "STATE-SAID-001"),
    broken_engine("said_kept_four", SaidKeptFour, "STATE-VAULT-001"),
    broken_engine("journal_hex_any_case", JournalHexAnyCase, "STATE-JOURNAL-002"),
    broken_engine("journal_header_unicode_digits", JournalHeaderUnicodeDigits, "STATE-JOURNAL-002"),
    broken_engine("journal_reads_declared_length", JournalReadsDeclaredLength, "STATE-JOURNAL-002"),
    broken_engine("vault_key_any_case", VaultKeyAnyCase, "STATE-VAULT-001"),
    broken_engine("rotor_digits_uncounted", RotorDigitsUncounted, "STATE-VAULT-001"),
    broken_engine("utf16_key_order", Utf16KeyOrder, "STATE-SORT-001"),
    broken_engine("lineage_forgets_recovery", LineageForgetsRecovery, "STATE-RECOVER-001"),
    broken_engine("turns_forgotten", TurnsForgotten, "STATE-REOPEN-001"),
    broken_engine(
        "fresh_null_when_loaded", FreshNullWhenLoaded, "STATE-POINTER-001", "STATE-SCHEMA-001"
    ),
    broken_engine("dirty_as_integer", DirtyAsInteger, "STATE-APPLY-001", "STATE-CLOSE-001"),
    broken_engine("schema_field_as_file", SchemaFieldAsFile, "STATE-SCHEMA-002"),
    broken_engine("version_as_int32", VersionAsInt32, "STATE-SCHEMA-002"),
    broken_engine("from_version_on_migration", FromVersionOnMigration, "STATE-LINEAGE-001"),
    broken_engine("torn_journals_kept", TornJournalsKept, "STATE-JOURNAL-004"),
    broken_engine("deletes_ignored", DeletesIgnored, "STATE-APPLY-001"),
    broken_engine("partial_batch", PartialBatch, "STATE-APPLY-002"),
    broken_engine("bare_record_field", BareRecordField, "STATE-APPLY-002"),
    broken_engine("proposal_argument_code", ProposalArgumentCode, "STATE-PROPOSE-001"),
    broken_engine(
        "overflow_skips_canonical_check", OverflowSkipsCanonicalCheck, "STATE-PROPOSE-001"
    ),
    broken_engine("lock_kept_on_failed_close", LockKeptOnFailedClose, "STATE-CLOSE-001"),
    broken_engine("unreadable_at_checkpoint", UnreadableAtCheckpoint, "STATE-UNREADABLE-002"),
    broken_engine("pipe_as_missing", PipeAsMissing, "STATE-IO-001"),
    broken_engine("newest_only_fall_back", NewestOnlyFallBack, "STATE-POINTER-001"),
    broken_engine("empty_recovered", EmptyRecovered, "STATE-SCHEMA-001"),
    broken_engine("any_file_name", AnyFileName, "STATE-SCHEMA-001"),
    broken_engine("unnamed_wrong_type", UnnamedWrongType, "STATE-IO-001"),
    broken_engine("overflow_torn_kept", OverflowTornKept, "STATE-JOURNAL-004"),
    broken_engine("debris_one_by_one", DebrisOneByOne, "STATE-COMMIT-001"),
    broken_engine("fallen_back_from_removed", FallenBackFromRemoved, "STATE-LEFTOVER-001"),
    broken_engine("schema_refused_past_removed", SchemaRefusedPastRemoved, "STATE-PAST-101"),
    broken_engine("load_takes_lock", LoadTakesLock, "STATE-LOCK-101"),
    broken_engine("unreadable_invalid", UnreadableInvalid, "STATE-UNREADABLE-101"),
    broken_engine("pid_kept", PidKept, "STATE-LOCK-001"),
    broken_engine("repair_while_reading", RepairWhileReading, "STATE-SYMLINK-001"),
    broken_engine("stripped_pointer", StrippedPointer, "STATE-SCHEMA-001"),
    broken_engine("parsed_pointer", ParsedPointer, "STATE-POINTER-002"),
    broken_engine("any_case_digest", AnyCaseDigest, "STATE-DIGEST-001"),
    broken_engine("whole_floats_as_integers", WholeFloatsAsIntegers, "STATE-APPLY-002"),
    broken_engine("pending_cap_inclusive", PendingCapInclusive, "STATE-JOURNAL-003"),
    broken_engine("normalised_keys", NormalisedKeys, "STATE-KEY-002"),
    broken_engine("folded_keys", FoldedKeys, "STATE-KEY-002"),
    broken_engine("c_string_keys", CStringKeys, "STATE-KEY-002"),
    broken_engine("generations_as_text", GenerationsAsText, "STATE-COUNT-001"),
    broken_engine("boots_as_text", BootsAsText, "STATE-COUNT-001"),
    broken_engine("lookalike_alone_not_fresh", LookalikeAloneNotFresh, "STATE-NAMES-804"),
    broken_engine("buffer_keys", BufferKeys, "STATE-KEY-002"),
    broken_engine("int32_fields", Int32Fields, "STATE-APPLY-001"),
    broken_engine("lenient_core_reader", LenientCoreReader, "STATE-CANON-001"),
    broken_engine("negative_counts_clamped", NegativeCountsClamped, "STATE-VAULT-001"),
    broken_engine("boot_identity_is_parent", BootIdentityIsParent, "STATE-LINEAGE-001"),
    broken_engine("anonymous_holder", AnonymousHolder, "STATE-LOCK-002", "STATE-LOCK-003"),
    broken_engine("single_read", SingleRead, "STATE-SIZE-001"),
    broken_engine("missing_journal_torn", MissingJournalTorn, "STATE-PROPOSE-001"),
    broken_engine("link_reading_holder", LinkReadingHolder, "STATE-LOCK-003"),
    broken_engine("numbered_from_live", NumberedFromLive, "STATE-COMMIT-001"),
    broken_engine("prunes_nothing", PrunesNothing, "STATE-COMMIT-001"),
    broken_engine("debris_kept", DebrisKept, "STATE-COMMIT-001"),
    broken_engine("first_commit_keeps_debris", FirstCommitKeepsDebris, "STATE-COMMIT-001"),
    broken_engine("last_generation_refused", LastGenerationRefused, "STATE-COMMIT-002"),
    broken_engine("hash_of_nothing", HashOfNothing, "STATE-FRESH-001"),
    broken_engine("valid_leftovers_removed", ValidLeftoversRemoved, "STATE-LEFTOVER-001"),
    broken_engine("short_last_line_corrupt", ShortLastLineCorrupt, "STATE-JOURNAL-001"),
    broken_engine("unterminated_line_whole", UnterminatedLineWhole, "STATE-JOURNAL-001"),
    broken_engine("journal_lenient_utf8", JournalLenientUtf8, "STATE-JOURNAL-002"),
    broken_engine("core_lenient_utf8", CoreLenientUtf8, "STATE-DISK-802"),
    broken_engine(
        "utf8_tail_held_back",
        Utf8TailHeldBack,
        "PROTO-FRAME-001",
        "LOAD-READ-301",
        "STATE-JOURNAL-002",
        "STATE-DELTA-353",
        "STATE-DISK-802",
        "STATE-MANIFEST-002",
    ),
    broken_engine("delta_not_object_as_damage", DeltaNotObjectAsDamage, "STATE-DELTA-353"),
    broken_engine("short_line_torn", ShortLineTorn, "STATE-JOURNAL-002"),
    broken_engine("overflow_forgotten", OverflowForgotten, "STATE-JOURNAL-003"),
    broken_engine("non_object_as_op", NonObjectAsOp, "STATE-APPLY-002"),
    broken_engine("unreadable_writes", UnreadableWrites, "STATE-UNREADABLE-002"),
    broken_engine("missing_under_write", MissingUnderWrite, "STATE-IO-001"),
    broken_engine("root_failure_as_io", RootFailureAsIO, "STATE-UNREADABLE-001"),
    broken_engine("writer_lists_as_load", WriterListsAsLoad, "STATE-UNREADABLE-002"),
    broken_engine("unwritable_lock_unreadable", UnwritableLockUnreadable, "STATE-UNREADABLE-002"),
    broken_engine("uncreatable_as_unreadable", UncreatableAsUnreadable, "STATE-UNREADABLE-002"),
    broken_engine("strict_ascii_holder", StrictAsciiHolder, "STATE-LOCK-003"),
    broken_engine("unicode_digit_holder", UnicodeDigitHolder, "STATE-LOCK-003"),
    broken_engine("retried_sync", RetriedSync, "STATE-EIO-001", "STATE-EIO-002"),
    broken_engine("numbered_once", NumberedOnce, "STATE-EIO-001"),
    broken_engine("first_commit_ignores_dir_sync", FirstCommitIgnoresDirSync, "STATE-EIO-001"),
    broken_engine("refused_listed", RefusedListed, "STATE-EIO-002"),
    broken_engine("torn_append_kept", TornAppendKept, "STATE-EIO-002"),
    broken_engine("untyped_close", UntypedClose, "STATE-EIO-001", "STATE-EIO-002"),
    broken_engine("retry_error_reported", RetryErrorReported, "STATE-EIO-002"),
    broken_engine("stale_after_rewrite", StaleAfterRewrite, "STATE-JOURNAL-461"),
    broken_engine("hollow_core_kept", HollowCoreKept, "STATE-PRUNE-003"),
    broken_engine("hollow_core_unlinked", HollowCoreUnlinked, "STATE-PRUNE-003"),
    broken_engine("nothing_to_rewrite_refused", NothingToRewriteRefused, "STATE-JOURNAL-461"),
    broken_engine("writes_unreadable", WritesUnreadable, "STATE-EIO-001", "STATE-EIO-002"),
    broken_engine("prunes_unverified", PrunesUnverified, "STATE-PRUNE-001"),
    broken_engine("begin_before_numbering", BeginBeforeNumbering, "STATE-SOAK-002"),
    broken_engine("life_forgotten", LifeForgotten, "STATE-LIFE-001"),
    broken_engine("turn_replayed", TurnReplayed, "STATE-LIFE-001"),
    broken_engine("field_without_vault", FieldWithoutVault, "STATE-LIFE-001"),
    broken_engine("shared_life", SharedLife, "STATE-LIFE-002"),
    broken_engine("closed_store_opens_sessions", ClosedStoreOpensSessions, "STATE-LIFE-002"),
    broken_engine("register_before_store", RegisterBeforeStore, "STATE-LIFE-003"),
    broken_engine("in_use_before_files", InUseBeforeFiles, "STATE-LIFE-003"),
    broken_engine("refused_turn_dropped", RefusedTurnDropped, "STATE-LIFE-004"),
    broken_engine("refused_turn_held_until_close", RefusedTurnHeldUntilClose, "STATE-LIFE-004"),
    broken_engine("refused_turn_keeps_store", RefusedTurnKeepsStore, "STATE-LIFE-004"),
    broken_engine("refused_first_commit_forgets", RefusedFirstCommitForgets, "STATE-LIFE-004"),
    broken_engine("rotor_little_endian", RotorLittleEndian, "STATE-FORMAT-001", "STATE-FORMAT-002"),
    broken_engine("rotor_floats", RotorFloats, "STATE-FORMAT-001", "STATE-FORMAT-002"),
    broken_engine(
        "vault_turns_one_based", VaultTurnsOneBased, "STATE-FORMAT-001", "STATE-FORMAT-002"
    ),
    broken_engine("manifest_turn_count_off_by_one", ManifestTurnCountOffByOne, "STATE-FORMAT-001"),
    broken_engine("life_context_empty_string", LifeContextEmptyString, "STATE-FORMAT-001"),
    broken_engine("manifest_upper_hex", ManifestUpperHex, "STATE-FORMAT-001"),
    broken_engine("journal_crc_upper_hex", JournalCrcUpperHex, "STATE-FORMAT-001"),
    broken_engine("journal_length_in_code_points", JournalLengthInCodePoints, "STATE-FORMAT-001"),
    broken_engine("lineage_nulls_omitted", LineageNullsOmitted, "STATE-FORMAT-001"),
    broken_engine("lineage_boots_from_zero", LineageBootsFromZero, "STATE-FORMAT-001"),
    broken_engine("pointer_without_newline", PointerWithoutNewline, "STATE-FORMAT-001"),
    broken_engine("vault_address_low_bits", VaultAddressLowBits, "STATE-FORMAT-001"),
    broken_engine("boots_counted", BootsCounted, "STATE-FORMAT-003"),
    broken_engine("boot_after_last", BootAfterLast, "STATE-FORMAT-003"),
    broken_engine(
        "migration_parent_at_current_version", MigrationParentAtCurrentVersion, "STATE-FORMAT-003"
    ),
    broken_engine("lax_schema_version", LaxSchemaVersion, "STATE-TYPE-001"),
    broken_engine("bool_record_integers", BoolRecordIntegers, "STATE-TYPE-002"),
    broken_engine("lax_boot", LaxBoot, "STATE-TYPE-003"),
    broken_engine("bool_core_integers", BoolCoreIntegers, "STATE-TYPE-004"),
    broken_engine("shutdown_commits_dirty", ShutdownCommitsDirty, "STATE-SHUTDOWN-601"),
    broken_engine("shutdown_keeps_lock", ShutdownKeepsLock, "STATE-SHUTDOWN-601"),
    broken_engine("shutdown_signal_status_zero", ShutdownSignalStatusZero, "STATE-SHUTDOWN-601"),
    broken_engine(
        "shutdown_stops_at_closed_handle", ShutdownStopsAtClosedHandle, "STATE-SHUTDOWN-601"
    ),
    broken_engine(
        "proposals_pending_counts_corrupt", PendingCountsCorruptLines, "STATE-PROPOSE-601"
    ),
    broken_engine(
        "proposals_overflow_corrupt_spills", OverflowCorruptLinesSpill, "STATE-PROPOSE-601"
    ),
    broken_engine(
        "leftovers_removed_before_journals",
        LeftoversRemovedBeforeJournals,
        "STATE-SYMLINK-001",
        "STATE-UNREADABLE-461",
    ),
    broken_engine("fresh_files_owner_only", FreshFilesOwnerOnly, "STATE-MODE-601"),
    broken_engine("journal_rewritten_at_0644", JournalRewrittenAt0644, "STATE-JOURNAL-461"),
    broken_engine("journal_rewrite_left_to_umask", JournalRewriteLeftToUmask, "STATE-JOURNAL-461"),
    broken_engine("journal_stale_forever", JournalStaleForever, "STATE-JOURNAL-461"),
    broken_engine("nothing_acked_not_rewritten", NothingAckedNotRewritten, "STATE-JOURNAL-461"),
    broken_engine("lineage_rewritten_at_0644", LineageRewrittenAt0644, "STATE-JOURNAL-461"),
    broken_engine("dirtied_by_journal_rewrite", DirtiedByJournalRewrite, "STATE-JOURNAL-461"),
    broken_engine("unreadable_journal_as_io", UnreadableJournalAsIO, "STATE-UNREADABLE-461"),
    broken_engine("unreadable_journal_as_empty", UnreadableJournalAsEmpty, "STATE-UNREADABLE-461"),
    broken_engine("journals_repaired_as_read", JournalsRepairedAsRead, "STATE-UNREADABLE-461"),
    broken_engine("fallback_skips_refused", FallbackSkipsRefused, "STATE-RECOVER-461"),
    broken_engine("bad_last_line_cut", BadLastLineCut, "STATE-JOURNAL-462"),
    broken_engine("missing_pointer_fresh", MissingPointerFresh, "STATE-FRESH-461"),
    broken_engine("debris_not_fresh", DebrisNotFresh, "STATE-FRESH-461"),
    broken_engine("session_at_turn_count", SessionAtTurnCount, "STATE-LIFE-461"),
    broken_engine("life_turns_as_turn_count", LifeTurnsAsTurnCount, "STATE-LIFE-461"),
    broken_engine("core_and_delta_moded_apart", CoreAndDeltaModedApart, "STATE-MODE-602"),
    broken_engine("file_modes_left_to_umask", FileModesLeftToUmask, "STATE-MODE-601"),
    broken_engine("pointerless_removes_past", PointerlessRemovesPast, "STATE-LEFTOVER-601"),
    broken_engine("malformed_past_removed", MalformedPastRemoved, "STATE-LEFTOVER-601"),
    broken_engine(
        "past_leftover_only_without_manifest", PastLeftoverOnlyWithoutManifest, "STATE-LEFTOVER-491"
    ),
    broken_engine(
        "past_leftover_only_without_core", PastLeftoverOnlyWithoutCore, "STATE-LEFTOVER-491"
    ),
    broken_engine(
        "dangling_pointer_removes_past", DanglingPointerRemovesPast, "STATE-LEFTOVER-601"
    ),
    broken_engine("register_from_session_record", RegisterFromSessionRecord, "STATE-LIFE-601"),
    broken_engine("session_record_kept", SessionRecordKept, "STATE-LIFE-601"),
    broken_engine("store_claimed_before_register", StoreClaimedBeforeRegister, "STATE-LIFE-102"),
    broken_engine("proposal_integers_as_doubles", ProposalIntegersAsDoubles, "STATE-PROPOSE-602"),
    broken_engine("empty_proposal_as_list", EmptyProposalAsList, "STATE-PROPOSE-603"),
    broken_engine(
        "proposal_integers_in_hashed_range", ProposalIntegersInHashedRange, "STATE-PROPOSE-602"
    ),
    broken_engine("sticky_dirty_flag", StickyDirtyFlag, "STATE-DIRTY-601"),
    broken_engine("fresh_close_commits", FreshCloseCommits, "STATE-DIRTY-601"),
    broken_engine("session_holds_store", SessionHoldsStore, "STATE-LIFE-002"),
    broken_engine("refusal_resets_turns", RefusalResetsTurns, "STATE-APPLY-002"),
    broken_engine("recovered_store_heals_pointer", RecoveredStoreHealsPointer, "STATE-DIRTY-601"),
    broken_engine("vault_key_of_word_as_written", VaultKeyOfWordAsWritten, "STATE-FORMAT-001"),
    broken_engine("pending_count_per_process", PendingCountPerProcess, "STATE-APART-001"),
    broken_engine("put_merges_optional_members", PutMergesOptionalMembers, "STATE-APPLY-001"),
    broken_engine("delta_ignored", DeltaIgnored, "STATE-DELTA-351"),
    broken_engine("delta_on_wrong_base", DeltaOnWrongBase, "STATE-DELTA-351"),
    broken_engine("delta_base_pruned", DeltaBasePruned, "STATE-DELTA-351"),
    broken_engine("delta_base_hash_trusted", DeltaBaseHashTrusted, "STATE-DELTA-352"),
    broken_engine("delta_malformed_as_damage", DeltaMalformedAsDamage, "STATE-DELTA-353"),
    broken_engine("delta_later_base_allowed", DeltaLaterBaseAllowed, "STATE-DELTA-352"),
    broken_engine("delta_base_any_schema", DeltaBaseAnySchema, "STATE-DELTA-352"),
    broken_engine("delta_unreadable_base_invalid", DeltaUnreadableBaseInvalid, "STATE-DELTA-354"),
    broken_engine("delta_deletes_unchecked", DeltaDeletesUnchecked, "STATE-DELTA-353"),
    broken_engine("delta_entry_members_by_op", DeltaEntryMembersByOp, "STATE-DELTA-353"),
    broken_engine("delta_keys_in_utf16_units", DeltaKeysInUtf16Units, "STATE-DELTA-355"),
    broken_engine("delta_absent_delete_refused", DeltaAbsentDeleteRefused, "STATE-DELTA-355"),
    broken_engine("delta_unchanged_put_refused", DeltaUnchangedPutRefused, "STATE-DELTA-355"),
    broken_engine("delta_base_validity_unchecked", DeltaBaseValidityUnchecked, "STATE-DELTA-352"),
    broken_engine("delta_base_members_loose", DeltaBaseMembersLoose, "STATE-DELTA-352"),
    broken_engine("delta_base_zero_allowed", DeltaBaseZeroAllowed, "STATE-DELTA-352"),
    broken_engine("delta_base_members_in_order", DeltaBaseMembersInOrder, "STATE-DELTA-359"),
    broken_engine("delta_identity_trusted", DeltaIdentityTrusted, "STATE-DELTA-352"),
    broken_engine("delta_linked_base_missing", DeltaLinkedBaseMissing, "STATE-DELTA-357"),
    broken_engine("delta_linked_base_invalid", DeltaLinkedBaseInvalid, "STATE-DELTA-357"),
    broken_engine("held_delta_bases_pruned", HeldDeltaBasesPruned, "STATE-PRUNE-001"),
    broken_engine("identity_of_hex_line_digests", IdentityOfHexLineDigests, "STATE-DELTA-351"),
    broken_engine("refused_open_keeps_lock", RefusedOpenKeepsLock, "STATE-LOCK-601"),
    broken_engine("locked_refusal_late", LockedRefusalLate, "STATE-LOCK-001"),
    broken_engine("locked_refusal_clears_lock", LockedRefusalClearsLock, "STATE-LOCK-002"),
    broken_engine("disk_bool_boot", DiskBoolBoot, "STATE-DISK-803"),
    broken_engine("disk_any_integer_boot", DiskAnyIntegerBoot, "STATE-DISK-803"),
    broken_engine("disk_unicode_generations", DiskUnicodeGenerations, "STATE-NAMES-804"),
    broken_engine("disk_zero_generation", DiskZeroGeneration, "STATE-NAMES-804"),
    broken_engine("disk_isdigit_pointer", DiskIsdigitPointer, "STATE-NAMES-805"),
    broken_engine("disk_short_number_pointer", DiskShortNumberPointer, "STATE-NAMES-805"),
    broken_engine("disk_unbounded_core_integers", DiskUnboundedCoreIntegers, "STATE-DISK-802"),
    broken_engine("disk_unbounded_turn_count", DiskUnboundedTurnCount, "STATE-DISK-801"),
    broken_engine("disk_manifest_last_member_wins", DiskManifestLastMemberWins, "STATE-DISK-801"),
    broken_engine("disk_folded_debris", DiskFoldedDebris, "STATE-NAMES-806"),
    broken_engine("disk_integers_to_2_53", DiskIntegersTo253, "STATE-DISK-802"),
    broken_engine("gaps_kinds_at_every_version", GapsKindsAtEveryVersion, "STATE-SCHEMA-451"),
    broken_engine("gaps_fields_at_every_version", GapsFieldsAtEveryVersion, "STATE-SCHEMA-451"),
    broken_engine("gaps_orphan_vault_resumed", GapsOrphanVaultResumed, "STATE-LIFE-451"),
    broken_engine("gaps_soak_ignores_signal", GapsSoakIgnoresSignal, "STATE-SHUTDOWN-451"),
    broken_engine(
        "gaps_soak_stops_unacknowledged", GapsSoakStopsUnacknowledged, "STATE-SHUTDOWN-451"
    ),
    broken_engine("gaps_signal_ends_answer", GapsSignalEndsAnswer, "STATE-SHUTDOWN-452"),
    broken_engine("gaps_stopped_holder_ignored", GapsStoppedHolderIgnored, "STATE-LOCK-451"),
    broken_engine(
        "restart_claim_forgotten_on_plain_turn", ClaimForgottenOnPlainTurn, "STATE-LIFE-701"
    ),
    broken_engine("restart_claim_from_kept_said", ClaimFromKeptSaid, "STATE-LIFE-701"),
    broken_engine("restart_claim_from_latest_said", ClaimFromLatestSaid, "STATE-LIFE-701"),
    broken_engine("restart_context_from_vault", ContextFromVault, "STATE-LIFE-701"),
    broken_engine("restart_context_not_restored", ContextNotRestored, "STATE-LIFE-701"),
    broken_engine("restart_count_from_said", CountFromSaid, "STATE-LIFE-701"),
    broken_engine("restart_first_turn_from_last_turn", FirstTurnFromLastTurn, "STATE-LIFE-701"),
    broken_engine("restart_first_turn_from_said", FirstTurnFromSaid, "STATE-LIFE-701"),
    broken_engine("restart_last_turn_from_said", LastTurnFromSaid, "STATE-LIFE-701"),
    broken_engine("restart_recency_from_first_mention", RecencyFromFirstMention, "STATE-LIFE-701"),
    broken_engine("restart_rotor_as_float_32", RotorAsFloat32, "STATE-LIFE-701"),
    broken_engine("restart_said_claims_dropped", SaidClaimsDropped, "STATE-LIFE-701"),
    broken_engine("restart_said_cut_to_two", SaidCutToTwo, "STATE-LIFE-701"),
    broken_engine("restart_said_oldest_first", SaidOldestFirst, "STATE-LIFE-701"),
    broken_engine("restart_said_text_cut_at_128", SaidTextCutAt128, "STATE-LIFE-701"),
    broken_engine("restart_turns_from_vault", TurnsFromVault, "STATE-LIFE-701"),
    broken_engine("life_only_from_schema_4", LifeOnlyFromSchema4, "STATE-LIFE-451"),
    broken_engine("session_record_at_open", SessionRecordAtOpen, "STATE-LIFE-102"),
    broken_engine(
        "shutdown_ends_sessions_through_close",
        ShutdownEndsSessionsThroughClose,
        "STATE-SHUTDOWN-601",
    ),
    broken_engine(
        "shutdown_settles_refused_checkpoint",
        ShutdownSettlesRefusedCheckpoint,
        "STATE-SHUTDOWN-601",
    ),
    broken_engine("load_clears_leftovers", LoadClearsLeftovers, "STATE-LOCK-101"),
)

BROKEN_STATE: dict[str, BrokenEngine] = {engine.name: engine for engine in _TABLE}
