"""Ordered sub-checks run member by member: each engine makes one pass over the sorted
members of a step and runs every sub-check on each member as it goes (or, where the docs
nest per member, runs each sub-check over every member first). Each is right on one fault
alone and answers for the wrong member of two (LOAD-ORDER-801; variation.select's
arguments: PROTO-ORDER-001)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.protocol.envelope import bad_arg, read_envelope
from reference.registers.model import (
    ALL_FIELDS,
    BUCKET_NAMES,
    KNOWN_FLAT_OVERRIDES,
    MAX_MARKERS_PER_BUCKET,
    PER_INTENT_KEY,
    REQUIRED_FIELDS,
    RegisterPack,
)
from reference.registers.validate import (
    STRING_FIELDS,
    check_overrides,
    fail,
    intent_names,
    parse_markers,
    parse_pack,
)
from reference.serve import ProtocolHandler

OVERRIDES = "realizer_overrides"
MARKERS = "discourse_markers"
PER_INTENT = f"{OVERRIDES}.{PER_INTENT_KEY}"


def _up_to_markers(data: object, expected_id: str | None) -> dict[str, Any] | None:
    """Steps 1 to 8 as the reference runs them (the pack with empty markers and
    overrides); the pack, or None to leave it to the reference."""
    if not isinstance(data, dict) or MARKERS not in data or OVERRIDES not in data:
        return None
    parse_pack({**data, MARKERS: {}, OVERRIDES: {}}, expected_id=expected_id)
    return data


def _parse_bucket(name: str, bucket: object) -> None:
    """One known bucket read whole: a list, its size, its markers."""
    parse_markers({name: bucket})


def _check_flat_value(where: str, key: str, value: object) -> None:
    if type(value) is not int or value not in KNOWN_FLAT_OVERRIDES[key]:
        fail("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{where} is out of bounds", where)


def _check_flat_overrides(where: str, overrides: Mapping[str, Any], allowed: set[str]) -> None:
    """Keys known (sorted), then values in bounds, as the docs order them."""
    for key in sorted(overrides, key=str):
        if key not in allowed:
            at = f"{where}.{key}"
            fail("REGISTER_UNKNOWN_OVERRIDE", f"unknown realizer override key {at!r}", at)
    for key in sorted(overrides):
        if key in KNOWN_FLAT_OVERRIDES:
            _check_flat_value(f"{where}.{key}", key, overrides[key])


def _check_per_intent(per_intent: object) -> None:
    """per_intent as the docs order it: an object, intent names, then each intent whole."""
    check_overrides({PER_INTENT_KEY: per_intent})


def _one_pass_flat(where: str, overrides: Mapping[str, Any], allowed: set[str]) -> None:
    """Keys known and values in bounds, both on each key in sorted order."""
    for key in sorted(overrides, key=str):
        if key not in allowed:
            at = f"{where}.{key}"
            fail("REGISTER_UNKNOWN_OVERRIDE", f"unknown realizer override key {at!r}", at)
        if key in KNOWN_FLAT_OVERRIDES:
            _check_flat_value(f"{where}.{key}", key, overrides[key])


class OnePassOverrides(ProtocolHandler):
    """Step 10 makes one pass over the sorted top-level override keys: each key is checked
    known, then its value (bounds, or all of per_intent) before the next key is looked at."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        if data is not None:
            parse_markers(data[MARKERS])
            overrides = data[OVERRIDES]
            if isinstance(overrides, dict):
                allowed = {*KNOWN_FLAT_OVERRIDES, PER_INTENT_KEY}
                for key in sorted(overrides, key=str):
                    if key not in allowed:
                        at = f"{OVERRIDES}.{key}"
                        fail("REGISTER_UNKNOWN_OVERRIDE", f"unknown override {at!r}", at)
                    if key == PER_INTENT_KEY:
                        _check_per_intent(overrides[key])
                    else:
                        _check_flat_value(f"{OVERRIDES}.{key}", key, overrides[key])
        return super().validate_pack(pack, expected_id)


