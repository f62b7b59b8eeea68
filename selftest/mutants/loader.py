"""Broken register validation, ratification and loading: each class skips or bends one check."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reference.canonical import FloatInHashError, canonical_json, pretty_json
from reference.errors import RegisterError
from reference.registers import UNREGISTERED, PackLoader, Ratifier, loader
from reference.registers.model import BUCKET_NAMES, MAX_MARKER_LEN, RegisterPack
from reference.registers.ratify import is_null_pack, ratify_pack_file
from reference.registers.seal import SEAL_FIELD, report_path_for
from reference.registers.validate import fail, validate_register_id
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from selftest.mutants.pack_edits import (
    DEPTH,
    MARKERS,
    OVERRIDES,
    PER_INTENT,
    scoped_entries,
    with_buckets,
    with_depths,
)

KNOWN_OVERRIDES = (DEPTH, PER_INTENT)


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
        cut = with_buckets(pack, lambda bucket: bucket[:32] if len(bucket) == 33 else bucket)
        return super().validate_pack(cut, expected_id)


def _in_range(value: object) -> object:
    return 3 if type(value) is int else value


class DepthBoundLoose(ProtocolHandler):
    """disclosure_domain_count is checked to be an integer, but its range is not checked."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        return super().validate_pack(with_depths(pack, _in_range), expected_id)


class UnknownKeyAccepted(ProtocolHandler):
    """Override keys outside the allow-list are dropped instead of refused."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get(OVERRIDES)
        if not isinstance(overrides, dict):
            return super().validate_pack(pack, expected_id)
        pack = copy.deepcopy(pack)
        flat = {k: v for k, v in pack[OVERRIDES].items() if k in KNOWN_OVERRIDES}
        for entry in scoped_entries(flat):
            for key in [k for k in entry if k != DEPTH]:
                del entry[key]
        pack[OVERRIDES] = flat
        return super().validate_pack(pack, expected_id)


class NullPackRefused(ProtocolHandler):
    """Validation applies the ratify gate to every null pack, refusing valid empty packs."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        parsed = super().validate_pack(pack, expected_id)
        if is_null_pack(parsed):
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
        return ratify_pack_file(path, evidence_probe=lambda pack: {"run": next(self.runs)})


class GateSkipped(Ratifier):
    """A ratifier that never applies the gate."""

    def check_gate(self, pack: RegisterPack) -> None:
        return None


class EmptyNonNullRatified(ProtocolHandler):
    """Ratification skips the gate, sealing an empty pack that claims a non-standard depth."""

    ratifier = GateSkipped()


class UntamperedUnchecked(PackLoader):
    """A loader that never checks the pack's source hash and normal form."""

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        return None


class TamperNotDetected(ProtocolHandler):
    """Loading skips the source-hash and normal-form checks of the pack file."""

    pack_loader = UntamperedUnchecked()


class SealNotCompared(PackLoader):
    """A loader that never compares the pack's seal with its report's."""

    def check_seal(self, pack: RegisterPack, report: dict[str, Any]) -> None:
        return None


class SealUnchecked(ProtocolHandler):
    """Loading never compares the pack's mastery_report_sha256 with the report's seal."""

    pack_loader = SealNotCompared()


class UnsealedAccepted(PackLoader):
    """A loader that returns a pack without a seal as soon as it has read it."""

    def load(self, register_id: str, search_path: Sequence[Path] = ()) -> RegisterPack:
        path = self.locate(validate_register_id(register_id), search_path)
        pack, _ = self.read_pack(path, register_id)
        return pack if not pack.mastery_report_sha256 else super().load(register_id, search_path)


class UnratifiedLoads(ProtocolHandler):
    """Loading accepts a pack that has no seal and no report."""

    pack_loader = UnsealedAccepted()


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


class SessionShippedPacksFirst(ProtocolHandler):
    """session.open searches the shipped packs before the given files (register.load keeps
    the docs' order), so a session cannot open a user pack with a shipped id."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        if register_id in loader.list_register_ids():
            search_path = ()
        return super().new_runtime(register_id, search_path)


class BrokenUserPackFallsBack(ProtocolHandler):
    """A given pack that fails a check is replaced by the shipped pack of the same id."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        try:
            return super().load_pack(register_id, search_path)
        except RegisterError:
            if register_id not in loader.list_register_ids():
                raise
            return loader.load_register_pack(register_id)


