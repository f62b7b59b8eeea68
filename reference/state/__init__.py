"""Crash-safe persisted engine state (docs/state.md): core, generations, lock, journals."""

from reference.state.commit import CheckpointInfo
from reference.state.core import decode_core, encode_core, identity
from reference.state.errors import StateError
from reference.state.fsops import FileOps, RecordingFileOps, recorder_of
from reference.state.journal import JournalRecovery, append, frame, recover
from reference.state.lineage import BootInfo, read_lineage
from reference.state.loader import LoadedState, load_state
from reference.state.lock import WriterLock
from reference.state.proposals import PENDING_CAP
from reference.state.records import CURRENT_SCHEMA_VERSION, KINDS, validate_record
from reference.state.store import StateStore

__all__ = [
    "CURRENT_SCHEMA_VERSION",
    "KINDS",
    "PENDING_CAP",
    "BootInfo",
    "CheckpointInfo",
    "FileOps",
    "JournalRecovery",
    "LoadedState",
    "RecordingFileOps",
    "StateError",
    "StateStore",
    "WriterLock",
    "append",
    "decode_core",
    "encode_core",
    "frame",
    "identity",
    "load_state",
    "read_lineage",
    "recorder_of",
    "recover",
    "validate_record",
]
