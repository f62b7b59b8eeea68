"""Every deliberately broken persisted-state engine, with the requirement ids that must fail on it.

Each engine is a :class:`StateHandler` subclass with one defect in its state store,
journal recovery or soak; its class is its factory, so
``conformance.selftest.state_mutants:<ClassName>`` plugs it in by name, in-process or
through ``python -m conformance.engines.host`` for the process-level requirements.
``BROKEN_STATE`` maps a short name to a :class:`BrokenEngine`; the self-test proves
every id in ``catches`` fails on it.
"""

from __future__ import annotations

from collections.abc import Callable

from conformance.selftest import state_broken_stores as stores
from conformance.selftest.engines import BrokenEngine
from conformance.selftest.state_broken_ops import (
    acknowledge_first,
    recover_keeping_torn_tail,
    recover_missing_as_torn,
    recover_without_checksums,
    with_claimed_dir_syncs,
)
from conformance.selftest.state_handler import StateHandler


class NoDirFsync(StateHandler):
    """Checkpoints never fsync a directory: the renames of a commit are not durable."""

    store_class = stores.NoDirFsyncStore


class NoFileFsync(StateHandler):
    """Generation files are not fsynced before the staging directory is renamed."""

    store_class = stores.NoFileFsyncStore


class ClaimedDirSync(StateHandler):
    """Checkpoints never fsync a directory, yet ``state.trace_checkpoint`` reports they did."""

    store_class = stores.NoDirFsyncStore

    def op_state_trace_checkpoint(self, args: dict) -> dict:
        """The checkpoint's trace with a directory fsync claimed after each rename."""
        traced = super().op_state_trace_checkpoint(args)
        return {**traced, "ops": with_claimed_dir_syncs(traced["ops"])}


class InPlaceCommit(StateHandler):
    """Checkpoints rewrite the live generation's files in place, then rename that directory."""

    store_class = stores.InPlaceStore


class AckBeforeDurable(StateHandler):
    """``state.soak`` acknowledges a checkpoint before committing it."""

    soak_turn = staticmethod(acknowledge_first)


class LeftoversReused(StateHandler):
    """A leftover staging directory is never cleared, and a commit keeps the files in it."""

    store_class = stores.LeftoversReusedStore


class VersionUnchecked(StateHandler):
    """A newer or malformed schema version starts a fresh, empty life instead of a refusal."""

    store_class = stores.FreshOnSchemaRefusalStore


class FreshOnBadPointer(StateHandler):
    """A missing, empty, garbage or dangling pointer starts a fresh life, not a fall back."""

    store_class = stores.FreshOnBadPointerStore


class InsertionOrder(StateHandler):
    """core.jsonl lists the records in insertion order, not by ``(kind, key)``."""

    store_class = stores.InsertionOrderStore


class DefaultsWritten(StateHandler):
    """Additive-optional fields are written even when they equal their default."""

    store_class = stores.DefaultsWrittenStore


class ReloadChangesBytes(StateHandler):
    """Loading bumps every recognizer's weight by one."""

    store_class = stores.ReloadBumpsStore


class NoLineage(StateHandler):
    """Boot events are never written: the lineage journal stays empty."""

    store_class = stores.NoLineageStore


class ShutdownRecommits(StateHandler):
    """A clean close always commits a new generation, even when nothing changed."""

    store_class = stores.ShutdownRecommitsStore


class ModesReset(StateHandler):
    """Every new generation file gets mode 0644, whatever the live file's mode."""

    store_class = stores.ModesResetStore


class JournalWithoutChecksums(StateHandler):
    """Journal recovery ignores the CRC: a corrupt line that parses is returned, not skipped."""

    recover_journal = staticmethod(recover_without_checksums)


class TornTailKept(StateHandler):
    """Journal recovery never cuts a torn tail: it is reported as corrupt and left in the file."""

    recover_journal = staticmethod(recover_keeping_torn_tail)


