"""Broken engines of the session 47 clause audit of docs/registers.md: each makes one mistake
a port in another language plausibly makes, on a clause no requirement sent an input for
before (marker length and bucket size as the pack holds them; step 9 over the parsed pack;
a report beside a malformed pack, for the loader and for the gate)."""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.canonical import digest
from reference.errors import RegisterError
from reference.registers import PackLoader, Ratifier
from reference.registers.loader import read_pack_file
from reference.registers.model import RegisterPack
from reference.registers.pending import effective_pair
from reference.registers.seal import pack_source_sha256, report_path_for
from reference.registers.validate import fail, parse_pack
from reference.serve import ProtocolHandler

MARKERS = "discourse_markers"
_JOINER = "\u200d"


def _clusters(marker: str) -> int:
    """Roughly the grapheme clusters of *marker*: a combining mark, a joiner, what a joiner
    joins and a Hangul vowel or final jamo extend the cluster before them."""
    count, joined = 0, False
    for char in marker:
        extends = (
            unicodedata.category(char) in ("Mn", "Mc", "Me")
            or char == _JOINER
            or joined
            or "\u1160" <= char <= "\u11ff"
        )
        joined = char == _JOINER
        count += 0 if extends and count else 1
    return count


def _nfc_length(marker: str) -> int:
    return len(unicodedata.normalize("NFC", marker))


def _with_markers(pack: dict[str, Any], edit: Callable[[list[Any]], list[Any]]) -> dict[str, Any]:
    """A copy of *pack* with every bucket that is a list replaced by ``edit(bucket)``."""
    copied = copy.deepcopy(pack)
    markers = copied.get(MARKERS) if isinstance(copied, dict) else None
    if isinstance(markers, dict):
        for name, bucket in markers.items():
            if isinstance(bucket, list):
                markers[name] = edit(bucket)
    return copied


class _MarkerLengthCounted(ProtocolHandler):
    """Markers measured by ``length``, not in code points."""

    @staticmethod
    def length(marker: str) -> int:
        return len(marker)

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        def stand_in(bucket: list[Any]) -> list[Any]:
            return ["x" * self.length(m) if isinstance(m, str) else m for m in bucket]

        return super().validate_pack(_with_markers(pack, stand_in), expected_id)


class MarkerLengthInClusters(_MarkerLengthCounted):
    """A marker's length is counted in grapheme clusters (Swift's ``String.count``, Elixir's
    ``String.length``), so e + U+0301 sixty-five times is 65 characters long."""

    length = staticmethod(_clusters)


class MarkerLengthAfterNfc(_MarkerLengthCounted):
    """A marker's length is counted after NFC normalisation, so e + U+0301 is one character
    and U+0958 is two."""

    length = staticmethod(_nfc_length)


