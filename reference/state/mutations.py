"""Mutations of the in-memory core: ``put`` a record, ``delete`` one, count a ``turn``.

``apply_mutations`` checks every mutation before applying any, so a batch is applied
whole or not at all. Deleting an absent record is a no-op.
"""

from __future__ import annotations

from typing import Any

from reference.state.core import Key
from reference.state.errors import StateError
from reference.state.records import (
    CURRENT_SCHEMA_VERSION,
    MAX_KEY_LENGTH,
    REQUIRED,
    Record,
    validate_record,
)

_SHAPES = {"put": {"op", "record"}, "delete": {"op", "kind", "key"}, "turn": {"op"}}


def bad(message: str, field: str) -> StateError:
    """The ``STATE_BAD_MUTATION`` refusal naming *field*."""
    return StateError(message, field=field, code="STATE_BAD_MUTATION")


def _check_shape(mutation: object, index: int) -> tuple[str, dict[str, object]]:
    if not isinstance(mutation, dict):
        raise bad(f"mutations[{index}] is not an object", f"mutations[{index}]")
    op = mutation.get("op")
    if not isinstance(op, str) or op not in _SHAPES:
        raise bad(f"mutation {index} has unknown op {op!r}", f"mutations[{index}].op")
    unknown = sorted(set(mutation) - _SHAPES[op], key=str)
    if unknown:
        field = unknown[0]
        raise bad(f"{op} mutation {index} has unknown {field!r}", f"mutations[{index}].{field}")
    missing = sorted(_SHAPES[op] - set(mutation))
    if missing:
        field = missing[0]
        raise bad(f"{op} mutation {index} lacks {field!r}", f"mutations[{index}].{field}")
    return op, mutation


def _check_delete(mutation: dict[str, object], index: int) -> Key:
    kind, key = mutation["kind"], mutation["key"]
    if not isinstance(kind, str) or kind not in REQUIRED:
        raise bad(
            f"delete mutation {index} names unknown kind {kind!r}", f"mutations[{index}].kind"
        )
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY_LENGTH:
        raise bad(
            f"delete mutation {index}: key must be a string of 1 to {MAX_KEY_LENGTH} characters",
            f"mutations[{index}].key",
        )
    return kind, key


def _check_put(mutation: dict[str, object], index: int) -> Record:
    """The put's record, normalised; a malformed one is ``STATE_BAD_MUTATION`` at its path."""
    try:
        return validate_record(mutation["record"], CURRENT_SCHEMA_VERSION)
    except StateError as refusal:
        path = f"mutations[{index}].record"
        field = path if refusal.field in (None, "record") else f"{path}.{refusal.field}"
        raise bad(f"put mutation {index}: {refusal.message}", field) from refusal


def check_mutation(mutation: object, index: int) -> tuple[str, Record | Key | None]:
    """Return ``(op, argument)`` of one mutation: a normalised record, a key, or None."""
    op, fields = _check_shape(mutation, index)
    if op == "put":
        return op, _check_put(fields, index)
    if op == "delete":
        return op, _check_delete(fields, index)
    return op, None


def apply_mutations(
    records: dict[Key, Record], turn_count: int, mutations: object
) -> tuple[dict[Key, Record], int]:
    """The records and turn count after *mutations*; the inputs are left unchanged."""
    if not isinstance(mutations, list):
        raise bad("mutations is a list", "mutations")
    checked = [check_mutation(mutation, index) for index, mutation in enumerate(mutations)]
    records = dict(records)
    for _, argument in checked:
        if isinstance(argument, dict):
            records[(argument["kind"], argument["key"])] = argument
        elif isinstance(argument, tuple):
            records.pop(argument, None)
        else:
            turn_count += 1
    return records, turn_count


def touched_keys(mutations: list[dict[str, Any]]) -> list[Key]:
    """The ``(kind, key)`` of every put and delete of *mutations*, a batch
    :func:`apply_mutations` accepted."""
    keys = []
    for mutation in mutations:
        if mutation["op"] == "put":
            keys.append((mutation["record"]["kind"], mutation["record"]["key"]))
        elif mutation["op"] == "delete":
            keys.append((mutation["kind"], mutation["key"]))
    return keys