class ProposalsDropped(StateHandler):
    """Proposals past the pending cap are silently dropped instead of spilled."""

    store_class = stores.ProposalsDroppedStore


class NoLock(StateHandler):
    """No single-writer lock: any number of writers open the same directory."""

    store_class = stores.NoLockStore


class LockFileOnly(StateHandler):
    """The writer lock is an flock of the ``LOCK`` file, so unlinking ``LOCK`` bypasses it."""

    store_class = stores.LockFileStore


class FollowsLinks(StateHandler):
    """Entries are opened through symbolic links: a link in the directory is followed."""

    store_class = stores.FollowingLinksStore


class UnreadableAsMissing(StateHandler):
    """A file that exists but cannot be read is taken for a missing one (and fallen back from)."""

    store_class = stores.UnreadableAsMissingStore


class UntypedFailures(StateHandler):
    """Directories are listed with a bare ``os.listdir``: its failures escape untyped."""

    store_class = stores.UntypedFailuresStore


class SchemaFieldAsFile(StateHandler):
    """A schema refusal names the manifest file in ``field`` instead of ``schema_version``."""

    store_class = stores.SchemaFieldAsFileStore


class FromVersionOnMigration(StateHandler):
    """A boot event records ``from_version`` only for a migration, null for a resume."""

    store_class = stores.FromVersionOnMigrationStore


class TornJournalsKept(StateHandler):
    """An open never cuts a torn journal tail, so what it appends fuses with the torn bytes."""

    store_class = stores.TornJournalsKeptStore


class DeletesIgnored(StateHandler):
    """A ``delete`` mutation is accepted and does nothing."""

    store_class = stores.DeletesIgnoredStore


class PartialBatch(StateHandler):
    """A refused batch keeps the mutations before its bad one."""

    store_class = stores.PartialBatchStore


class BareRecordField(StateHandler):
    """A refused put names the record's own field (``key``), not its path in the request."""

    store_class = stores.BareRecordFieldStore


class ProposalArgumentCode(StateHandler):
    """A float in a proposal is refused with ``PROTOCOL_BAD_ARGS``, not ``STATE_BAD_MUTATION``."""

    store_class = stores.ProposalArgumentCodeStore


class LockKeptOnFailedClose(StateHandler):
    """A close whose commit fails keeps the lock and the handle open."""

    store_class = stores.LockKeptOnFailedCloseStore


class UnreadableAtCheckpoint(StateHandler):
    """A checkpoint that cannot read the live generation answers ``STATE_UNREADABLE``."""

    store_class = stores.UnreadableAtCheckpointStore


class PipeAsMissing(StateHandler):
    """A ``CURRENT`` that is a named pipe is taken for a missing pointer, not ``STATE_IO``."""

    store_class = stores.PipeAsMissingStore


class NewestOnlyFallBack(StateHandler):
    """Falling back tries only the newest generation: an older valid one is never reached."""

    store_class = stores.NewestOnlyFallBackStore


class EmptyRecovered(StateHandler):
    """A load that did not fall back reports ``recovered`` as ``""``, not null."""

    store_class = stores.EmptyRecoveredStore


class AnonymousHolder(StateHandler):
    """A second writer is refused without the holder's pid (or ``unknown``) in the message."""

    store_class = stores.AnonymousHolderStore


class SingleRead(StateHandler):
    """Files are read with one 64 KiB ``read``: a larger core.jsonl loads truncated."""

    store_class = stores.SingleReadStore


class MissingJournalTorn(StateHandler):
    """A journal that does not exist reads as one byte cut from a torn tail."""

    recover_journal = staticmethod(recover_missing_as_torn)


class LinkReadingHolder(StateHandler):
    """A ``LOCK`` replaced by a link is read through it: the refusal names a foreign pid."""

    store_class = stores.LinkReadingHolderStore


def _broken(name: str, factory: Callable[[], StateHandler], *catches: str) -> BrokenEngine:
    description = (factory.__doc__ or "").strip().splitlines()[0]
    return BrokenEngine(name, factory, catches, description)


