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

CURRENT_SCHEMA_VERSION = 5
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


CANONICAL_MAX = 2**53 - 1
"""The largest magnitude of an integer a state file holds (the canonical range)."""


def _is_int(value: object) -> bool:
    return type(value) is int and -CANONICAL_MAX <= value <= CANONICAL_MAX


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _is_status(value: object) -> bool:
    return value in STATUSES and isinstance(value, str)


def _is_str_or_null(value: object) -> bool:
    return value is None or isinstance(value, str)


ROTOR_SIZE = 32
"""A field rotor's coefficients, in blade-bitmask order."""

SAID_KEPT = 3
"""At most this many things said are held by one vault record."""

_HEX64 = frozenset("0123456789abcdef")


def _is_count(value: object) -> bool:
    return _is_int(value) and value >= 0  # type: ignore[operator]


def _is_bits(value: object) -> bool:
    """16 lowercase hex digits: the big-endian bit pattern of one IEEE-754 binary64."""
    return isinstance(value, str) and len(value) == 16 and set(value) <= _HEX64


def _is_rotor(value: object) -> bool:
    return isinstance(value, list) and len(value) == ROTOR_SIZE and all(map(_is_bits, value))


def _is_said_entry(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"claim", "text", "turn_idx"}
        and _is_str_or_null(value["claim"])
        and isinstance(value["text"], str)
        and _is_count(value["turn_idx"])
    )


def _is_said(value: object) -> bool:
    return isinstance(value, list) and len(value) <= SAID_KEPT and all(map(_is_said_entry, value))


REQUIRED: dict[str, dict[str, Callable[[object], bool]]] = {
    "candidate": {"lemma": _is_str, "score": _is_int, "status": _is_status},
    "life": {"context": _is_str_or_null, "rotor": _is_rotor, "turns": _is_count},
    "recognizer": {"pattern": _is_str, "weight": _is_int},
    "session": {"register_id": _is_str_or_null},
    "vault": {
        "count": _is_count,
        "first_turn": _is_count,
        "last_turn": _is_count,
        "latest_claim": _is_str_or_null,
        "lemma": _is_str,
        "said": _is_said,
    },
}
"""Per kind, the fields every version of the kind has (besides ``kind`` and ``key``) and
their checks."""

KIND_SINCE = {"candidate": 1, "life": 4, "recognizer": 1, "session": 1, "vault": 4}
"""The schema version that introduced each kind; an older version does not know it."""

OPTIONAL: dict[str, dict[str, OptionalField]] = {
    "candidate": {"evidence": OptionalField(since=3, default=0)},
    "life": {},
    "recognizer": {"label": OptionalField(since=2, default="")},
    "session": {},
    "vault": {},
}
"""Per kind, the additive-optional fields."""

OPTIONAL_CHECKS = {"evidence": _is_int, "label": _is_str}
SINGLETONS = ("life", "session")
"""Kinds with one record, whose key is the kind's name."""
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
    if kind in SINGLETONS and key != kind:
        raise malformed(f'a {kind} record has key "{kind}"', "key")
    if kind == "vault" and not (len(key) == 64 and set(key) <= _HEX64):
        raise malformed("a vault record's key is its address: 64 lowercase hex digits", "key")


def kinds_at(schema_version: int) -> tuple[str, ...]:
    """The record kinds *schema_version* knows, sorted."""
    return tuple(kind for kind in KINDS if KIND_SINCE[kind] <= schema_version)


def _check_kind(record: object, schema_version: int) -> str:
    if not isinstance(record, dict):
        raise malformed("a record is a JSON object", "record")
    kind = record.get("kind")
    known = kinds_at(schema_version)
    if not isinstance(kind, str) or kind not in known:
        raise malformed(f"kind must be one of {', '.join(known)}", "kind")
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
        for text in _strings(record[field]):
            _check_utf8(text, field)


def _strings(value: object) -> list[str]:
    """Every string inside *value* (a field's value: a scalar, a list or an object)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return []


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
    kind = _check_kind(record, schema_version)
    _check_key(record, kind)
    _check_fields(record, kind, schema_version)
    return normalise(record)
