"""A broken engine whose put is not a replacement (STATE-APPLY-001): docs/state.md §
Mutations, "`put` stores its record under `(kind, key)` (replacing any record there)"."""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore

OPTIONAL_MEMBERS = {"recognizer": ("label",), "candidate": ("evidence",)}
"""The members a record of each kind may leave out (docs/state.md § The persistent core)."""


class _MergingPutStore(StateStore):
    def apply(self, mutations: list[dict[str, Any]]) -> None:
        held: dict[Any, dict[str, Any]] = dict(self.records)
        super().apply(mutations)
        kept = []
        for mutation in mutations:
            record = mutation["record"] if mutation["op"] == "put" else None
            if record is None:
                held.pop((mutation.get("kind"), mutation.get("key")), None)
                continue
            pair = (record["kind"], record["key"])
            old = held.get(pair, {})
            left = [m for m in OPTIONAL_MEMBERS.get(record["kind"], ()) if m in old]
            held[pair] = {**{m: old[m] for m in left}, **record}
            if any(m not in record for m in left):
                kept.append({"op": "put", "record": held[pair]})
        if kept:
            super().apply(kept)


class PutMergesOptionalMembers(ProtocolHandler):
    """A put over a held record merges into it: an optional member (a recognizer's
    `label`, a candidate's `evidence`) the new record leaves out keeps the held record's
    value, where the docs' put stores the record it is given ("replacing any record
    there")."""

    def store_class(self) -> Any:
        return _MergingPutStore
