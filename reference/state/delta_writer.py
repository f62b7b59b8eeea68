"""What a writer keeps to stage delta generations: its base and the keys changed since.

The base is the last full generation the writer committed (none after an open, so the
first checkpoint of an open is full). A checkpoint's delta holds every record changed since
the base; once it would be larger than a quarter of the full core the writer stages a full
generation instead (the compaction), which becomes the next base. A delta never names a
delta, so a load reads two generations at most. Each entry's framed line is kept while its
record object is (records are replaced, never changed in place), so a checkpoint encodes
only the entries that changed since the last one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from reference.canonical import sha256_hex
from reference.state.core import Key
from reference.state.delta import changed_keys, delete_entry, put_entry
from reference.state.manifest import Base
from reference.state.records import Record

COMPACT_RATIO = 4
"""A delta larger than the full core divided by this is written as a full generation."""


class DeltaWriter:
    """The base of the next delta (None: write a full generation) and what changed since."""

    def __init__(self) -> None:
        self._base: tuple[Base, Mapping[Key, Record]] | None = None
        self._since: set[Key] = set()
        """The keys put or deleted since the base."""
        self._lines: dict[Key, tuple[Record | None, bytes]] = {}
        """Each changed key's record (None: deleted) with its entry's framed line."""

    def touch(self, keys: Iterable[Key]) -> None:
        """Note keys put or deleted by an applied batch."""
        self._since.update(keys)

    def rebase(self, generation: int, records: Mapping[Key, Record], core: bytes) -> None:
        """A full generation *generation* holding *records* (*core*) is durable: it is the
        next deltas' base."""
        self._base = (Base(generation, sha256_hex(core)), records)
        self._since = set()
        self._lines = {}

    def delta(self, records: Mapping[Key, Record], core: bytes) -> tuple[Base, bytes] | None:
        """The base and ``delta.jsonl`` taking the base to *records*, or None when the
        generation is to be full (no base, or the delta would be too large for *core*)."""
        if self._base is None:
            return None
        base, held = self._base
        keys = changed_keys(records, held, self._since)
        self._since = set(keys)
        lines = []
        for key in keys:
            record = records.get(key)
            seen = self._lines.get(key)
            if seen is None or seen[0] is not record:
                seen = (record, delete_entry(key) if record is None else put_entry(record))
                self._lines[key] = seen
            lines.append(seen[1])
        data = b"".join(lines)
        if len(data) * COMPACT_RATIO > len(core):
            return None
        return base, data
