"""Broken register validation, ratification and loading: each class skips or bends one check."""

from __future__ import annotations

import copy
import dataclasses
import itertools
from pathlib import Path
from typing import Any

from reference.errors import RegisterError
from reference.registers import loader, ratify
from reference.registers.model import BUCKET_NAMES, MAX_MARKER_LEN, RegisterPack
from reference.registers.seal import build_report, seal_report
from reference.registers.validate import fail
from reference.serve import ProtocolHandler

MARKERS = "discourse_markers"
OVERRIDES = "realizer_overrides"
DEPTH = "disclosure_domain_count"
KNOWN_OVERRIDES = (DEPTH, "per_intent")


def recoded(error: RegisterError, old: str, new: str) -> RegisterError:
    """*error* with code *new* when its code is *old*; otherwise *error* itself."""
    if error.code != old:
        return error
    return RegisterError(error.message, field=error.field, code=new)


class MarkerBoundOffByOne(ProtocolHandler):
    """Markers of 128 characters are refused: the limit is taken as < 128."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        parsed = super().validate_pack(pack, expected_id)
        for name in BUCKET_NAMES:
            if any(len(m) >= MAX_MARKER_LEN for m in getattr(parsed.discourse_markers, name)):
                fail("REGISTER_MARKER_TOO_LONG", f"{MARKERS}.{name} has a long marker", name)
        return parsed


class BucketBoundOffByOne(ProtocolHandler):
    """A bucket of 33 markers is accepted: the limit is taken as <= 33."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        markers = pack.get(MARKERS)
        if isinstance(markers, dict):
            pack = copy.deepcopy(pack)
            for name, bucket in markers.items():
                if isinstance(bucket, list) and len(bucket) == 33:
                    pack[MARKERS][name] = bucket[:32]
        return super().validate_pack(pack, expected_id)


def _in_range(value: object) -> object:
    return 3 if type(value) is int else value


class DepthBoundLoose(ProtocolHandler):
    """disclosure_domain_count is checked to be an integer, but its range is not checked."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get(OVERRIDES)
        if not isinstance(overrides, dict):
            return super().validate_pack(pack, expected_id)
        pack = copy.deepcopy(pack)
        entries = [pack[OVERRIDES], *_scoped_entries(pack[OVERRIDES])]
        for entry in entries:
            if DEPTH in entry:
                entry[DEPTH] = _in_range(entry[DEPTH])
        return super().validate_pack(pack, expected_id)


def _scoped_entries(overrides: dict[str, Any]) -> list[dict[str, Any]]:
    scoped = overrides.get("per_intent")
    if not isinstance(scoped, dict):
        return []
    return [entry for entry in scoped.values() if isinstance(entry, dict)]


class UnknownKeyAccepted(ProtocolHandler):
    """Override keys outside the allow-list are dropped instead of refused."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get(OVERRIDES)
        if not isinstance(overrides, dict):
            return super().validate_pack(pack, expected_id)
        pack = copy.deepcopy(pack)
        flat = {k: v for k, v in pack[OVERRIDES].items() if k in KNOWN_OVERRIDES}
        for entry in _scoped_entries(flat):
            for key in [k for k in entry if k != DEPTH]:
                del entry[key]
        pack[OVERRIDES] = flat
        return super().validate_pack(pack, expected_id)


class NullPackRefused(ProtocolHandler):
    """Validation applies the ratify gate to every null pack, refusing valid empty packs."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        parsed = super().validate_pack(pack, expected_id)
        if ratify.is_null_pack(parsed):
            fail("REGISTER_EMPTY_NON_NULL", "a register pack must change something", None)
        return parsed


class WrongMissingFieldCode(ProtocolHandler):
    """A missing required field is refused as REGISTER_MALFORMED."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        try:
            return super().validate_pack(pack, expected_id)
        except RegisterError as error:
            raise recoded(error, "REGISTER_MISSING_FIELD", "REGISTER_MALFORMED") from None


def _unseparated(register_id: object) -> object:
    if not isinstance(register_id, str):
        return register_id
    return register_id.replace("/", "_").replace("\\", "_").replace("..", "_")


class IdNotChecked(ProtocolHandler):
    """Register ids with path separators or '..' pass validation."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        register_id = pack.get("register_id")
        stand_in = {**pack, "register_id": _unseparated(register_id)}
        parsed = super().validate_pack(stand_in, _unseparated(expected_id))
        return dataclasses.replace(parsed, register_id=register_id)


class MismatchUnchecked(ProtocolHandler):
    """The expected id is ignored, so a pack loads under any id."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        return super().validate_pack(pack, None)


class SchemaUnchecked(ProtocolHandler):
    """Any schema_version is accepted."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        if "schema_version" in pack:
            pack = {**pack, "schema_version": "1.0.0"}
        return super().validate_pack(pack, expected_id)


class RatifyNotIdempotent(ProtocolHandler):
    """Ratification stamps a run counter into the report's evidence (and so into the seal)."""

    def __init__(self) -> None:
        super().__init__()
        self.runs = itertools.count(1)

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        return ratify.ratify_pack_file(path, evidence_probe=lambda pack: {"run": next(self.runs)})


class EmptyNonNullRatified(ProtocolHandler):
    """Ratification skips the gate, sealing an empty pack that claims a non-standard depth."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        pack = ratify._read_for_ratify(path)
        methods = ratify.ratification_methods(pack)
        report = seal_report(build_report(pack, methods, ratify.static_evidence(pack)))
        ratify._write_sealed(path, pack, report)
        return report


def _located(register_id: str, search_path: tuple[Path, ...]) -> tuple[RegisterPack, Path, bytes]:
    register_id = loader.validate_register_id(register_id)
    path = loader.find_pack_file(register_id, search_path)
    pack, raw = loader.read_pack_file(path, expected_id=register_id)
    return pack, path, raw


def _report(pack: RegisterPack, path: Path) -> dict[str, Any]:
    return loader._read_report(loader._require_ratified(pack, path), pack.register_id)


class TamperNotDetected(ProtocolHandler):
    """Loading skips the source-hash and normal-form checks of the pack file."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        pack, path, _ = _located(register_id, search_path)
        loader._check_seal(pack, _report(pack, path))
        return pack


class SealUnchecked(ProtocolHandler):
    """Loading never compares the pack's mastery_report_sha256 with the report's seal."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        pack, path, raw = _located(register_id, search_path)
        loader._check_untampered(pack, raw, _report(pack, path))
        return pack


class UnratifiedLoads(ProtocolHandler):
    """Loading accepts a pack that has no seal and no report."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        pack, _, _ = _located(register_id, search_path)
        if not pack.mastery_report_sha256:
            return pack
        return super().load_pack(register_id, search_path)


class NotFoundCodeWrong(ProtocolHandler):
    """A pack that is not there is refused as REGISTER_MALFORMED."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        try:
            return super().load_pack(register_id, search_path)
        except RegisterError as error:
            raise recoded(error, "REGISTER_NOT_FOUND", "REGISTER_MALFORMED") from None


class ShippedPacksFirst(ProtocolHandler):
    """The shipped packs are searched before the given files, so a shipped id cannot be
    shadowed."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        if register_id in loader.list_register_ids():
            return loader.load_register_pack(register_id)
        return super().load_pack(register_id, search_path)


class BrokenUserPackFallsBack(ProtocolHandler):
    """A given pack that fails a check is replaced by the shipped pack of the same id."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        try:
            return super().load_pack(register_id, search_path)
        except RegisterError:
            if register_id not in loader.list_register_ids():
                raise
            return loader.load_register_pack(register_id)
