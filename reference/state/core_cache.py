"""What a checkpoint keeps from the last one, so its work follows what changed, not the
size of the core.

The bytes are those of :func:`encode_core` and :func:`identity`, whatever is cached.
Records are replaced, never changed in place (``apply_mutations`` builds a new dict for
every put), so a record object seen by the last :meth:`CoreCache.encode` still has the
line encoded for it then. The cache holds the core's lines in ``(kind, key)`` order.

Given a :class:`CoreView` whose ``base`` is the number of the view the cache encoded
last, only the keys the view names as touched are looked at: a line is encoded again,
inserted (at its place in the order, found by bisection) or removed for each of them, and
nothing else of the core is visited but the final join. Given anything else (plain
records, or a view whose base is not the last one encoded), every record is compared with
the one held and the order is sorted again; the result is the same bytes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from operator import itemgetter

from reference.state.core import (
    LINE_DIGESTS_SINCE,
    Key,
    encode_record,
    identity,
    identity_of_digests,
    line_digest,
    sort_key,
)
from reference.state.records import Record

_key_of = itemgetter("kind", "key")
SortKey = tuple[bytes, bytes]


def _sort_key_of(key: Key) -> SortKey:
    return key[0].encode("utf-8"), key[1].encode("utf-8")


class CoreView:
    """The records of a store as one checkpoint sees them: view *number* of the store, with
    the keys put or deleted since view *base* (the one before it; None: unknown).
    Iterating it gives the records."""

    def __init__(
        self,
        records: Mapping[Key, Record],
        touched: Iterable[Key],
        *,
        number: int,
        base: int | None,
    ) -> None:
        self.records = records
        self.touched = frozenset(touched)
        self.number = number
        self.base = base

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records.values())


class CoreCache:
    """The records last encoded with their lines in core order, the last identity hashed."""

    def __init__(self) -> None:
        self._held: dict[Key, tuple[Record, bytes, bytes]] = {}
        """Each key's record as last encoded, with its line and the line's digest."""
        self._order: list[SortKey] = []
        """The sort keys of the held records, in core order."""
        self._lines: list[bytes] = []
        """The held lines, in core order."""
        self._digests: list[bytes] = []
        """The SHA-256 of each held line, in core order."""
        self._last: int | None = None
        """The number of the view last encoded (None after plain records)."""
        self._joined: bytes | None = None
        """The held lines joined (None when a line changed since they were)."""
        self._hashed: tuple[int, bytes, str] | None = None
        """``(schema_version, core bytes, identity)`` of the last :meth:`identity`."""

    def encode(self, records: Iterable[Record]) -> bytes:
        """The bytes of ``core.jsonl`` for *records* (validated, normalised, one per key)."""
        view = records if isinstance(records, CoreView) else None
        if view is not None and view.base is not None and view.base == self._last:
            for key in view.touched:
                self._update(key, view.records.get(key))
        else:
            self._rebuild(list(records))
        self._last = None if view is None else view.number
        if self._joined is None:
            self._joined = b"".join(self._lines)
        return self._joined

    def _update(self, key: Key, record: Record | None) -> None:
        """Bring the line of *key* up to *record* (None: the key is gone)."""
        seen = self._held.get(key)
        if seen is not None and seen[0] is record:
            return
        self._joined = None
        sort = _sort_key_of(key)
        place = bisect_left(self._order, sort)
        if record is None:
            if seen is not None:
                del self._held[key], self._order[place], self._lines[place]
                del self._digests[place]
            return
        line = encode_record(record)
        digest = line_digest(line)
        self._held[key] = (record, line, digest)
        if seen is None:
            self._order.insert(place, sort)
            self._lines.insert(place, line)
            self._digests.insert(place, digest)
        else:
            self._lines[place] = line
            self._digests[place] = digest

    def _rebuild(self, records: list[Record]) -> None:
        """Take *records* whole: lines of the records already held are kept, the others
        encoded, and the core order is sorted again."""
        self._joined = None
        held = {}
        for record in sorted(records, key=sort_key):
            key = _key_of(record)
            seen = self._held.get(key)
            if seen is None or seen[0] is not record:
                line = encode_record(record)
                seen = (record, line, line_digest(line))
            held[key] = seen
        self._held = held
        self._order = [_sort_key_of(key) for key in held]
        self._lines = [line for _, line, _ in held.values()]
        self._digests = [digest for _, _, digest in held.values()]

    def identity(self, schema_version: int, core: bytes) -> str:
        """:func:`identity` of *core*; the same bytes object asked twice is hashed once, and
        the core last encoded is hashed from its held line digests (from schema version 5)."""
        last = self._hashed
        if last is not None and last[0] == schema_version and last[1] is core:
            return last[2]
        if schema_version >= LINE_DIGESTS_SINCE and core is self._joined:
            found = identity_of_digests(schema_version, b"".join(self._digests))
        else:
            found = identity(schema_version, core)
        self._hashed = (schema_version, core, found)
        return found
