"""The persistent core's bytes: ``core.jsonl`` encoding, decoding and the state identity.

Records are written one canonical JSON line each, ordered by ``(kind, key)`` in UTF-8
byte order. Decoding refuses anything the encoder would not have written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from reference.canonical import canonical_bytes, sha256_hex
from reference.state.records import Record, malformed, validate_record

Key = tuple[str, str]


def sort_key(record: Record) -> tuple[bytes, bytes]:
    """The ``(kind, key)`` order of the core, as UTF-8 bytes."""
    return record["kind"].encode("utf-8"), record["key"].encode("utf-8")


def encode_record(record: Record) -> bytes:
    """One core line: the canonical JSON of the record and ``\\n``."""
    return canonical_bytes(record) + b"\n"


def encode_core(records: Iterable[Record]) -> bytes:
    """The bytes of ``core.jsonl`` for already validated, normalised records."""
    return b"".join(encode_record(record) for record in sorted(records, key=sort_key))


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _parse_line(line: bytes, number: int) -> object:
    try:
        return json.loads(line.decode("utf-8"), parse_constant=_refuse_constant)
    except ValueError as exc:
        raise malformed(f"core.jsonl line {number} is not JSON: {exc}", "record") from exc


def _decode_line(line: bytes, number: int, schema_version: int) -> Record:
    record = validate_record(_parse_line(line, number), schema_version)
    if encode_record(record) != line + b"\n":
        raise malformed(f"core.jsonl line {number} is not in canonical form", "record")
    return record


def _check_order(previous: Record | None, record: Record, number: int) -> None:
    if previous is None or sort_key(previous) < sort_key(record):
        return
    problem = "duplicates" if sort_key(previous) == sort_key(record) else "is out of order after"
    raise malformed(f"core.jsonl line {number} {problem} the line before it", "key")


def decode_core(data: bytes, schema_version: int) -> dict[Key, Record]:
    """Parse ``core.jsonl`` bytes into ``{(kind, key): record}``; refuse malformed input."""
    if not data:
        return {}
    if not data.endswith(b"\n"):
        raise malformed("core.jsonl does not end with a newline", "record")
    records: dict[Key, Record] = {}
    previous = None
    for number, line in enumerate(data[:-1].split(b"\n"), start=1):
        record = _decode_line(line, number, schema_version)
        _check_order(previous, record, number)
        records[(record["kind"], record["key"])] = record
        previous = record
    return records


LINE_DIGESTS_SINCE = 5
"""The schema version from which the identity hashes each line's digest, not the core."""


def line_digest(line: bytes) -> bytes:
    """The 32 raw bytes of the SHA-256 of one core line (with its ``\\n``)."""
    return hashlib.sha256(line).digest()


def identity_of_digests(schema_version: int, digests: bytes) -> str:
    """The identity of schema version 5 and later: SHA-256 over the schema prefix and the
    concatenated line digests of the core, in core order."""
    prefix = b"core-state/" + str(schema_version).encode("ascii") + b"\n"
    return sha256_hex(prefix + digests)


def identity(schema_version: int, core_bytes: bytes) -> str:
    """The state identity of *core_bytes* at *schema_version*: before version 5 SHA-256 over
    the schema prefix and the core bytes, from it over the prefix and each line's digest."""
    prefix = b"core-state/" + str(schema_version).encode("ascii") + b"\n"
    if schema_version < LINE_DIGESTS_SINCE:
        return sha256_hex(prefix + core_bytes)
    parts = core_bytes.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return identity_of_digests(schema_version, b"".join(line_digest(line) for line in lines))