class StemNotCompared(PackLoader):
    """A loader that reads a pack without comparing its register_id with the id asked for."""

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        return super().read_pack(path, None)  # type: ignore[arg-type]


class RenamedPackNotNamed(ProtocolHandler):
    """A ratified pack loaded by another file name is refused by a later check (its
    report's id), not as REGISTER_ID_MISMATCH."""

    pack_loader = StemNotCompared()


class NormalFormCodedMalformed(PackLoader):
    """A loader that calls a pack file out of normal form malformed, not tampered."""

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        try:
            super().check_untampered(pack, raw, report)
        except RegisterError as error:
            if error.field is None:
                raise recoded(error, "REGISTER_TAMPERED", "REGISTER_MALFORMED") from None
            raise


class WhitespaceEditMalformed(ProtocolHandler):
    """A ratified pack with whitespace edited is refused as REGISTER_MALFORMED."""

    pack_loader = NormalFormCodedMalformed()


def fieldless(error: RegisterError) -> RegisterError:
    """*error* with the same code and message and no field."""
    return RegisterError(error.message, field=None, code=error.code)


class NotFoundWithoutField(ProtocolHandler):
    """A pack that is not there is refused as REGISTER_NOT_FOUND without its field."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        try:
            return super().load_pack(register_id, search_path)
        except RegisterError as error:
            if error.code != "REGISTER_NOT_FOUND":
                raise
            raise fieldless(error) from None


class UnratifiedFieldless(PackLoader):
    """A loader whose REGISTER_NOT_RATIFIED carries no field."""

    def require_ratified(self, pack: RegisterPack, path: Path) -> Path:
        try:
            return super().require_ratified(pack, path)
        except RegisterError as error:
            raise fieldless(error) from None


class NotRatifiedWithoutField(ProtocolHandler):
    """An unratified pack is refused as REGISTER_NOT_RATIFIED without its field."""

    pack_loader = UnratifiedFieldless()


class ReportEnoughLoader(PackLoader):
    """A loader that counts a pack as ratified when its report is beside it, seal or not."""

    def require_ratified(self, pack: RegisterPack, path: Path) -> Path:
        sealed = dataclasses.replace(pack, mastery_report_sha256=pack.mastery_report_sha256 or "-")
        return super().require_ratified(sealed, path)


class ReportWithoutSealRatified(ProtocolHandler):
    """A pack whose seal was left out but whose report is beside it is checked against the
    report (REGISTER_SEAL_MISMATCH) instead of refused as not ratified."""

    pack_loader = ReportEnoughLoader()


class SealMismatchFieldless(PackLoader):
    """A loader whose pack-seal mismatch carries no field."""

    def check_seal(self, pack: RegisterPack, report: dict[str, Any]) -> None:
        try:
            super().check_seal(pack, report)
        except RegisterError as error:
            raise fieldless(error) from None


class SealMismatchWithoutField(ProtocolHandler):
    """A pack naming another seal than its report's is refused without its field."""

    pack_loader = SealMismatchFieldless()


class ReportRefusalsFieldless(PackLoader):
    """A loader whose report refusals carry no field."""

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        try:
            return super().read_report(report_path, register_id)
        except RegisterError as error:
            raise fieldless(error) from None


class ReportRefusalsWithoutField(ProtocolHandler):
    """A report that fails a check is refused as REGISTER_SEAL_MISMATCH without its field."""

    pack_loader = ReportRefusalsFieldless()


class UnreadableReportIsMalformed(PackLoader):
    """A loader that calls a report that is not JSON malformed."""

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        try:
            json.loads(report_path.read_bytes())
        except ValueError:
            fail("REGISTER_MALFORMED", f"{report_path} is not JSON", "mastery_report")
        return super().read_report(report_path, register_id)


