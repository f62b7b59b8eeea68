"""Structural validation of register pack JSON, shared by the loader and the ratifier.

:func:`parse_pack` checks in one fixed order and raises the first failure as a
:class:`~reference.errors.RegisterError`, so a malformed pack always gets one
deterministic code: object type, missing fields, unknown fields, string field
types, schema_version, register_id validity, id mismatch, depth_preference,
discourse markers, realizer overrides.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any, NoReturn

from reference.errors import RegisterError
from reference.registers.model import (
    ALL_FIELDS,
    BUCKET_NAMES,
    DEPTH_PREFERENCES,
    KNOWN_FLAT_OVERRIDES,
    MAX_MARKER_LEN,
    MAX_MARKERS_PER_BUCKET,
    MAX_REGISTER_ID_LEN,
    PER_INTENT_KEY,
    REQUIRED_FIELDS,
    SEAL_FIELD,
    SUPPORTED_SCHEMA_VERSIONS,
    DiscourseMarkers,
    RegisterPack,
)

REGISTER_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
STRING_FIELDS = (
    "version",
    "description",
    "schema_version",
    "display_name",
    "depth_preference",
)
OVERRIDES = "realizer_overrides"
MARKERS = "discourse_markers"


def fail(code: str, message: str, field: str | None) -> NoReturn:
    """Raise a :class:`RegisterError` with *code*, *message* and *field*."""
    raise RegisterError(message, field=field, code=code)


def intent_names() -> frozenset[str]:
    """The valid per-intent override keys: the member names of ``IntentTag``."""
    from reference.truth.intent import IntentTag

    return frozenset(tag.name for tag in IntentTag)


def _id_rule_broken(register_id: str) -> str | None:
    if register_id == "":
        return "it is empty"
    if len(register_id) > MAX_REGISTER_ID_LEN:
        return f"it is longer than {MAX_REGISTER_ID_LEN} characters"
    if "/" in register_id or "\\" in register_id:
        return "it contains a path separator"
    if ".." in register_id:
        return "it contains '..'"
    if any(unicodedata.category(c) == "Cc" or c == "\x7f" for c in register_id):
        return "it contains a control character"
    if REGISTER_ID_PATTERN.fullmatch(register_id) is None:
        return "it does not match ^[A-Za-z0-9][A-Za-z0-9_.-]*$"
    return None


def validate_register_id(register_id: object) -> str:
    """Return *register_id* if it is a safe pack id, else raise REGISTER_INVALID_ID.

    Rules, checked in order: a string, non-empty, at most 64 characters, no
    ``/`` or ``\\``, no ``..``, no control character, matches the id pattern.
    """
    if not isinstance(register_id, str):
        kind = type(register_id).__name__
        fail("REGISTER_INVALID_ID", f"register_id must be a string, got {kind}", "register_id")
    rule = _id_rule_broken(register_id)
    if rule is not None:
        fail(
            "REGISTER_INVALID_ID", f"register_id {register_id!r} is invalid: {rule}", "register_id"
        )
    return register_id


def _check_fields(data: Mapping[str, Any]) -> None:
    for name in REQUIRED_FIELDS:
        if name not in data:
            fail("REGISTER_MISSING_FIELD", f"required field {name!r} is missing", name)
    for name in sorted(data, key=str):
        if name not in ALL_FIELDS:
            fail("REGISTER_MALFORMED", f"unknown field {name!r} in register pack", str(name))
    for name in (*STRING_FIELDS, SEAL_FIELD):
        if name in data and not isinstance(data[name], str):
            kind = type(data[name]).__name__
            fail("REGISTER_MALFORMED", f"field {name!r} must be a string, got {kind}", name)


def _check_identity(data: Mapping[str, Any], expected_id: str | None) -> None:
    if data["schema_version"] not in SUPPORTED_SCHEMA_VERSIONS:
        message = (
            f"schema_version {data['schema_version']!r} is not supported "
            f"(supported: {', '.join(SUPPORTED_SCHEMA_VERSIONS)})"
        )
        fail("REGISTER_SCHEMA_VERSION", message, "schema_version")
    register_id = validate_register_id(data["register_id"])
    if expected_id is not None and register_id != expected_id:
        message = f"register_id {register_id!r} does not match the expected id {expected_id!r}"
        fail("REGISTER_ID_MISMATCH", message, "register_id")
    if data["depth_preference"] not in DEPTH_PREFERENCES:
        message = (
            f"depth_preference {data['depth_preference']!r} is not one of "
            f"{', '.join(DEPTH_PREFERENCES)}"
        )
        fail("REGISTER_BAD_DEPTH_PREFERENCE", message, "depth_preference")


def _parse_bucket(name: str, bucket: object) -> tuple[str, ...]:
    where = f"{MARKERS}.{name}"
    if not isinstance(bucket, list):
        fail("REGISTER_MALFORMED", f"{where} must be a list of strings", where)
    if len(bucket) > MAX_MARKERS_PER_BUCKET:
        message = f"{where} has {len(bucket)} markers; at most {MAX_MARKERS_PER_BUCKET} allowed"
        fail("REGISTER_BUCKET_TOO_LARGE", message, where)
    for index, marker in enumerate(bucket):
        at = f"{where}[{index}]"
        if not isinstance(marker, str):
            fail("REGISTER_MALFORMED", f"{at} must be a string", at)
        if len(marker) > MAX_MARKER_LEN:
            message = f"{at} is {len(marker)} characters; at most {MAX_MARKER_LEN} allowed"
            fail("REGISTER_MARKER_TOO_LONG", message, at)
    return tuple(bucket)


def parse_markers(markers: object) -> DiscourseMarkers:
    """Validate the ``discourse_markers`` object; absent buckets default to empty."""
    if not isinstance(markers, dict):
        fail("REGISTER_MALFORMED", f"{MARKERS} must be an object", MARKERS)
    for name in sorted(markers, key=str):
        if name not in BUCKET_NAMES:
            where = f"{MARKERS}.{name}"
            message = f"unknown marker bucket {name!r} (known: {', '.join(BUCKET_NAMES)})"
            fail("REGISTER_UNKNOWN_BUCKET", message, where)
    buckets = {name: _parse_bucket(name, markers.get(name, [])) for name in BUCKET_NAMES}
    return DiscourseMarkers(**buckets)


def _check_flat_value(where: str, key: str, value: object) -> None:
    allowed = KNOWN_FLAT_OVERRIDES[key]
    if type(value) is not int or value not in allowed:
        message = f"{where} must be an integer in {{{', '.join(map(str, allowed))}}}, got {value!r}"
        fail("REGISTER_OVERRIDE_OUT_OF_BOUNDS", message, where)


def _check_flat_overrides(where: str, overrides: Mapping[str, Any], allowed: set[str]) -> None:
    for key in sorted(overrides, key=str):
        if key not in allowed:
            at = f"{where}.{key}"
            fail("REGISTER_UNKNOWN_OVERRIDE", f"unknown realizer override key {at!r}", at)
    for key in sorted(overrides):
        if key in KNOWN_FLAT_OVERRIDES:
            _check_flat_value(f"{where}.{key}", key, overrides[key])


def _check_per_intent(per_intent: object) -> None:
    where = f"{OVERRIDES}.{PER_INTENT_KEY}"
    if not isinstance(per_intent, dict):
        fail("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{where} must be an object", where)
    names = intent_names() if per_intent else frozenset()
    for intent in sorted(per_intent, key=str):
        if intent not in names:
            at = f"{where}.{intent}"
            fail("REGISTER_UNKNOWN_INTENT", f"{at!r} is not an IntentTag name", at)
    for intent in sorted(per_intent):
        at = f"{where}.{intent}"
        value = per_intent[intent]
        if not isinstance(value, dict):
            fail("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{at} must be an object", at)
        _check_flat_overrides(at, value, set(KNOWN_FLAT_OVERRIDES))


def check_overrides(overrides: object) -> None:
    """Validate ``realizer_overrides`` against the known-key allow-list and its bounds."""
    if not isinstance(overrides, dict):
        fail("REGISTER_MALFORMED", f"{OVERRIDES} must be an object", OVERRIDES)
    _check_flat_overrides(OVERRIDES, overrides, {*KNOWN_FLAT_OVERRIDES, PER_INTENT_KEY})
    if PER_INTENT_KEY in overrides:
        _check_per_intent(overrides[PER_INTENT_KEY])


def parse_pack(data: object, *, expected_id: str | None) -> RegisterPack:
    """Validate parsed pack JSON and return the :class:`RegisterPack` it describes.

    ``mastery_report_sha256`` is optional here (absent reads as ``""``); whether
    a pack is ratified is the loader's question, not a structural one.
    """
    if not isinstance(data, dict):
        fail("REGISTER_MALFORMED", "a register pack must be a JSON object", None)
    _check_fields(data)
    _check_identity(data, expected_id)
    markers = parse_markers(data[MARKERS])
    check_overrides(data[OVERRIDES])
    return RegisterPack(
        register_id=data["register_id"],
        version=data["version"],
        description=data["description"],
        schema_version=data["schema_version"],
        display_name=data["display_name"],
        depth_preference=data["depth_preference"],
        realizer_overrides=data[OVERRIDES],
        discourse_markers=markers,
        mastery_report_sha256=data.get(SEAL_FIELD, ""),
    )
