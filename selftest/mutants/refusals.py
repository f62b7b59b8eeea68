"""Broken loaders that refuse (or accept) for the right reason but say it wrong.

Each class bends one detail a port could get wrong while every coarse check still
passes: the ``field`` of a refusal, its message, a type coercion, an optional part,
a report key, the report's self-seal, an evidence entry.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from reference.errors import RegisterError
from reference.registers import PackLoader, Ratifier
from reference.registers.model import ALL_FIELDS as KNOWN_FIELDS
from reference.registers.model import RegisterPack
from reference.registers.validate import fail
from reference.serve import ProtocolHandler
from selftest.mutants.pack_edits import MARKERS, with_buckets, with_depths


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
        coerced = with_buckets(pack, lambda bucket: [str(m) for m in bucket])
        return super().validate_pack(coerced, expected_id)


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


class IdTrailingNewlineAccepted(ProtocolHandler):
    """The id's control-character rule is left to the pattern, matched as ``^...$`` with
    ``re.match``: Python's ``$`` also matches before a final newline, so ``ab\n`` passes."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        rid = pack.get("register_id")
        if isinstance(rid, str) and rid.endswith("\n") and rid[:-1]:
            stand_in = rid[:-1]
            expected = stand_in if expected_id == rid else expected_id
            parsed = super().validate_pack({**pack, "register_id": stand_in}, expected)
            return dataclasses.replace(parsed, register_id=rid)
        return super().validate_pack(pack, expected_id)


class IdTrimmed(ProtocolHandler):
    """The id is trimmed of white space before its rules are checked (``trim()``), so a space
    first or last passes; a space inside is still refused by the pattern."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        rid = pack.get("register_id")
        if isinstance(rid, str) and rid.strip() and rid.strip() != rid:
            stand_in = rid.strip()
            expected = stand_in if expected_id == rid else expected_id
            parsed = super().validate_pack({**pack, "register_id": stand_in}, expected)
            return dataclasses.replace(parsed, register_id=rid)
        return super().validate_pack(pack, expected_id)


def _as_int(value: object) -> object:
    return int(value) if isinstance(value, bool) else value


class BoolDepthAccepted(ProtocolHandler):
    """disclosure_domain_count true/false is read as the integer 1/0 (Python's bool is an int)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        return super().validate_pack(with_depths(pack, _as_int), expected_id)


class PackVersionRenamed(Ratifier):
    """A ratifier whose report names the pack's version ``version``."""

    def unsealed_report(self, pack: RegisterPack, evidence: dict[str, Any]) -> dict[str, Any]:
        report = super().unsealed_report(pack, evidence)
        body = {k: v for k, v in report.items() if k != "pack_version"}
        return {**body, "version": report["pack_version"]}


class ReportKeyRenamed(ProtocolHandler):
    """The report names the pack's version ``version`` instead of ``pack_version``."""

    ratifier = PackVersionRenamed()


class PerIntentKeysDropped(Ratifier):
    """A ratifier whose evidence has no ``per_intent_keys``."""

    def evidence(self, pack: RegisterPack) -> dict[str, Any]:
        evidence = super().evidence(pack)
        return {k: v for k, v in evidence.items() if k != "per_intent_keys"}


class PerIntentKeysOmitted(ProtocolHandler):
    """The ratify evidence leaves out ``per_intent_keys``."""

    ratifier = PerIntentKeysDropped()


class SelfSealTrusted(PackLoader):
    """A loader that takes every report's own seal as verified."""

    def report_seal_verifies(self, report: dict[str, Any]) -> bool:
        return True


class ReportSelfSealUnchecked(ProtocolHandler):
    """Loading never verifies the report's own seal (the check always says yes)."""

    pack_loader = SelfSealTrusted()


class PerIntentShapeUnchecked(ProtocolHandler):
    """A per_intent that is not an object reaches code that assumes one (an internal error)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get("realizer_overrides")
        if isinstance(overrides, dict) and "per_intent" in overrides:
            sorted(overrides["per_intent"].items())
        return super().validate_pack(pack, expected_id)