class UnreadableReportMalformed(ProtocolHandler):
    """A report that is not JSON is refused as REGISTER_MALFORMED, not REGISTER_SEAL_MISMATCH."""

    pack_loader = UnreadableReportIsMalformed()


class AnyVerdict(PackLoader):
    """A loader that accepts a sealed report whatever its verdict."""

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        try:
            return super().read_report(report_path, register_id)
        except RegisterError as error:
            if error.field != "mastery_report.verdict":
                raise
            report: dict[str, Any] = json.loads(report_path.read_bytes())
            return report


class VerdictUnchecked(ProtocolHandler):
    """A sealed report whose verdict is not "ratified" is accepted."""

    pack_loader = AnyVerdict()


class UnhashableSealTrusted(PackLoader):
    """A loader that takes a report it cannot hash, or one without a string seal, as sealed."""

    def report_seal_verifies(self, report: dict[str, Any]) -> bool:
        if not isinstance(report.get("seal"), str):
            return True
        try:
            canonical_json({k: v for k, v in report.items() if k != "seal"})
        except FloatInHashError:
            return True
        return super().report_seal_verifies(report)


class UnverifiableSealAccepted(ProtocolHandler):
    """A report without a seal, or holding a float, counts as verified."""

    pack_loader = UnhashableSealTrusted()


class ReadWithoutTamperCheck(PackLoader):
    """A loader that reads a pack as an unratified one would be read, report or not."""

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        return loader.read_pack_file(path, expected_id=register_id)


class UnreadableRatifiedPackMalformed(ProtocolHandler):
    """A ratified pack edited into bad JSON is refused as REGISTER_MALFORMED, not tampered."""

    pack_loader = ReadWithoutTamperCheck()


class TamperedFieldless(PackLoader):
    """A loader whose REGISTER_TAMPERED refusals carry no field."""

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        try:
            return super().read_pack(path, register_id)
        except RegisterError as error:
            if error.code != "REGISTER_TAMPERED":
                raise
            raise fieldless(error) from None

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        try:
            super().check_untampered(pack, raw, report)
        except RegisterError as error:
            raise fieldless(error) from None


class TamperedWithoutField(ProtocolHandler):
    """A tampered pack is refused as REGISTER_TAMPERED without the field of the fault."""

    pack_loader = TamperedFieldless()


class GateFieldless(Ratifier):
    """A ratifier whose gate refusal carries no field."""

    def check_gate(self, pack: RegisterPack) -> None:
        try:
            super().check_gate(pack)
        except RegisterError as error:
            raise fieldless(error) from None


class GateRefusalWithoutField(ProtocolHandler):
    """An empty pack claiming a non-standard depth is refused without naming depth_preference."""

    ratifier = GateFieldless()


class TwoStepWriter(Ratifier):
    """A ratifier that replaces the pack, then the report, each atomically on its own."""

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        sealed = {**pack.as_json(), SEAL_FIELD: report["seal"]}
        for target, document in ((path, sealed), (report_path_for(path), report)):
            staged = target.with_name(f".{target.name}.tmp")
            staged.write_bytes(pretty_json(document).encode("utf-8"))
            os.replace(staged, target)


class RatifyPairInTwoSteps(ProtocolHandler):
    """Ratify in place writes the pack and its report in two steps, not as one pair."""

    ratifier = TwoStepWriter()


class SentinelIdLoadsSentinel(ProtocolHandler):
    """The id ``unregistered`` loads the UNREGISTERED sentinel instead of REGISTER_NOT_FOUND."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        if register_id == UNREGISTERED.register_id:
            return UNREGISTERED
        return super().load_pack(register_id, search_path)


class LenientPaths(Ratifier):
    """A ratifier that takes any file name: no `.json` ending, no id check of the stem."""

    def read(self, path: Path) -> RegisterPack:
        if not path.is_file():
            fail("REGISTER_NOT_FOUND", f"{path}: no such register pack file", "path")
        pack, _ = loader.read_pack_file(path, expected_id=path.stem)
        return pack


class RatifyPathsUnchecked(ProtocolHandler):
    """register.ratify_file ratifies a file of any name: the path's rules are skipped."""

    ratifier = LenientPaths()


