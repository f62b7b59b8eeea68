"""Broken state engines for the state spec gaps of docs/state.md closed by the 451 ids:
records read whatever their generation's schema version knows, and vault records without a
life record resumed as a life. The first line of each docstring states the defect."""

from __future__ import annotations

import dataclasses
from unittest import mock

from reference.runtime import ChatRuntime
from reference.runtime.life import hit_of
from reference.serve import ProtocolHandler
from reference.state import FileOps, LoadedState, StateStore, records
from reference.state.records import CURRENT_SCHEMA_VERSION

KNOWN_FIELDS = records.known_fields


class EveryKindStore(StateStore):
    """Reads a ``life`` or ``vault`` record in a generation of any schema version."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        every = dict.fromkeys(records.KIND_SINCE, 1)
        with mock.patch.dict(records.KIND_SINCE, every):
            return super().load(fs)


class EveryFieldStore(StateStore):
    """Reads a record's optional fields at every schema version, as the current one knows them."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        def current(kind: str, schema_version: int) -> set[str]:
            return KNOWN_FIELDS(kind, CURRENT_SCHEMA_VERSION)

        with mock.patch.object(records, "known_fields", current):
            return super().load(fs)


class GapsKindsAtEveryVersion(ProtocolHandler):
    """A ``life`` or ``vault`` record in a generation of schema version 1 to 3 loads."""

    def store_class(self) -> type[StateStore]:
        return EveryKindStore


class GapsFieldsAtEveryVersion(ProtocolHandler):
    """A field the record's schema version does not know (``label`` at 1, ``evidence`` at 1 or
    2) loads."""

    def store_class(self) -> type[StateStore]:
        return EveryFieldStore


class GapsOrphanVaultResumed(ProtocolHandler):
    """A session on a core holding vault records but no ``life`` record resumes those tallies
    in a fresh life (turn 0, no subject, the identity rotor)."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        if runtime.persisted is None or runtime.persisted.life is not None:
            return
        hits = tuple(hit_of(r) for (kind, _), r in store.records.items() if kind == "vault")
        if hits:
            runtime.resume(dataclasses.replace(runtime.truth.life(), hits=hits))
