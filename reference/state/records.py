"""Core record kinds and their per-version fields: validation and normalisation of one record.

A record is a plain dict. ``validate_record`` accepts it for a schema version or raises
``STATE_RECORD_MALFORMED`` naming the field, and returns it normalised: additive-optional
fields equal to their default are omitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reference.state.errors import StateError

CURRENT_SCHEMA_VERSION = 3
MAX_KEY_LENGTH = 128
STATUSES = ("speculative", "coherent", "rejected")
MALFORMED = "STATE_RECORD_MALFORMED"

Record = dict[str, Any]
"""A core record: a JSON object with ``kind``, ``key`` and the fields of its kind."""


@dataclass(frozen=True)
class OptionalField:
    """An additive-optional field: the version that introduced it and its default."""

    since: int
    default: object


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _is_status(value: object) -> bool:
    return value in STATUSES and isinstance(value, str)


def _is_str_or_null(value: object) -> bool:
    return value is None or isinstance(value, str)


REQUIRED: dict[str, dict[str, Callable[[object], bool]]] = {
    "candidate": {"lemma": _is_str, "score": _is_int, "status": _is_status},
    "recognizer": {"pattern": _is_str, "weight": _is_int},
    "session": {"register_id": _is_str_or_null},
}
"""Per kind, the fields every version has (besides ``kind`` and ``key``) and their checks."""

OPTIONAL: dict[str, dict[str, OptionalField]] = {
    "candidate": {"evidence": OptionalField(since=3, default=0)},
    "recognizer": {"label": OptionalField(since=2, default="")},
    "session": {},
}
"""Per kind, the additive-optional fields."""

OPTIONAL_CHECKS = {"evidence": _is_int, "label": _is_str}
KINDS = tuple(sorted(REQUIRED))


def malformed(message: str, field: str) -> StateError:
    """The ``STATE_RECORD_MALFORMED`` refusal naming *field*."""
    return StateError(message, field=field, code=MALFORMED)


def known_fields(kind: str, schema_version: int) -> set[str]:
    """Every field a record of *kind* may carry at *schema_version*."""
    optional = {name for name, spec in OPTIONAL[kind].items() if spec.since <= schema_version}
    return {"kind", "key"} | set(REQUIRED[kind]) | optional


def _check_utf8(value: str, field: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise malformed(f"{field} is not encodable as UTF-8", field) from exc


def _check_key(record: Record, kind: str) -> None:
    key = record.get("key")
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY_LENGTH:
        raise malformed(f"key must be a string of 1 to {MAX_KEY_LENGTH} characters", "key")
    _check_utf8(key, "key")
    if kind == "session" and key != "session":
        raise malformed('a session record has key "session"', "key")


def _check_kind(record: object) -> str:
    if not isinstance(record, dict):
        raise malformed("a record is a JSON object", "record")
    kind = record.get("kind")
    if kind not in REQUIRED or not isinstance(kind, str):
        raise malformed(f"kind must be one of {', '.join(KINDS)}", "kind")
    return kind


def _check_fields(record: Record, kind: str, schema_version: int) -> None:
    allowed = known_fields(kind, schema_version)
    for field in sorted(record):
        if field not in allowed:
            raise malformed(f"{kind} has no field {field!r} at schema {schema_version}", field)
    checks = {**REQUIRED[kind], **OPTIONAL_CHECKS}
    for field in sorted(allowed - {"kind", "key"}):
        if field not in record:
            if field in REQUIRED[kind]:
                raise malformed(f"{kind} requires {field!r}", field)
            continue
        if not checks[field](record[field]):
            raise malformed(f"{kind}.{field} has the wrong type or value", field)
        if isinstance(record[field], str):
            _check_utf8(record[field], field)


def normalise(record: Record) -> Record:
    """Return *record* without the optional fields that equal their default."""
    optional = OPTIONAL[record["kind"]]
    return {
        field: value
        for field, value in record.items()
        if field not in optional or value != optional[field].default
    }


def validate_record(record: Any, schema_version: int) -> Record:
    """Check one record against *schema_version* and return it normalised."""
    kind = _check_kind(record)
    _check_key(record, kind)
    _check_fields(record, kind, schema_version)
    return normalise(record)