class OnePassIntents(ProtocolHandler):
    """per_intent makes one pass over the sorted intents: each is checked an intent name,
    then its value, before the next intent is looked at."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        if data is not None:
            parse_markers(data[MARKERS])
            overrides = data[OVERRIDES]
            if isinstance(overrides, dict):
                _check_flat_overrides(OVERRIDES, overrides, {*KNOWN_FLAT_OVERRIDES, PER_INTENT_KEY})
                per_intent = overrides.get(PER_INTENT_KEY)
                if isinstance(per_intent, dict):
                    names = intent_names()
                    for intent in sorted(per_intent, key=str):
                        at = f"{PER_INTENT}.{intent}"
                        if intent not in names:
                            fail("REGISTER_UNKNOWN_INTENT", f"{at!r} is not an intent", at)
                        value = per_intent[intent]
                        if not isinstance(value, dict):
                            fail("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{at} must be an object", at)
                        _check_flat_overrides(at, value, set(KNOWN_FLAT_OVERRIDES))
        return super().validate_pack(pack, expected_id)


class OnePassIntentKeys(ProtocolHandler):
    """Inside one per_intent value, one pass over its sorted keys: each is checked known,
    then its value in bounds, before the next key."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        if data is not None:
            parse_markers(data[MARKERS])
            overrides = data[OVERRIDES]
            if isinstance(overrides, dict):
                _check_flat_overrides(OVERRIDES, overrides, {*KNOWN_FLAT_OVERRIDES, PER_INTENT_KEY})
                per_intent = overrides.get(PER_INTENT_KEY)
                if isinstance(per_intent, dict) and all(k in intent_names() for k in per_intent):
                    for intent in sorted(per_intent):
                        value = per_intent[intent]
                        if isinstance(value, dict):
                            _one_pass_flat(
                                f"{PER_INTENT}.{intent}", value, set(KNOWN_FLAT_OVERRIDES)
                            )
        return super().validate_pack(pack, expected_id)


class SubchecksAcrossIntents(ProtocolHandler):
    """per_intent runs each per-intent sub-check over every intent before the next: every
    value an object, then every value's keys known, then every value in bounds (the docs
    check each intent whole, in sorted order)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        if data is not None:
            parse_markers(data[MARKERS])
            overrides = data[OVERRIDES]
            if isinstance(overrides, dict):
                _check_flat_overrides(OVERRIDES, overrides, {*KNOWN_FLAT_OVERRIDES, PER_INTENT_KEY})
                per_intent = overrides.get(PER_INTENT_KEY)
                if isinstance(per_intent, dict) and all(k in intent_names() for k in per_intent):
                    for intent in sorted(per_intent):
                        if not isinstance(per_intent[intent], dict):
                            at = f"{PER_INTENT}.{intent}"
                            fail("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{at} must be an object", at)
                    for intent in sorted(per_intent):
                        for key in sorted(per_intent[intent]):
                            if key not in KNOWN_FLAT_OVERRIDES:
                                at = f"{PER_INTENT}.{intent}.{key}"
                                fail("REGISTER_UNKNOWN_OVERRIDE", f"unknown key {at!r}", at)
        return super().validate_pack(pack, expected_id)


class OnePassBuckets(ProtocolHandler):
    """Step 9 makes one pass over the sorted bucket names: each is checked known, then
    read whole (a list, its size, its markers), before the next name is looked at."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        if data is not None and isinstance(data[MARKERS], dict):
            for name in sorted(data[MARKERS], key=str):
                if name not in BUCKET_NAMES:
                    at = f"{MARKERS}.{name}"
                    fail("REGISTER_UNKNOWN_BUCKET", f"unknown marker bucket {name!r}", at)
                _parse_bucket(name, data[MARKERS][name])
        return super().validate_pack(pack, expected_id)


