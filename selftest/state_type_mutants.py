"""Broken state engines for the type-confusion matrix (STATE-TYPE-001, STATE-TYPE-002): a
manifest or a record read by a lax decoder. The first line of each docstring states the
defect."""

from __future__ import annotations

from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import FileOps, LoadedState, StateStore, lineage, manifest, records
from reference.state.lineage import BootInfo

_check_schema_version = manifest.check_schema_version


def _lax_schema_version(document: dict[str, Any]) -> int:
    value = document.get("schema_version")
    if isinstance(value, bool | float):
        return _check_schema_version({**document, "schema_version": int(value)})
    return _check_schema_version(document)


class LaxSchemaVersionStore(StateStore):
    """A manifest's ``schema_version`` ``true`` or ``1.0`` is read as the integer 1."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(manifest, "check_schema_version", _lax_schema_version):
            return super().load(fs)


def _int_or_bool(value: object) -> bool:
    return isinstance(value, int)


class BoolRecordIntegersStore(StateStore):
    """A put's integer field (``score``, ``weight``, ``evidence``) holding ``true`` is stored."""

    def apply(self, mutations: list[dict]) -> None:
        with (
            mock.patch.dict(records.REQUIRED["candidate"], {"score": _int_or_bool}),
            mock.patch.dict(records.REQUIRED["recognizer"], {"weight": _int_or_bool}),
            mock.patch.dict(records.OPTIONAL_CHECKS, {"evidence": _int_or_bool}),
        ):
            return super().apply(mutations)


class LaxSchemaVersion(ProtocolHandler):
    """A manifest's ``schema_version`` ``true`` or ``1.0`` is read as the integer 1."""

    def store_class(self) -> type[StateStore]:
        return LaxSchemaVersionStore


class BoolRecordIntegers(ProtocolHandler):
    """A put's integer field (``score``, ``weight``, ``evidence``) holding ``true`` is stored."""

    def store_class(self) -> type[StateStore]:
        return BoolRecordIntegersStore


def _lax_next_boot(events: tuple[dict[str, Any], ...]) -> int:
    """One past the highest boot, any number (``true``, ``9.0``) counted as an integer."""
    numbers = [int(e["boot"]) for e in events if isinstance(e.get("boot"), int | float)]
    return max(numbers, default=0) + 1


class LaxBootStore(StateStore):
    """A recorded boot event's ``boot`` of ``true`` or ``9.0`` counts toward the next number."""

    @classmethod
    def boot_event(cls, loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
        with mock.patch.object(lineage, "next_boot_index", _lax_next_boot):
            return super().boot_event(loaded, events)


class LaxBoot(ProtocolHandler):
    """A recorded boot event's ``boot`` of ``true`` or ``9.0`` counts toward the next number."""

    def store_class(self) -> type[StateStore]:
        return LaxBootStore


class BoolCoreIntegersStore(StateStore):
    """A ``core.jsonl`` record whose integer field (``score``, ``weight``, ``evidence``) holds
    ``true`` loads."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with (
            mock.patch.dict(records.REQUIRED["candidate"], {"score": _int_or_bool}),
            mock.patch.dict(records.REQUIRED["recognizer"], {"weight": _int_or_bool}),
            mock.patch.dict(records.OPTIONAL_CHECKS, {"evidence": _int_or_bool}),
        ):
            return super().load(fs)


class BoolCoreIntegers(ProtocolHandler):
    """A ``core.jsonl`` record whose integer field holds ``true`` loads."""

    def store_class(self) -> type[StateStore]:
        return BoolCoreIntegersStore
