"""Porting mistakes: each class carries one bug a port in another language could make.

The bugs are the ones a careful author in Rust, Go, Zig or JavaScript writes without
noticing: a Unicode-aware character class, a whole-number float taken for an integer,
a narrowing integer cast, a number parsed into a double, keys sorted by UTF-16 code
units, a shipped pack typed in with one value off.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reference.errors import RegisterError
from reference.protocol.envelope import encode_response
from reference.realize import DecorationSeed
from reference.registers.model import RegisterPack
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler

OVERRIDES = "realizer_overrides"
DEPTH = "disclosure_domain_count"
MARKERS = "discourse_markers"


def utf16_key(text: str) -> bytes:
    """The sort key of *text* in UTF-16 code unit order (JavaScript's default sort)."""
    return text.encode("utf-16-be")


class CaseFoldedId(ProtocolHandler):
    """Register ids are matched case-insensitively with Unicode folding, so the Kelvin sign
    (U+212A) and the long s (U+017F) pass as the ASCII letters k and s."""

    @staticmethod
    def _fold(value: object) -> object:
        if not isinstance(value, str):
            return value
        return value.replace("\u212a", "k").replace("\u017f", "s")

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        register_id = pack.get("register_id")
        folded = {**pack, "register_id": self._fold(register_id)}
        expected = self._fold(expected_id)
        parsed = super().validate_pack(folded, expected if isinstance(expected, str) else None)
        if isinstance(register_id, str):
            return dataclasses.replace(parsed, register_id=register_id)
        return parsed


SEMVER_EQUIVALENTS = ("1.0", "1", "v1.0.0", "1.0.0+build", "01.0.0", " 1.0.0", "1.0.0 ")


class SemverSchemaVersion(ProtocolHandler):
    """schema_version is compared as a semantic version: "1.0", "v1.0.0" and " 1.0.0" pass."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        if pack.get("schema_version") in SEMVER_EQUIVALENTS:
            pack = {**pack, "schema_version": "1.0.0"}
        return super().validate_pack(pack, expected_id)


class IntentNamesFolded(ProtocolHandler):
    """per_intent keys are matched case-insensitively ("definition" is DEFINITION)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get(OVERRIDES)
        if isinstance(overrides, dict) and isinstance(overrides.get("per_intent"), dict):
            pack = copy.deepcopy(pack)
            scoped = pack[OVERRIDES]["per_intent"]
            pack[OVERRIDES]["per_intent"] = {
                key.upper() if key.upper() != key else key: value for key, value in scoped.items()
            }
        return super().validate_pack(pack, expected_id)


class VersionMustBeSemver(ProtocolHandler):
    """The pack's own ``version`` must look like MAJOR.MINOR.PATCH; any other string is
    refused, though the format lets it be any string."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        version = pack.get("version")
        if isinstance(version, str):
            parts = version.split(".")
            if len(parts) != 3 or not all(p.isdigit() and p.isascii() for p in parts):
                raise RegisterError(
                    f"version {version!r} is not MAJOR.MINOR.PATCH",
                    field="version",
                    code="REGISTER_MALFORMED",
                )
        return super().validate_pack(pack, expected_id)


def _narrowed(value: object) -> object:
    """*value* stored in an unsigned byte: ``value as u8`` in Rust, ``uint8(value)`` in Go."""
    if type(value) is int and value > 255:
        return value % 256
    return value


class DepthNarrowedToByte(ProtocolHandler):
    """disclosure_domain_count is cast to a byte before its range check: 257 passes as 1."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get(OVERRIDES)
        if not isinstance(overrides, dict):
            return super().validate_pack(pack, expected_id)
        pack = copy.deepcopy(pack)
        entries = [pack[OVERRIDES]]
        scoped = pack[OVERRIDES].get("per_intent")
        if isinstance(scoped, dict):
            entries += [entry for entry in scoped.values() if isinstance(entry, dict)]
        for entry in entries:
            if DEPTH in entry:
                entry[DEPTH] = _narrowed(entry[DEPTH])
        return super().validate_pack(pack, expected_id)

    def resolve_overrides(self, overrides: Mapping[str, Any], intent_name: str) -> int:
        narrowed: dict[str, Any] = {key: _narrowed(value) for key, value in overrides.items()}
        scoped = overrides.get("per_intent")
        if isinstance(scoped, dict):
            narrowed["per_intent"] = {name: _narrowed_entry(e) for name, e in scoped.items()}
        return super().resolve_overrides(narrowed, intent_name)


def _narrowed_entry(entry: object) -> object:
    if not isinstance(entry, dict):
        return entry
    return {key: _narrowed(value) for key, value in entry.items()}


def _as_double(turn_idx: int) -> int:
    """*turn_idx* after a trip through an IEEE-754 double (``JSON.parse`` in JavaScript)."""
    return int(float(turn_idx))


class TurnIndexAsDouble(ProtocolHandler):
    """turn_idx is parsed into a double, so an index above 2**53 seeds with a rounded value."""

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        rounded = DecorationSeed(**{**seed, "turn_idx": _as_double(seed["turn_idx"])})
        return super().select_index(bucket, bucket_name, rounded)


class SeedInCesu8(ProtocolHandler):
    """The seed is encoded as CESU-8 (each UTF-16 surrogate as three bytes), as Java's
    modified UTF-8 does; text inside the BMP is unaffected."""

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        if not bucket:
            return None
        text = f"{seed['trace_hash']}|{seed['register_id']}|{seed['turn_idx']}|{bucket_name}"
        return int.from_bytes(hashlib.sha256(_cesu8(text)).digest()[:8], "big") % len(bucket)


def _cesu8(text: str) -> bytes:
    """*text*'s UTF-16 code units, each written as UTF-8 on its own (surrogates included)."""
    units = text.encode("utf-16-be")
    out = bytearray()
    for i in range(0, len(units), 2):
        out += chr(int.from_bytes(units[i : i + 2], "big")).encode("utf-8", "surrogatepass")
    return bytes(out)


class UnknownNamesSortedUtf16(ProtocolHandler):
    """Unknown pack fields, marker buckets and override keys are reported in UTF-16 code
    unit order, so an astral key is named before a key in U+E000..U+FFFF."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        try:
            return super().validate_pack(pack, expected_id)
        except RegisterError as error:
            raise _renamed(error, pack) from None


def _renamed(error: RegisterError, pack: dict[str, Any]) -> RegisterError:
    """*error* naming the UTF-16-first unknown name of the same place."""
    if error.field is None:
        return error
    parent, _, name = error.field.rpartition(".")
    place: object = pack
    for step in parent.split(".") if parent else ():
        place = place.get(step) if isinstance(place, dict) else None
    if not isinstance(place, dict) or name not in place:
        return error
    known = _known_names(parent)
    if known is None or name in known:
        return error
    unknown = [key for key in place if key not in known]
    first = min(unknown, key=utf16_key)
    if first == name:
        return error
    field = f"{parent}.{first}" if parent else first
    message = error.message.replace(repr(name), repr(first)).replace(name, first)
    return RegisterError(message, field=field, code=error.code)


def _known_names(parent: str) -> frozenset[str] | None:
    from reference.registers.model import ALL_FIELDS, BUCKET_NAMES

    if parent == "":
        return frozenset(ALL_FIELDS)
    if parent == MARKERS:
        return frozenset(BUCKET_NAMES)
    if parent == OVERRIDES:
        return frozenset((DEPTH, "per_intent"))
    if parent.startswith(f"{OVERRIDES}.per_intent."):
        return frozenset((DEPTH,))
    return None


class ArgsSortedUtf16(ProtocolHandler):
    """Unknown argument names are reported in UTF-16 code unit order."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = response.get("error")
        if not isinstance(request, dict) or not isinstance(error, dict):
            return response
        args = request.get("args")
        if error.get("code") != "PROTOCOL_BAD_ARGS" or not isinstance(args, dict):
            return response
        name = error.get("field")
        unknown = [key for key in args if key != name and _is_unknown(response, key)]
        if name not in args or not unknown:
            return response
        first = min([name, *unknown], key=utf16_key)
        return {**response, "error": {**error, "field": first}}


def _is_unknown(response: dict[str, Any], key: str) -> bool:
    return any(ord(c) > 0x7F for c in key)


TERSE = "terse_v1"
CONVIVIAL = "convivial_v1"
NEUTRAL = "default_neutral_v1"


def _replaced(pack: RegisterPack, **changes: Any) -> RegisterPack:
    return dataclasses.replace(pack, **changes)


class ShippedPackHandler(ProtocolHandler):
    """A handler whose shipped packs differ from the ADRs by :meth:`shipped`."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        return pack

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        return self.shipped(super().load_pack(register_id, search_path))

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        runtime.register = self.shipped(runtime.register)
        return runtime


class TerseDepthTwo(ShippedPackHandler):
    """terse_v1 ships with disclosure_domain_count 2 instead of ADR-0070's 1."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        if pack.register_id != TERSE or pack.mastery_report_sha256 == "":
            return pack
        return _replaced(pack, realizer_overrides={DEPTH: 2})


class ConvivialTransitions(ShippedPackHandler):
    """convivial_v1 ships a transitions bucket, which ADR-0071 leaves empty."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        if pack.register_id != CONVIVIAL:
            return pack
        markers = dataclasses.replace(pack.discourse_markers, transitions=("Also,",))
        return _replaced(pack, discourse_markers=markers)


class ConvivialShallow(ShippedPackHandler):
    """convivial_v1 ships disclosure_domain_count 2, where ADR-0071 keeps the 3-domain default."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        if pack.register_id != CONVIVIAL:
            return pack
        return _replaced(pack, realizer_overrides={DEPTH: 2})


class NeutralLabelledTerse(ShippedPackHandler):
    """default_neutral_v1 ships with depth_preference "terse" and an explicit depth of 3."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        if pack.register_id != NEUTRAL:
            return pack
        return _replaced(pack, depth_preference="terse", realizer_overrides={DEPTH: 3})


def _coerced_index(value: object) -> object:
    """*value* as a loosely typed language reads an index: ``true`` is 1, ``2.0`` is 2."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class DecorateIndexCoerced(ProtocolHandler):
    """variation.decorate reads turn_idx loosely (``true`` as 1, ``2.0`` as 2); select is strict."""

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        if "turn_idx" in args:
            args = {**args, "turn_idx": _coerced_index(args["turn_idx"])}
        return super().op_variation_decorate(args)


class FalsyExpectedIdSkipped(ProtocolHandler):
    """An empty expected_id is taken as "no expected id" (``if (expectedId)`` in JavaScript)."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        return super().validate_pack(pack, expected_id or None)


class EmptyRegisterUnregistered(ProtocolHandler):
    """session.open with register_id "" opens an UNREGISTERED session instead of refusing."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        return super().new_runtime(register_id or None, search_path)


class MarkerLengthUtf16(ProtocolHandler):
    """Marker length is counted in UTF-16 code units, so 128 astral characters are too long."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        parsed = super().validate_pack(pack, expected_id)
        for name in ("openings", "transitions", "closings"):
            for index, marker in enumerate(getattr(parsed.discourse_markers, name)):
                if len(marker.encode("utf-16-le")) // 2 > 128:
                    where = f"{MARKERS}.{name}[{index}]"
                    raise RegisterError(
                        f"{where} is too long", field=where, code="REGISTER_MARKER_TOO_LONG"
                    )
        return parsed


class UnknownIntentForgotten(ProtocolHandler):
    """The intent names lack UNKNOWN: a per_intent entry for it is refused."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get(OVERRIDES)
        scoped = overrides.get("per_intent") if isinstance(overrides, dict) else None
        if isinstance(scoped, dict) and "UNKNOWN" in scoped:
            where = f"{OVERRIDES}.per_intent.UNKNOWN"
            raise RegisterError(
                f"{where} is not an intent", field=where, code="REGISTER_UNKNOWN_INTENT"
            )
        return super().validate_pack(pack, expected_id)


class ConvivialHyphen(ShippedPackHandler):
    """convivial_v1's second opening is typed "Right -" with a hyphen, not an em dash."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        if pack.register_id != CONVIVIAL:
            return pack
        markers = dataclasses.replace(pack.discourse_markers, openings=("So,", "Right -", "OK,"))
        return _replaced(pack, discourse_markers=markers)


class ConvivialClosingsReordered(ShippedPackHandler):
    """convivial_v1's closings are in another order (the empty one last)."""

    def shipped(self, pack: RegisterPack) -> RegisterPack:
        if pack.register_id != CONVIVIAL:
            return pack
        closings = (" — does that help?", " — make sense?", "")
        markers = dataclasses.replace(pack.discourse_markers, closings=closings)
        return _replaced(pack, discourse_markers=markers)


class IdEchoedAsDouble(ProtocolHandler):
    """An integer request id is echoed after a trip through a double."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        rid = response.get("id")
        if type(rid) is int:
            return {**response, "id": int(float(rid))}
        return response


class StringIdTrimmed(ProtocolHandler):
    """A string request id is echoed trimmed of white space at both ends (a port that trims
    every string it reads from the envelope)."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        rid = response.get("id")
        if isinstance(rid, str):
            return {**response, "id": rid.strip()}
        return response


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_STRING_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _solidus_escapes_dropped(line: str) -> str:
    """*line* with every ``\\/`` escape inside a JSON string taken out (``\\\\/`` is an
    escaped backslash then a ``/``, and stays)."""

    def drop(string: re.Match[str]) -> str:
        return _STRING_ESCAPE.sub(
            lambda escape: "" if escape.group(1) == "/" else escape.group(0), string.group(0)
        )

    return _JSON_STRING.sub(drop, line)


class SolidusEscapeDropped(ProtocolHandler):
    """The request line's reader decodes the escape ``\\/`` to nothing instead of ``/`` (a
    hand-written JSON reader whose escape table maps ``/`` to the empty string, as a mutant
    of the Node engine's reader did), so the id ``"a\\/b"`` is echoed as ``"ab"``. A client's
    encoder never writes ``\\/``: only a raw line spelled with it shows the loss."""

    def handle_line(self, line: str | bytes) -> str:
        if isinstance(line, bytes):
            text = line.decode("utf-8", "surrogateescape")
            return super().handle_line(
                _solidus_escapes_dropped(text).encode("utf-8", "surrogateescape")
            )
        return super().handle_line(_solidus_escapes_dropped(line))


class SealAsciiEscaped(ProtocolHandler):
    """pack_source_sha256 is computed over JSON with non-ASCII escaped (``ensure_ascii``)."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        import json

        report = super().ratify_pack(path)
        pack = json.loads(path.read_text(encoding="utf-8"))
        pack.pop("mastery_report_sha256", None)
        text = json.dumps(pack, sort_keys=True, separators=(",", ":"))
        report = {**report, "pack_source_sha256": hashlib.sha256(text.encode()).hexdigest()}
        body = {k: v for k, v in report.items() if k != "seal"}
        sealed = json.dumps(body, sort_keys=True, separators=(",", ":"))
        return {**report, "seal": hashlib.sha256(sealed.encode()).hexdigest()}


class SealSeparatorsEscaped(ProtocolHandler):
    """pack_source_sha256 is computed over JSON with U+2028 and U+2029 escaped, as a
    "JavaScript-safe" encoder writes them."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        import json

        def encoded(value: object) -> bytes:
            text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()

        report = super().ratify_pack(path)
        pack = json.loads(path.read_text(encoding="utf-8"))
        pack.pop("mastery_report_sha256", None)
        report = {**report, "pack_source_sha256": hashlib.sha256(encoded(pack)).hexdigest()}
        body = {k: v for k, v in report.items() if k != "seal"}
        return {**report, "seal": hashlib.sha256(encoded(body)).hexdigest()}


__all__ = [
    "ArgsSortedUtf16",
    "CaseFoldedId",
    "ConvivialClosingsReordered",
    "ConvivialHyphen",
    "ConvivialShallow",
    "ConvivialTransitions",
    "DecorateIndexCoerced",
    "DepthNarrowedToByte",
    "EmptyRegisterUnregistered",
    "FalsyExpectedIdSkipped",
    "IdEchoedAsDouble",
    "IntentNamesFolded",
    "MarkerLengthUtf16",
    "NeutralLabelledTerse",
    "SealAsciiEscaped",
    "SealSeparatorsEscaped",
    "SeedInCesu8",
    "SemverSchemaVersion",
    "TerseDepthTwo",
    "TurnIndexAsDouble",
    "UnknownIntentForgotten",
    "UnknownNamesSortedUtf16",
    "VersionMustBeSemver",
]


def _lenient_base64(value: object) -> object:
    """*value* as a forgiving decoder takes it (Node's ``Buffer.from(v, "base64")``, Go's
    URL encoding): white space dropped, URL-safe letters read as standard, padding made up."""
    if not isinstance(value, str):
        return value
    text = "".join(value.split()).replace("-", "+").replace("_", "/").rstrip("=")
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except ValueError:
        return value
    return base64.b64encode(data).decode("ascii")


class LenientBase64(ProtocolHandler):
    """register.load decodes its files leniently: URL-safe letters, white space and missing
    or excess padding are accepted, not refused as invalid base64."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            read = {name: _lenient_base64(value) for name, value in files.items()}
            return super().op_register_load({**args, "files": read})
        return super().op_register_load(args)


_EXPONENT_WHOLE = re.compile(r"(?<=[:,\[])(-?\d+)[eE]\+?(\d+)(?=[,\]}])")
_LOOSE_NUMBER = re.compile(r"(?<=[:,\[])(\+|-)?0+(?=\d)")


def _line_text(line: str | bytes) -> str | None:
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


class ControlCharactersInStrings(ProtocolHandler):
    """The request line's reader lets a raw control character (U+0000 to U+001F) stand in a
    string (Python's ``json.loads(strict=False)``, a hand-written reader without the check):
    a line RFC 8259 refuses is answered as the request it would be."""

    def handle_line(self, line: str | bytes) -> str:
        text = _line_text(line)
        if text is not None and any(ord(char) < 0x20 for char in text.rstrip("\r\n")):
            try:
                json.loads(text)
            except ValueError:
                try:
                    request = json.loads(text, strict=False)
                except ValueError:
                    request = None
                if isinstance(request, dict):
                    return encode_response(self.handle(request))
        return super().handle_line(line)


class ExponentIntegers(ProtocolHandler):
    """A number is an integer when its literal has no ``.``: ``2e0`` and ``20e+0`` pass as
    integers (a port that checks for a decimal point only)."""

    def handle_line(self, line: str | bytes) -> str:
        text = _line_text(line)
        if text is not None:
            line = _EXPONENT_WHOLE.sub(lambda m: str(int(m[1]) * 10 ** int(m[2])), text)
        return super().handle_line(line)


class LooseNumberLiterals(ProtocolHandler):
    """Numbers are read as ``strtol`` reads them: leading zeros and a ``+`` sign pass."""

    def handle_line(self, line: str | bytes) -> str:
        text = _line_text(line)
        if text is not None:
            line = _LOOSE_NUMBER.sub(lambda m: "-" if m[1] == "-" else "", text)
        return super().handle_line(line)


class UpperHexDigests(ProtocolHandler):
    """session.chat writes trace_hash and register_variant_id in upper case hex (``%X``)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        answer = super().chat(runtime, text)
        spelt = {key: answer[key].upper() for key in ("trace_hash", "register_variant_id")}
        return {**answer, **spelt}


_LOWER_ESCAPE = re.compile(r"\\u00([0-9a-f]{2})")


class UpperCaseEscapes(ProtocolHandler):
    """Response lines write control characters as ``\\u001F`` (upper case hex), as some
    encoders do."""

    def handle_line(self, line: str | bytes) -> str:
        answer = super().handle_line(line)
        return _LOWER_ESCAPE.sub(lambda m: "\\u00" + m[1].upper(), answer)


class UpperHexVariantId(ProtocolHandler):
    """session.chat writes register_variant_id in upper case hex."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        answer = super().chat(runtime, text)
        return {**answer, "register_variant_id": answer["register_variant_id"].upper()}


class LineBuffer64K(ProtocolHandler):
    """Request lines are read into a 64 KiB buffer (Go's ``bufio.Scanner`` default): a
    longer line is refused as not JSON."""

    def handle_line(self, line: str | bytes) -> str:
        if len(line) > 64 * 1024:
            return super().handle_line(b"a line past the buffer")
        return super().handle_line(line)


class ChatTurnsFromOne(ProtocolHandler):
    """session.chat reports turn_idx counted from 1 (a turn counter incremented first)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        answer = super().chat(runtime, text)
        return {**answer, "turn_idx": answer["turn_idx"] + 1}