_TABLE = (
    _broken("no_dir_fsync", NoDirFsync, "STATE-CRASH-001"),
    _broken("no_file_fsync", NoFileFsync, "STATE-CRASH-001"),
    _broken("in_place_commit", InPlaceCommit, "STATE-CRASH-001"),
    _broken("claimed_dir_sync", ClaimedDirSync, "STATE-TRACE-001", "STATE-CRASH-001"),
    _broken("ack_before_durable", AckBeforeDurable, "STATE-KILL-001"),
    _broken("leftovers_reused", LeftoversReused, "STATE-LEFTOVER-001"),
    _broken("version_unchecked", VersionUnchecked, "STATE-SCHEMA-001", "STATE-SCHEMA-002"),
    _broken("fresh_on_bad_pointer", FreshOnBadPointer, "STATE-POINTER-001", "STATE-SCHEMA-001"),
    _broken("insertion_order", InsertionOrder, "STATE-ORDER-001"),
    _broken("defaults_written", DefaultsWritten, "STATE-ORDER-003"),
    _broken("reload_changes_bytes", ReloadChangesBytes, "STATE-ORDER-002"),
    _broken("no_lineage", NoLineage, "STATE-LINEAGE-001"),
    _broken("shutdown_recommits", ShutdownRecommits, "STATE-SHUTDOWN-001"),
    _broken("modes_reset", ModesReset, "STATE-MODE-001"),
    _broken("journal_without_checksums", JournalWithoutChecksums, "STATE-JOURNAL-002"),
    _broken("torn_tail_kept", TornTailKept, "STATE-JOURNAL-001"),
    _broken("proposals_dropped", ProposalsDropped, "STATE-JOURNAL-003"),
    _broken("no_lock", NoLock, "STATE-LOCK-001", "STATE-LOCK-002"),
    _broken("lock_file_only", LockFileOnly, "STATE-LOCK-003"),
    _broken("follows_links", FollowsLinks, "STATE-SYMLINK-001"),
    _broken("unreadable_as_missing", UnreadableAsMissing, "STATE-UNREADABLE-001"),
    _broken("untyped_failures", UntypedFailures, "STATE-IO-001"),
    _broken("schema_field_as_file", SchemaFieldAsFile, "STATE-SCHEMA-002"),
    _broken("from_version_on_migration", FromVersionOnMigration, "STATE-LINEAGE-001"),
    _broken("torn_journals_kept", TornJournalsKept, "STATE-JOURNAL-004"),
    _broken("deletes_ignored", DeletesIgnored, "STATE-APPLY-001"),
    _broken("partial_batch", PartialBatch, "STATE-APPLY-002"),
    _broken("bare_record_field", BareRecordField, "STATE-APPLY-002"),
    _broken("proposal_argument_code", ProposalArgumentCode, "STATE-PROPOSE-001"),
    _broken("lock_kept_on_failed_close", LockKeptOnFailedClose, "STATE-CLOSE-001"),
    _broken("unreadable_at_checkpoint", UnreadableAtCheckpoint, "STATE-UNREADABLE-002"),
    _broken("pipe_as_missing", PipeAsMissing, "STATE-IO-001"),
    _broken("newest_only_fall_back", NewestOnlyFallBack, "STATE-POINTER-001"),
    _broken("empty_recovered", EmptyRecovered, "STATE-SCHEMA-001"),
    _broken("anonymous_holder", AnonymousHolder, "STATE-LOCK-002", "STATE-LOCK-003"),
    _broken("single_read", SingleRead, "STATE-SIZE-001"),
    _broken("missing_journal_torn", MissingJournalTorn, "STATE-PROPOSE-001"),
    _broken("link_reading_holder", LinkReadingHolder, "STATE-LOCK-003"),
)

BROKEN_STATE: dict[str, BrokenEngine] = {engine.name: engine for engine in _TABLE}
