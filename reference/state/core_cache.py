"""What a checkpoint keeps from the last one, so its work follows what changed, not the
size of the core.

The bytes are those of :func:`encode_core` and :func:`identity`, whatever is cached.
Records are replaced, never changed in place (``apply_mutations`` builds a new dict for
every put), so a record object seen by the last :meth:`CoreCache.encode` still has the
line encoded for it then. The store hands its records over in the order of its dict,
where a replaced record keeps its place and a new one comes last: while the keys come in
the same order as last time, only the records that are not the same objects are encoded
again, and the lines are joined in the ``(kind, key)`` order found when the keys last
changed (found again only then).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress, count
from operator import is_not, itemgetter

from reference.state.core import Key, encode_record, identity, sort_key
from reference.state.records import Record

_key_of = itemgetter("kind", "key")


class CoreCache:
    """The records last encoded with their lines, the core order, the last identity hashed."""

    def __init__(self) -> None:
        self._keys: list[Key] = []
        """The keys of the records last encoded, in the order they came."""
        self._records: list[Record] = []
        self._lines: list[bytes] = []
        """The core line of each record last encoded, in the order they came."""
        self._order: list[int] = []
        """Positions in ``_records`` in ``(kind, key)`` order."""
        self._hashed: tuple[int, bytes, str] | None = None
        """``(schema_version, core bytes, identity)`` of the last :meth:`identity`."""

    def encode(self, records: Iterable[Record]) -> bytes:
        """The bytes of ``core.jsonl`` for *records* (validated, normalised, one per key)."""
        records = list(records)
        keys = list(map(_key_of, records))
        if keys == self._keys:
            for place in compress(count(), map(is_not, records, self._records)):
                self._records[place] = records[place]
                self._lines[place] = encode_record(records[place])
        else:
            self._reindex(keys, records)
        return b"".join(map(self._lines.__getitem__, self._order))

    def _reindex(self, keys: list[Key], records: list[Record]) -> None:
        """Take *records* in a new order or with other keys: lines of the records already
        held are kept, the others encoded, and the core order is sorted again."""
        held = dict(zip(self._keys, zip(self._records, self._lines, strict=True), strict=True))
        lines = []
        for key, record in zip(keys, records, strict=True):
            seen = held.get(key)
            if seen is None or seen[0] is not record:
                seen = (record, encode_record(record))
            lines.append(seen[1])
        self._keys, self._records, self._lines = keys, records, lines
        self._order = sorted(range(len(records)), key=lambda place: sort_key(records[place]))

    def identity(self, schema_version: int, core: bytes) -> str:
        """:func:`identity` of *core*; the same bytes object asked twice is hashed once."""
        last = self._hashed
        if last is not None and last[0] == schema_version and last[1] is core:
            return last[2]
        found = identity(schema_version, core)
        self._hashed = (schema_version, core, found)
        return found
