"""Delta generations (docs/state.md § Delta generations): ``delta.jsonl``'s entries, built
against a base's records and applied to them.

A delta is framed journal lines, one entry each in ``(kind, key)`` order: a put of every
record the state holds that the base lacks or holds otherwise, a delete of every record
the base holds and the state does not. ``apply_delta`` refuses what a frame carries that
is not such an entry (``STATE_RECORD_MALFORMED``); a frame that does not check is damage,
which :class:`DeltaDamaged` reports so the generation is proven invalid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from reference.jsonio import loads_untrusted
from reference.state.core import Key
from reference.state.journal import checked_payload, frame
from reference.state.records import MAX_KEY_LENGTH, Record, kinds_at, malformed, validate_record

SortKey = tuple[bytes, bytes]


class DeltaDamaged(Exception):
    """A ``delta.jsonl`` whose frames do not check (torn or corrupt); the message says which."""


def sort_key_of(key: Key) -> SortKey:
    """The core order of a ``(kind, key)`` pair, as UTF-8 bytes."""
    return key[0].encode("utf-8"), key[1].encode("utf-8")


def put_entry(record: Record) -> bytes:
    """The framed line of a put of *record* (validated, normalised)."""
    return frame({"op": "put", "record": record})


def delete_entry(key: Key) -> bytes:
    """The framed line of a delete of *key*."""
    return frame({"op": "delete", "kind": key[0], "key": key[1]})


def changed_keys(
    records: Mapping[Key, Record], base: Mapping[Key, Record], keys: Iterable[Key]
) -> list[Key]:
    """Those of *keys* whose record in *records* is not the one in *base*, in core order."""
    found = []
    for key in keys:
        now, then = records.get(key), base.get(key)
        if now is then or now == then:
            continue
        found.append(key)
    return sorted(found, key=sort_key_of)


def _entry_key(
    entry: dict[str, Any], number: int, schema_version: int
) -> tuple[Key, Record | None]:
    op = entry.get("op")
    if op == "put" and set(entry) == {"op", "record"}:
        record = validate_record(entry["record"], schema_version)
        return (record["kind"], record["key"]), record
    if op == "delete" and set(entry) == {"op", "kind", "key"}:
        kind, key = entry["kind"], entry["key"]
        if kind not in kinds_at(schema_version):
            raise malformed(f"delta.jsonl entry {number} deletes unknown kind {kind!r}", "kind")
        if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY_LENGTH:
            raise malformed(f"delta.jsonl entry {number} deletes a malformed key", "key")
        return (kind, key), None
    raise malformed(f"delta.jsonl entry {number} is neither a put nor a delete", "op")


def frame_entries(data: bytes) -> list[dict[str, Any]]:
    """The entries of *data*'s frames: :class:`DeltaDamaged` when any frame does not check,
    else ``STATE_RECORD_MALFORMED`` when a frame's payload is not a JSON object."""
    if data and not data.endswith(b"\n"):
        raise DeltaDamaged("delta.jsonl's last line is not a whole frame that checks")
    payloads = [checked_payload(line) for line in data.split(b"\n")[:-1]]
    if None in payloads:
        number = payloads.index(None) + 1
        raise DeltaDamaged(f"delta.jsonl line {number} is not a whole frame that checks")
    entries = []
    for number, payload in enumerate(payloads, start=1):
        try:
            entry = loads_untrusted(payload or b"")
        except ValueError:
            entry = None
        if not isinstance(entry, dict):
            raise malformed(f"delta.jsonl entry {number} is not a JSON object", "record")
        entries.append(entry)
    return entries


def apply_delta(base: Mapping[Key, Record], data: bytes, schema_version: int) -> dict[Key, Record]:
    """The records of *base* with the entries of *data* applied.

    Raises :class:`DeltaDamaged` when a frame does not check, ``STATE_RECORD_MALFORMED``
    when a checked frame's entry is not one the format writes.
    """
    records = dict(base)
    previous: SortKey | None = None
    lines = []
    for number, entry in enumerate(frame_entries(data), start=1):
        key, record = _entry_key(entry, number, schema_version)
        order = sort_key_of(key)
        if previous is not None and order <= previous:
            raise malformed(f"delta.jsonl entry {number} is out of order or repeated", "key")
        previous = order
        lines.append(put_entry(record) if record is not None else delete_entry(key))
        if record is None:
            records.pop(key, None)
        else:
            records[key] = record
    if b"".join(lines) != data:
        raise malformed("delta.jsonl holds an entry that is not canonical JSON", "record")
    return records
