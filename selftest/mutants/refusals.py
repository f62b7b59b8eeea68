"""Broken loaders that refuse (or accept) for the right reason but say it wrong.

Each class bends one detail a port could get wrong while every coarse check still
passes: the ``field`` of a refusal, its message, a type coercion, an optional part,
a report key, the report's self-seal, an evidence entry.
"""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

from reference.canonical import pretty_json
from reference.errors import RegisterError
from reference.registers import loader, ratify
from reference.registers.model import RegisterPack
from reference.registers.seal import build_report, seal_report
from reference.registers.model import ALL_FIELDS as KNOWN_FIELDS
from reference.registers.validate import fail
from reference.serve import ProtocolHandler

MARKERS = "discourse_markers"


class SchemaErrorWithoutField(ProtocolHandler):
    """REGISTER_SCHEMA_VERSION is raised without a ``field``."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        try:
            return super().validate_pack(pack, expected_id)
        except RegisterError as error:
            if error.code != "REGISTER_SCHEMA_VERSION":
                raise
            raise RegisterError(error.message, field=None, code=error.code) from None


class MissingFieldMessageVague(ProtocolHandler):
    """A missing field is refused with the right code and field but a message naming nothing."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        try:
            return super().validate_pack(pack, expected_id)
        except RegisterError as error:
            if error.code != "REGISTER_MISSING_FIELD":
                raise
            message = "a required field is missing"
            raise RegisterError(message, field=error.field, code=error.code) from None


class MarkersCoercedToStrings(ProtocolHandler):
    """A non-string marker is turned into its string form instead of being refused."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        markers = pack.get(MARKERS)
        if isinstance(markers, dict):
            pack = copy.deepcopy(pack)
            for name, bucket in markers.items():
                if isinstance(bucket, list):
                    pack[MARKERS][name] = [m if isinstance(m, str) else str(m) for m in bucket]
        return super().validate_pack(pack, expected_id)


class NumericIdAccepted(ProtocolHandler):
    """A register_id that is a number is read as its decimal string."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        rid = pack.get("register_id")
        if isinstance(rid, (int, float)) and not isinstance(rid, bool):
            pack = {**pack, "register_id": f"id{rid}".replace(".", "_").replace("-", "_")}
        return super().validate_pack(pack, expected_id)


class UnknownFieldDropped(ProtocolHandler):
    """Unknown top-level fields are dropped instead of refused."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        pack = {k: v for k, v in pack.items() if k in KNOWN_FIELDS}
        return super().validate_pack(pack, expected_id)


class TransitionsRequired(ProtocolHandler):
    """A pack whose discourse_markers leaves out the transitions bucket is refused."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        markers = pack.get(MARKERS)
        if isinstance(markers, dict) and "transitions" not in markers:
            fail(
                "REGISTER_MALFORMED", f"{MARKERS}.transitions is missing", f"{MARKERS}.transitions"
            )
        return super().validate_pack(pack, expected_id)


class LongestIdRefused(ProtocolHandler):
    """Ids of exactly 64 characters are refused: the limit is taken as < 64."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        rid = pack.get("register_id")
        if isinstance(rid, str) and len(rid) == 64:
            fail("REGISTER_INVALID_ID", "register_id is 64 characters or more", "register_id")
        return super().validate_pack(pack, expected_id)


class UnicodeIdAccepted(ProtocolHandler):
    """Id characters are checked with ``str.isalnum``, so non-ASCII letters and digits pass."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        rid = pack.get("register_id")
        if isinstance(rid, str) and any(not c.isascii() and c.isalnum() for c in rid):
            ascii_id = "".join(c if c.isascii() else "u" for c in rid)
            expected = ascii_id if expected_id == rid else expected_id
            parsed = super().validate_pack({**pack, "register_id": ascii_id}, expected)
            return dataclasses.replace(parsed, register_id=rid)
        return super().validate_pack(pack, expected_id)


def _as_int(value: object) -> object:
    return int(value) if isinstance(value, bool) else value


class BoolDepthAccepted(ProtocolHandler):
    """disclosure_domain_count true/false is read as the integer 1/0 (Python's bool is an int)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get("realizer_overrides")
        if not isinstance(overrides, dict):
            return super().validate_pack(pack, expected_id)
        pack = copy.deepcopy(pack)
        entries = [pack["realizer_overrides"]]
        scoped = entries[0].get("per_intent")
        if isinstance(scoped, dict):
            entries += [e for e in scoped.values() if isinstance(e, dict)]
        for entry in entries:
            if "disclosure_domain_count" in entry:
                entry["disclosure_domain_count"] = _as_int(entry["disclosure_domain_count"])
        return super().validate_pack(pack, expected_id)


def _resealed(pack: RegisterPack, path: Path, edit) -> dict[str, Any]:
    """Ratify *pack* at *path* with *edit* applied to the unsealed report, then seal it."""
    ratify.check_gate(pack)
    report = build_report(pack, ratify.ratification_methods(pack), ratify.static_evidence(pack))
    sealed = seal_report(edit(report))
    ratify._write_sealed(path, pack, sealed)
    return sealed


class ReportKeyRenamed(ProtocolHandler):
    """The report names the pack's version ``version`` instead of ``pack_version``."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        pack = ratify._read_for_ratify(path)

        def rename(report: dict[str, Any]) -> dict[str, Any]:
            body = {k: v for k, v in report.items() if k != "pack_version"}
            return {**body, "version": report["pack_version"]}

        return _resealed(pack, path, rename)


class PerIntentKeysOmitted(ProtocolHandler):
    """The ratify evidence leaves out ``per_intent_keys``."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        pack = ratify._read_for_ratify(path)

        def drop(report: dict[str, Any]) -> dict[str, Any]:
            evidence = {k: v for k, v in report["evidence"].items() if k != "per_intent_keys"}
            return {**report, "evidence": evidence}

        return _resealed(pack, path, drop)


class ReportSelfSealUnchecked(ProtocolHandler):
    """Loading never verifies the report's own seal (the check always says yes)."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        register_id = loader.validate_register_id(register_id)
        path = loader.find_pack_file(register_id, search_path)
        pack, raw = loader.read_pack_file(path, expected_id=register_id)
        report_path = loader._require_ratified(pack, path)
        report_raw, report = loader.read_json(
            report_path, code="REGISTER_SEAL_MISMATCH", field="report"
        )
        if report_raw != pretty_json(report).encode("utf-8"):
            fail("REGISTER_SEAL_MISMATCH", "the report is not in normal form", "report")
        if report.get("register_id") != register_id or report.get("verdict") != "ratified":
            fail("REGISTER_SEAL_MISMATCH", "the report names another pack", "report")
        loader._check_seal(pack, report)
        loader._check_untampered(pack, raw, report)
        return pack


class PerIntentShapeUnchecked(ProtocolHandler):
    """A per_intent that is not an object reaches code that assumes one (an internal error)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get("realizer_overrides")
        if isinstance(overrides, dict) and "per_intent" in overrides:
            sorted(overrides["per_intent"].items())
        return super().validate_pack(pack, expected_id)