class WriteFailureAsMalformed(Ratifier):
    """A ratifier that answers a failed write as REGISTER_MALFORMED."""

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        try:
            super().write_sealed(path, pack, report)
        except RegisterError as error:
            raise recoded(error, "REGISTER_WRITE_FAILED", "REGISTER_MALFORMED") from None


class RatifyWriteMiscoded(ProtocolHandler):
    """register.ratify_file answers a report it could not write with REGISTER_MALFORMED."""

    ratifier = WriteFailureAsMalformed()


class WriteFailureFieldless(Ratifier):
    """A ratifier whose failed write carries no field."""

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        try:
            super().write_sealed(path, pack, report)
        except RegisterError as error:
            raise fieldless(error) from None


class RatifyWriteWithoutField(ProtocolHandler):
    """register.ratify_file refuses a report it could not write without naming path."""

    ratifier = WriteFailureFieldless()


class OverridesDefaulted(ProtocolHandler):
    """A pack without ``realizer_overrides`` is read as one with none, not refused.

    A port that gives the overrides object a default (``{}``), as for an optional member,
    never reports REGISTER_MISSING_FIELD for it; every other field stays required."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        if "realizer_overrides" not in pack:
            pack = {**pack, "realizer_overrides": {}}
        return super().validate_pack(pack, expected_id)


def _as_normal_form(raw: bytes) -> bytes:
    """*raw* written again in normal form when it parses (comparing values, not bytes)."""
    try:
        return pretty_json(json.loads(raw)).encode("utf-8")
    except ValueError:
        return raw


class RelaxedNormalForm(PackLoader):
    """A loader that compares a pack or report file with its normal form only after
    ``relax_pack`` or ``relax_report`` has rewritten the file's bytes."""

    @staticmethod
    def relax_pack(raw: bytes) -> bytes:
        return raw

    @staticmethod
    def relax_report(raw: bytes) -> bytes:
        return raw

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        super().check_untampered(pack, self.relax_pack(raw), report)

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        raw = report_path.read_bytes()
        relaxed = self.relax_report(raw)
        if relaxed == raw:
            return super().read_report(report_path, register_id)
        with tempfile.TemporaryDirectory() as directory:
            copy_path = Path(directory) / report_path.name
            copy_path.write_bytes(relaxed)
            return super().read_report(copy_path, register_id)


class ReportTrimmedLoader(RelaxedNormalForm):
    @staticmethod
    def relax_report(raw: bytes) -> bytes:
        return raw.rstrip() + b"\n"


class ReportByValueLoader(RelaxedNormalForm):
    relax_report = staticmethod(_as_normal_form)


class PackLineEndsLoader(RelaxedNormalForm):
    @staticmethod
    def relax_pack(raw: bytes) -> bytes:
        return raw.replace(b"\r\n", b"\n")


class PackBomDroppedLoader(PackLoader):
    """A loader that reads the pack file as utf-8-sig: a leading byte order mark is
    dropped before the file is parsed and compared with its normal form."""

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        raw = path.read_bytes()
        if not raw.startswith(b"\xef\xbb\xbf"):
            return super().read_pack(path, register_id)
        with tempfile.TemporaryDirectory() as directory:
            copy_path = Path(directory) / path.name
            copy_path.write_bytes(raw[3:])
            return super().read_pack(copy_path, register_id)


class ReportFormTrimmed(ProtocolHandler):
    """The report's normal form is compared with trailing white space trimmed: a report
    without its final newline, or with another after it, loads."""

    pack_loader = ReportTrimmedLoader()


class ReportFormByValue(ProtocolHandler):
    """The report is compared with its normal form as parsed JSON values, so any
    reformatting of it loads."""

    pack_loader = ReportByValueLoader()


class PackFormLineEnds(ProtocolHandler):
    """The pack file is compared with its normal form after CRLF line ends are made LF."""

    pack_loader = PackLineEndsLoader()


class PackFormBomDropped(ProtocolHandler):
    """The pack file is compared with its normal form after a leading byte order mark is
    dropped (read as utf-8-sig)."""

    pack_loader = PackBomDroppedLoader()
