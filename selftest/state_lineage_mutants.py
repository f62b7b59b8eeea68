"""Broken engines that compute a boot event's numbers another way than docs/state.md § Identity
and lineage says, in ways a lineage numbered 1, 2, 3 and a resume at the current schema
version do not show: STATE-FORMAT-003 writes boots 1, 4 and 2, and an older schema version."""

from __future__ import annotations

import dataclasses
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.state.core import encode_core, identity
from reference.state.lineage import BootInfo
from reference.state.loader import LoadedState
from reference.state.records import CURRENT_SCHEMA_VERSION


class CountedBootsStore(StateStore):
    @classmethod
    def boot_event(cls, loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
        return dataclasses.replace(super().boot_event(loaded, events), boot=len(events) + 1)


class LastBootStore(StateStore):
    @classmethod
    def boot_event(cls, loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
        boot = super().boot_event(loaded, events)
        numbers = [e["boot"] for e in events if type(e.get("boot")) is int and e["boot"] >= 1]
        return dataclasses.replace(boot, boot=numbers[-1] + 1 if numbers else 1)


class MigratedParentStore(StateStore):
    @classmethod
    def boot_event(cls, loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
        boot = super().boot_event(loaded, events)
        if loaded.fresh:
            return boot
        parent = identity(CURRENT_SCHEMA_VERSION, encode_core(loaded.records.values()))
        return dataclasses.replace(boot, parent=parent)


class BootsCounted(ProtocolHandler):
    """A boot event is numbered one past the number of events recorded, not the highest."""

    def store_class(self) -> type[StateStore]:
        return CountedBootsStore


class BootAfterLast(ProtocolHandler):
    """A boot event is numbered one past the last boot recorded, not the highest."""

    def store_class(self) -> type[StateStore]:
        return LastBootStore


class MigrationParentAtCurrentVersion(ProtocolHandler):
    """A migration's boot event names as parent the old records' identity at the current
    schema version, not at the version it read."""

    def store_class(self) -> type[StateStore]:
        return MigratedParentStore
