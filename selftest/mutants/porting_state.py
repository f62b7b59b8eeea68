"""Persisted-state porting mistakes: each store class bends one rule of docs/state.md."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.state.core import encode_record
from reference.state.fsops import FileOps
from reference.state.lineage import BootInfo
from reference.state.mutations import bad
from reference.state.records import normalise


class PartialApplyStore(StateStore):
    """Applies a batch one mutation at a time, so those before a refused one stay applied."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        for mutation in mutations:
            super().apply([mutation])


class Utf16KeyLengthStore(StateStore):
    """Counts a record key's length in UTF-16 code units (JavaScript's ``length``)."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        for index, mutation in enumerate(mutations):
            record = mutation.get("record") if isinstance(mutation, dict) else None
            key = record.get("key") if isinstance(record, dict) else None
            if isinstance(key, str) and len(key.encode("utf-16-le")) // 2 > 128:
                raise bad(f"mutations[{index}]: key longer than 128", "key")
        super().apply(mutations)


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be")


class Utf16OrderStore(StateStore):
    """Orders core.jsonl by the UTF-16 code units of (kind, key) instead of their UTF-8 bytes."""

    def encode(self, records: Iterable[dict[str, Any]]) -> bytes:
        rows = sorted(records, key=lambda r: (_utf16(r["kind"]), _utf16(r["key"])))
        return b"".join(encode_record(normalise(r)) for r in rows)


class PartialApply(ProtocolHandler):
    """state.apply keeps the mutations before a malformed one: not all or nothing."""

    def store_class(self) -> type[StateStore]:
        return PartialApplyStore


class Utf16KeyLength(ProtocolHandler):
    """A record key of 128 astral characters is refused as longer than 128."""

    def store_class(self) -> type[StateStore]:
        return Utf16KeyLengthStore


class Utf16KeyOrder(ProtocolHandler):
    """core.jsonl sorts keys by UTF-16 code units: an astral key lands before U+E000."""

    def store_class(self) -> type[StateStore]:
        return Utf16OrderStore


class LineageForgetsRecoveryStore(StateStore):
    """The lineage journal records every boot with ``recovered: null``, even after a fallback."""

    @classmethod
    def record_boot(cls, fs: FileOps, boot: BootInfo) -> None:
        super().record_boot(fs, dataclasses.replace(boot, recovered=None))


class LineageForgetsRecovery(ProtocolHandler):
    """state.open says it recovered, but the lineage event it appends does not."""

    def store_class(self) -> type[StateStore]:
        return LineageForgetsRecoveryStore


class TurnsForgottenStore(StateStore):
    """A reopened store starts its turn count at 0 instead of the checkpoint's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turn_count = 0


class TurnsForgotten(ProtocolHandler):
    """The turn count is not kept across a reopen."""

    def store_class(self) -> type[StateStore]:
        return TurnsForgottenStore


class FreshNullWhenLoaded(ProtocolHandler):
    """state.load answers ``"fresh": null`` for a loaded state (an optional left unset)."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_state_load(args)
        return {**result, "fresh": result["fresh"] or None}


class DirtyAsInteger(ProtocolHandler):
    """state.apply answers ``dirty`` as 1 or 0, not a boolean."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"dirty": int(super().op_state_apply(args)["dirty"])}