class SubchecksAcrossBuckets(ProtocolHandler):
    """Step 9 runs each bucket sub-check over every bucket before the next: all three a
    list, then all sizes, then all markers (the docs read each bucket whole, in the order
    openings, transitions, closings)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        markers = data[MARKERS] if data is not None else None
        if isinstance(markers, dict) and all(name in BUCKET_NAMES for name in markers):
            buckets = [(name, markers.get(name, [])) for name in BUCKET_NAMES]
            for name, bucket in buckets:
                if not isinstance(bucket, list):
                    at = f"{MARKERS}.{name}"
                    fail("REGISTER_MALFORMED", f"{at} must be a list of strings", at)
            for name, bucket in buckets:
                if len(bucket) > MAX_MARKERS_PER_BUCKET:
                    at = f"{MARKERS}.{name}"
                    fail("REGISTER_BUCKET_TOO_LARGE", f"{at} has too many markers", at)
            for name, bucket in buckets:
                _parse_bucket(name, bucket)
        return super().validate_pack(pack, expected_id)


class OnePassFields(ProtocolHandler):
    """Steps 3 and 4 make one pass over the sorted top-level fields: each is checked known,
    then (a string field) a string, before the next field is looked at."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        if isinstance(pack, dict) and all(name in pack for name in REQUIRED_FIELDS):
            for name in sorted(pack, key=str):
                if name not in ALL_FIELDS:
                    fail("REGISTER_MALFORMED", f"unknown field {name!r}", str(name))
                if name in STRING_FIELDS and not isinstance(pack[name], str):
                    fail("REGISTER_MALFORMED", f"field {name!r} must be a string", name)
        return super().validate_pack(pack, expected_id)


class OnePassRequiredFields(ProtocolHandler):
    """Steps 2 and 4 make one pass over REQUIRED_FIELDS: each is checked present, then (a
    string field) a string, before the next field is looked at."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        if isinstance(pack, dict):
            for name in REQUIRED_FIELDS:
                if name not in pack:
                    fail("REGISTER_MISSING_FIELD", f"required field {name!r} is missing", name)
                if name in STRING_FIELDS and not isinstance(pack[name], str):
                    fail("REGISTER_MALFORMED", f"field {name!r} must be a string", name)
        return super().validate_pack(pack, expected_id)


def _select_type_fault(name: str, value: object) -> bool:
    """Whether argument *name* of variation.select has the wrong type (docs/protocol.md)."""
    if name == "bucket":
        return not isinstance(value, list) or not all(isinstance(v, str) for v in value)
    if name == "turn_idx":
        return type(value) is not int or value < 0
    return not isinstance(value, str)


SELECT_ARGS = ("bucket", "trace_hash", "register_id", "turn_idx", "bucket_name")


class OnePassArgNames(ProtocolHandler):
    """variation.select makes one pass over its sorted argument names, sent or required:
    each is checked known, present, then its type, before the next."""

    def dispatch(self, request: object) -> dict[str, Any]:
        op, args = read_envelope(request)
        if op == "variation.select":
            for name in sorted({*args, *SELECT_ARGS}):
                if name not in SELECT_ARGS:
                    bad_arg(name, f"unknown argument {name!r}")
                if name not in args:
                    bad_arg(name, f"missing argument {name!r}")
                if _select_type_fault(name, args[name]):
                    bad_arg(name, f"argument {name!r} has the wrong type")
        return super().dispatch(request)


class OnePassArgsInOrder(ProtocolHandler):
    """variation.select refuses unknown names (sorted), then walks its Args in order: each
    is checked present, then its type, before the next."""

    def dispatch(self, request: object) -> dict[str, Any]:
        op, args = read_envelope(request)
        if op == "variation.select":
            for name in sorted(args):
                if name not in SELECT_ARGS:
                    bad_arg(name, f"unknown argument {name!r}")
            for name in SELECT_ARGS:
                if name not in args:
                    bad_arg(name, f"missing argument {name!r}")
                if _select_type_fault(name, args[name]):
                    bad_arg(name, f"argument {name!r} has the wrong type")
        return super().dispatch(request)


class IntentKeysAsGiven(ProtocolHandler):
    """Inside one per_intent value, unknown keys are looked for in the order the pack gives
    them, not sorted: of two unknown keys the one written first is reported."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        data = _up_to_markers(pack, expected_id)
        overrides = data[OVERRIDES] if data is not None else None
        per_intent = overrides.get(PER_INTENT_KEY) if isinstance(overrides, dict) else None
        if isinstance(per_intent, dict) and all(k in intent_names() for k in per_intent):
            for intent in sorted(per_intent):
                value = per_intent[intent]
                for key in value if isinstance(value, dict) else ():
                    if key not in KNOWN_FLAT_OVERRIDES:
                        at = f"{PER_INTENT}.{intent}.{key}"
                        fail("REGISTER_UNKNOWN_OVERRIDE", f"unknown key {at!r}", at)
        return super().validate_pack(pack, expected_id)