class BucketCountsNonEmptyMarkers(ProtocolHandler):
    """A bucket's size counts only its non-empty markers (an empty one "is no marker"), so
    33 empty strings fit the bound of 32."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        def said(bucket: list[Any]) -> list[Any]:
            return [m for m in bucket if m != ""]

        return super().validate_pack(_with_markers(pack, said), expected_id)


class _FileObjectHashed(PackLoader):
    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        if pack_source_sha256(json.loads(raw)) != report.get("pack_source_sha256"):
            message = f"content of {pack.register_id!r} differs from what was ratified"
            fail("REGISTER_TAMPERED", message, "pack_source_sha256")
        super().check_untampered(pack, raw, report)


class SourceHashOfFileObject(ProtocolHandler):
    """Loading step 9 hashes the object the pack file holds (a ``JSON.parse`` result), not
    the parsed pack, so a bucket left out of the file fails it, field pack_source_sha256."""

    pack_loader = _FileObjectHashed()


class _BesideMeansReadable(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        pack_path, report_path = effective_pair(path)
        try:
            return read_pack_file(pack_path, expected_id=register_id)
        except RegisterError as exc:
            if exc.code != "REGISTER_MALFORMED" or not _parses(report_path):
                raise
            fail("REGISTER_TAMPERED", f"{exc.message}; it was ratified", exc.field)


def _parses(report: Path) -> bool:
    try:
        return isinstance(json.loads(report.read_bytes()), dict)
    except (OSError, ValueError):
        return False


class TamperedOnlyBesideReadableReport(ProtocolHandler):
    """A malformed pack is called tampered only when the report beside it parses as a JSON
    object (the loader reads the report first to decide whether the pack was ratified)."""

    pack_loader = _BesideMeansReadable()


class _GateReadsAsLoader(Ratifier):
    def read(self, path: Path) -> RegisterPack:
        try:
            return super().read(path)
        except RegisterError as exc:
            if exc.code != "REGISTER_MALFORMED" or not report_path_for(path).is_file():
                raise
            fail("REGISTER_TAMPERED", f"{exc.message}; it was ratified", exc.field)


class GateMalformedBesideReportTampered(ProtocolHandler):
    """The ratification gate reads a pack through the loader's step 5, so a malformed pack
    with its old report beside it is refused REGISTER_TAMPERED."""

    ratifier = _GateReadsAsLoader()


class _Duplicate(Exception):
    pass


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


def _refuse_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise _Duplicate
    return dict(pairs)


class _DuplicateReader(PackLoader):
    """Reads a pack file holding a duplicate member with its own rule for it."""

    refuse = False

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        pack_path, report_path = effective_pair(path)
        raw = pack_path.read_bytes()
        try:
            json.loads(raw, object_pairs_hook=_refuse_twice)
        except _Duplicate:
            pass
        except ValueError:
            return super().read_pack(path, register_id)
        else:
            return super().read_pack(path, register_id)
        code = "REGISTER_TAMPERED" if report_path.is_file() else "REGISTER_MALFORMED"
        if self.refuse:
            fail(code, f"{pack_path}: a member is named twice", None)
        data = json.loads(raw, object_pairs_hook=_first_wins)
        try:
            return parse_pack(data, expected_id=register_id), raw
        except RegisterError as exc:
            if exc.code != "REGISTER_MALFORMED":
                raise
            fail(code, exc.message, exc.field)


class _DuplicateRefused(_DuplicateReader):
    refuse = True


class PackMemberFirstOccurrence(ProtocolHandler):
    """A pack file that names a member twice is read with the first occurrence counting
    (a hand-written reader that ignores a key it has seen)."""

    pack_loader = _DuplicateReader()


class PackMemberTwiceRefused(ProtocolHandler):
    """A pack file that names a member twice is refused as malformed (a typed decoder that
    rejects a duplicate field, as Rust's serde derive does)."""

    pack_loader = _DuplicateRefused()


def _same_hex(a: object, b: object) -> bool:
    """Whether two digests are the same hex value (the mistake: case folded)."""
    return isinstance(a, str) and isinstance(b, str) and a.lower() == b.lower()


class _HexValueCompared(PackLoader):
    def report_seal_verifies(self, report: dict[str, Any]) -> bool:
        body = {key: value for key, value in report.items() if key != "seal"}
        try:
            return _same_hex(digest(body), report.get("seal"))
        except (TypeError, ValueError):
            return False

    def check_seal(self, pack: RegisterPack, report: dict[str, Any]) -> None:
        if not _same_hex(pack.mastery_report_sha256, report["seal"]):
            super().check_seal(pack, report)

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        source = report.get("pack_source_sha256")
        if _same_hex(pack_source_sha256(pack.as_json()), source):
            report = {**report, "pack_source_sha256": pack_source_sha256(pack.as_json())}
        super().check_untampered(pack, raw, report)


class DigestsComparedAsHexValues(ProtocolHandler):
    """The loader compares seals and digests as hex values (decoded, or case folded), so a
    digest spelt in upper case matches its lower-case twin."""

    pack_loader = _HexValueCompared()


_EXPONENT_INTEGER = re.compile(
    rb'("disclosure_domain_count"\s*:\s*)(-?\d+)[eE]\+?(\d+)(?=\s*[,}\]])'
)


def _dotless_as_integers(data: bytes) -> bytes:
    """*data* with every depth written as digits and a non-negative exponent, no ``.``,
    rewritten as the integer it names (the mistake: only a dot marks a fraction)."""

    def whole(match: re.Match[bytes]) -> bytes:
        return match[1] + str(int(match[2]) * 10 ** int(match[3])).encode()

    return _EXPONENT_INTEGER.sub(whole, data)


class _DotlessIntegersRead(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        pack_path, report_path = effective_pair(path)
        raw = pack_path.read_bytes()
        try:
            data = json.loads(_dotless_as_integers(raw))
        except ValueError:
            return super().read_pack(path, register_id)
        try:
            return parse_pack(data, expected_id=register_id), raw
        except RegisterError as exc:
            if exc.code != "REGISTER_MALFORMED" or not report_path.is_file():
                raise
            fail("REGISTER_TAMPERED", exc.message, exc.field)


class ExponentLiteralsAreIntegers(ProtocolHandler):
    """The depth check takes a literal for an integer unless it holds a ``.`` (the literal
    is kept, but only scanned for a dot), so a disclosure_domain_count written 2e0 or 3e+0
    is an integer, in packs, pack files and overrides.resolve (turn_idx is read right)."""

    pack_loader = _DotlessIntegersRead()

    def handle_line(self, line: str | bytes) -> str:
        data = line.encode("utf-8") if isinstance(line, str) else line
        return super().handle_line(_dotless_as_integers(data))
