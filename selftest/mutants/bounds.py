"""Broken bounds: each engine gets one stated limit wrong the way a port typically does
(the unit, the sign, the container kind, which end is inclusive, where in the input)."""

from __future__ import annotations

import decimal
import json
import math
import re
import sys
import zlib
from pathlib import Path
from typing import Any

import reference.truth.grammar as truth_grammar
import reference.truth.intent as truth_intent
import reference.truth.spelling as spelling
import reference.truth.text as truth_text
from reference.protocol.envelope import (
    BAD_JSON,
    ProtocolError,
    encode_response,
    engine_error_response,
)
from reference.registers import PackLoader
from reference.registers.model import RegisterPack
from reference.registers.pending import effective_pair
from reference.registers.validate import fail, parse_pack
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.state import JournalRecovery, StateStore, journal
from reference.truth.vault import Vault, VaultEntry

_NEGATIVE_INTEGER = re.compile(r"-(\d+)(?![\d.eE])")
_FLOAT = re.compile(r"-?\d+(?:\.\d+)?[eE][+-]?\d+|-?\d+\.\d+")


def _bad_json_line(reason: str) -> str:
    return encode_response(engine_error_response(None, ProtocolError(reason, code=BAD_JSON)))


def _text(line: str | bytes) -> str | None:
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _depth(value: Any, kinds: tuple[type, ...]) -> int:
    """Nesting depth counting only containers of *kinds* (the others are walked through)."""
    if isinstance(value, dict):
        inner = max((_depth(v, kinds) for v in value.values()), default=0)
    elif isinstance(value, list):
        inner = max((_depth(v, kinds) for v in value), default=0)
    else:
        return 0
    return inner + (1 if isinstance(value, kinds) else 0)


class MinusCountedAsDigit(ProtocolHandler):
    """A negative integer's minus sign counts toward the 1,000 digits (the literal's length)."""

    def handle_line(self, line: str | bytes) -> str:
        text = _text(line)
        if text is not None and any(len(d) + 1 > 1000 for d in _NEGATIVE_INTEGER.findall(text)):
            return _bad_json_line("an integer has more than 1000 digits")
        return super().handle_line(line)


def _loads_plain(line: str | bytes) -> Any:
    text = _text(line)
    if text is None:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


class ObjectsNotNested(ProtocolHandler):
    """Only arrays count toward the 64 levels: objects nest without limit."""

    def handle_line(self, line: str | bytes) -> str:
        request = _loads_plain(line)
        if not isinstance(request, dict):
            return super().handle_line(line)
        if _depth(request, (list,)) <= 64 < _depth(request, (dict, list)):
            return encode_response(self.handle(request))
        return super().handle_line(line)


class DeepLineInternal(ProtocolHandler):
    """A line nested past the reader's recursion is an internal error (ENGINE_INTERNAL, as a
    recursive reader's stack overflow), not PROTOCOL_BAD_JSON."""

    def handle_line(self, line: str | bytes) -> str:
        text = _text(line)
        if text is not None:
            try:
                json.loads(text)
            except RecursionError:
                refusal = ProtocolError("the reader's stack overflowed", code="ENGINE_INTERNAL")
                return encode_response(engine_error_response(None, refusal))
            except ValueError:
                pass
        return super().handle_line(line)


class BracketsCountedAsLevels(ProtocolHandler):
    """The depth is the number of ``[`` and ``{`` in the line, not the nesting: a line with
    more than 64 containers side by side is refused."""

    def handle_line(self, line: str | bytes) -> str:
        text = _text(line)
        if text is not None and text.count("[") + text.count("{") > 64:
            return _bad_json_line("nested deeper than 64 levels")
        return super().handle_line(line)


class RequestNotALevel(ProtocolHandler):
    """The request object is not counted as a level: 65 levels are read as 64."""

    def handle_line(self, line: str | bytes) -> str:
        request = _loads_plain(line)
        if isinstance(request, dict) and _depth(request, (dict, list)) == 65:
            return encode_response(self.handle(request))
        return super().handle_line(line)


class DepthPerBatchElement(ProtocolHandler):
    """A batch line's depth is checked per element, each from its own object: an element 62
    levels deep inside a line 65 levels deep is answered."""

    def handle_line(self, line: str | bytes) -> str:
        request = _loads_plain(line)
        args = request.get("args") if isinstance(request, dict) else None
        elements = args.get("requests") if isinstance(args, dict) else None
        if (
            isinstance(elements, list)
            and _depth(request, (dict, list)) > 64
            and all(_depth(e, (dict, list)) <= 64 for e in elements)
        ):
            return encode_response(self.handle(request))
        return super().handle_line(line)


class DoubleBoundAt1e308(ProtocolHandler):
    """A number past 1e308 is refused as too large for a double, the largest double too."""

    def handle_line(self, line: str | bytes) -> str:
        text = _text(line)
        if text is not None:
            for literal in _FLOAT.findall(text):
                value = float(literal)
                if math.isfinite(value) and abs(value) > 1e308:
                    return _bad_json_line(f"the number {literal[:20]} is too large for a double")
        return super().handle_line(line)


class DoubleBoundExact(ProtocolHandler):
    """A number is too large when its exact decimal value passes the largest double, even
    where it rounds to that double."""

    def handle_line(self, line: str | bytes) -> str:
        text = _text(line)
        if text is not None:
            for literal in _FLOAT.findall(text):
                if abs(decimal.Decimal(literal)) > decimal.Decimal(sys.float_info.max):
                    return _bad_json_line(f"the number {literal[:20]} is too large for a double")
        return super().handle_line(line)


class IdDigitsUnchecked(ProtocolHandler):
    """The id's digits are kept as text to echo them, so the 1,000-digit bound skips the id."""

    def handle_line(self, line: str | bytes) -> str:
        request = _loads_plain(line)
        if isinstance(request, dict) and type(request.get("id")) is int:
            digits = len(str(abs(request["id"])))
            if digits > 1000:
                rest = dict(request, id=0)
                answered = super().handle_line(json.dumps(rest))
                if '"ok":true' in answered:
                    return encode_response(self.handle(request))
        return super().handle_line(line)


class DeleteKeyUnboundedStore(StateStore):
    """Checks the 128-character bound on a put's key only: a longer delete key is a no-op."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        def long_delete(m: object) -> bool:
            return isinstance(m, dict) and m.get("op") == "delete" and len(str(m.get("key"))) > 128

        super().apply([m for m in mutations if not long_delete(m)])


class DeleteKeyUnbounded(ProtocolHandler):
    """A delete's key of 129 characters is answered as a no-op instead of refused."""

    def store_class(self) -> type[StateStore]:
        return DeleteKeyUnboundedStore


class _Utf16CutVault(Vault):
    def store(
        self, lemma: str, turn_idx: int, claim: str | None = None, text: str | None = None
    ) -> VaultEntry:
        if text is not None:
            text = text.encode("utf-16-le")[:320].decode("utf-16-le", "ignore")
        return super().store(lemma, turn_idx, claim, text)


class _CutAt159Vault(Vault):
    def store(
        self, lemma: str, turn_idx: int, claim: str | None = None, text: str | None = None
    ) -> VaultEntry:
        if text is not None and len(text) >= 160:
            text = text[:159]
        return super().store(lemma, turn_idx, claim, text)


class SaidCutInUtf16Units(ProtocolHandler):
    """A thing said is cut at 160 UTF-16 code units (JavaScript's ``slice``), not code points."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        runtime.truth.vault.__class__ = _Utf16CutVault
        return super().chat(runtime, text)


class SaidCutBefore160(ProtocolHandler):
    """A thing said of 160 characters or more is cut to 159 (the bound read as exclusive)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        runtime.truth.vault.__class__ = _CutAt159Vault
        return super().chat(runtime, text)


class _PlainPackReader(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        raw = effective_pair(path)[0].read_bytes()
        try:
            data = json.loads(raw)
        except ValueError:
            return super().read_pack(path, register_id)
        return parse_pack(data, expected_id=register_id), raw


class PackReadUnguarded(ProtocolHandler):
    """A pack file is read with a plain JSON parser: no digit, double or depth bound."""

    pack_loader = _PlainPackReader()


class _MinusCountingPackReader(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        text = effective_pair(path)[0].read_bytes().decode("utf-8", "replace")
        if any(len(d) + 1 > 1000 for d in _NEGATIVE_INTEGER.findall(text)):
            fail("REGISTER_MALFORMED", f"{path}: an integer has more than 1000 digits", None)
        return super().read_pack(path, register_id)


class PackMinusCounted(ProtocolHandler):
    """A pack file's negative integer counts its minus sign toward the 1,000 digits."""

    pack_loader = _MinusCountingPackReader()


_MULTIVECTOR_ARGS = ("a", "b", "bivector", "versor", "x")


class OneSidedAlgebraBounds(ProtocolHandler):
    """An algebra argument is checked as ``value > bound``, not ``|value| > bound``: a
    coefficient below -1e50 or an angle below -64 is answered."""

    def dispatch(self, request: object) -> dict[str, Any]:
        args = request.get("args") if isinstance(request, dict) else None
        if not (isinstance(args, dict) and str(request.get("op", "")).startswith("algebra.")):
            return super().dispatch(request)
        clamped = dict(args)
        for name in _MULTIVECTOR_ARGS:
            value = args.get(name)
            if isinstance(value, list):
                clamped[name] = [
                    -1e50 if type(c) in (int, float) and c < -1e50 else c for c in value
                ]
        angle = args.get("angle")
        if type(angle) in (int, float) and angle < -64:
            clamped["angle"] = -64.0
        return super().dispatch({**request, "args": clamped})


def _utf16_len(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode("utf-16-le")) // 2
    return len(value)


def _utf8_len(value: Any) -> int:
    return len(value.encode("utf-8")) if isinstance(value, str) else len(value)


class LettersInUtf16Units(ProtocolHandler):
    """Words are measured in UTF-16 code units (JavaScript's ``length``): one astral letter is
    a content word of two letters."""

    measure: Any = staticmethod(_utf16_len)

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        modules = (truth_text, truth_grammar)
        for module in modules:
            module.len = self.measure  # type: ignore[attr-defined]
        truth_intent.forget_readings()
        try:
            return super().chat(runtime, text)
        finally:
            for module in modules:
                del module.len  # type: ignore[attr-defined]
            truth_intent.forget_readings()


class LettersInUtf8Bytes(LettersInUtf16Units):
    """Words are measured in UTF-8 bytes (a byte string's length): ``é`` alone is a content
    word of two letters."""

    measure = staticmethod(_utf8_len)


def _records_mapped(mutations: list[dict[str, Any]], change: Any) -> list[dict[str, Any]]:
    """*mutations* with each put's record passed through *change* (a record to a record)."""
    out = []
    for m in mutations:
        record = m.get("record") if isinstance(m, dict) else None
        out.append({**m, "record": change(record)} if isinstance(record, dict) else m)
    return out


class _SaidKeptFourStore(StateStore):
    def apply(self, mutations: list[dict[str, Any]]) -> None:
        def change(r: dict[str, Any]) -> dict[str, Any]:
            said = r.get("said")
            return {**r, "said": said[:3]} if isinstance(said, list) and len(said) == 4 else r

        super().apply(_records_mapped(mutations, change))


class SaidKeptFour(ProtocolHandler):
    """A vault record of four things said is accepted (the bound read as "fewer than 5")."""

    def store_class(self) -> type[StateStore]:
        return _SaidKeptFourStore


class _VaultKeyAnyCaseStore(StateStore):
    def apply(self, mutations: list[dict[str, Any]]) -> None:
        def change(r: dict[str, Any]) -> dict[str, Any]:
            key = r.get("key")
            return (
                {**r, "key": key.lower()}
                if r.get("kind") == "vault" and isinstance(key, str)
                else r
            )

        super().apply(_records_mapped(mutations, change))


class VaultKeyAnyCase(ProtocolHandler):
    """A vault key's hex digits are read in either case (``int(key, 16)`` accepts both)."""

    def store_class(self) -> type[StateStore]:
        return _VaultKeyAnyCaseStore


class _RotorDigitsUncountedStore(StateStore):
    def apply(self, mutations: list[dict[str, Any]]) -> None:
        def change(r: dict[str, Any]) -> dict[str, Any]:
            rotor = r.get("rotor")
            if not isinstance(rotor, list) or not all(isinstance(p, str) for p in rotor):
                return r
            return {**r, "rotor": [p.lower().rjust(16, "0")[-16:] for p in rotor]}

        super().apply(_records_mapped(mutations, change))


class RotorDigitsUncounted(ProtocolHandler):
    """A bit pattern is read as any hex number (``int(p, 16)``), whatever its digit count."""

    def store_class(self) -> type[StateStore]:
        return _RotorDigitsUncountedStore


def _mend_two_letters(word: str, known: Any) -> str:
    if len(word) < 2 or "'" in word or word in spelling.STOPWORDS or known(word):
        return word
    found = [target for target in spelling.TYPO_TARGETS if spelling.one_edit(word, target)]
    return found[0] if len(found) == 1 else word


class TwoLetterWordsMended(ProtocolHandler):
    """Step 2 mends words of two or more letters (the bound read as "at least 2"): ``wy`` is
    read as ``why``."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = spelling.mend
        spelling.mend = _mend_two_letters
        truth_intent.forget_readings()
        try:
            return super().chat(runtime, text)
        finally:
            spelling.mend = kept
            truth_intent.forget_readings()


_ANY_CASE_HEADER = re.compile(rb"([0-9a-fA-F]{8}) ([0-9a-fA-F]{8}) ")


def _lenient_entry(line: bytes, *, any_case: bool, declared_only: bool) -> dict[str, Any] | None:
    match = (_ANY_CASE_HEADER if any_case else re.compile(rb"([0-9a-f]{8}) ([0-9a-f]{8}) ")).match(
        line
    )
    if match is None:
        return None
    declared = int(match.group(1), 16)
    payload = line[18:]
    if declared_only:
        payload = payload[:declared]
    if len(payload) != declared or zlib.crc32(payload) != int(match.group(2), 16):
        return None
    try:
        value = json.loads(payload.decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _recover_lenient(path: Path, repair: bool, **how: bool) -> JournalRecovery:
    found = journal.recover(path, repair=repair)
    if not found.skipped:
        return found
    lines = Path(path).read_bytes().split(b"\n")
    good, entries, skipped = iter(found.entries), [], []
    for number in range(1, len(found.entries) + len(found.skipped) + 1):
        skipped_line = lines[number - 1] if number in found.skipped else None
        entry = next(good) if skipped_line is None else _lenient_entry(skipped_line, **how)
        if entry is None:
            skipped.append(number)
        else:
            entries.append(entry)
    return JournalRecovery(tuple(entries), tuple(skipped), found.cut_bytes)


class JournalHexAnyCase(ProtocolHandler):
    """A journal line's header is read with ``int(x, 16)``: upper case hex digits pass."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return _recover_lenient(path, repair, any_case=True, declared_only=False)


def _unicode_digit_entry(line: bytes) -> dict[str, Any] | None:
    try:
        length, crc, rest = line.decode("utf-8").split(" ", 2)
        declared, checksum = int(length, 16), int(crc, 16)
    except ValueError:
        return None
    payload = rest.encode()
    if len(payload) != declared or zlib.crc32(payload) != checksum:
        return None
    try:
        value = json.loads(payload)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class JournalHeaderUnicodeDigits(ProtocolHandler):
    """A journal line's header is split on spaces and read with ``int(x, 16)``: digits of any
    script (Arabic-Indic ``١``) pass for hex digits."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        found = journal.recover(path, repair=repair)
        lines = Path(path).read_bytes().split(b"\n")
        good, entries, skipped = iter(found.entries), [], []
        for number in range(1, len(found.entries) + len(found.skipped) + 1):
            bad = number in found.skipped
            entry = _unicode_digit_entry(lines[number - 1]) if bad else next(good)
            if entry is None:
                skipped.append(number)
            else:
                entries.append(entry)
        return JournalRecovery(tuple(entries), tuple(skipped), found.cut_bytes)


class JournalReadsDeclaredLength(ProtocolHandler):
    """A journal line's payload is the declared number of bytes; bytes after it are ignored."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return _recover_lenient(path, repair, any_case=False, declared_only=True)


class _RawTextVault(Vault):
    raw = ""

    def store(
        self, lemma: str, turn_idx: int, claim: str | None = None, text: str | None = None
    ) -> VaultEntry:
        return super().store(lemma, turn_idx, claim, None if text is None else self.raw[:160])


class SaidKeptAsSent(ProtocolHandler):
    """A thing said is the prompt as sent, cut at 160, not its normalised text."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        vault = runtime.truth.vault
        vault.__class__ = _RawTextVault
        assert isinstance(vault, _RawTextVault)
        vault.raw = text
        return super().chat(runtime, text)


def _rotor_with(
    args: dict[str, Any], *, simple: float, null: float, hyperbolic_absolute: bool = False
) -> dict[str, Any] | None:
    """algebra.rotor with its two relative tolerances replaced; None when an argument is
    not one the op would answer (the reference then refuses it as it does)."""
    import numpy as np

    from reference.algebra.multivector import product_grades
    from reference.protocol.algebra_ops import multivector_arg

    bivector, angle = args.get("bivector"), args.get("angle")
    if not isinstance(bivector, list) or type(angle) not in (int, float):
        return None
    try:
        mv = multivector_arg(args, "bivector")
    except ProtocolError:
        return None
    grade2 = np.array([1.0 if bin(m).count("1") == 2 else 0.0 for m in range(32)])
    size = float(np.sum(mv * mv))
    if np.any(mv * (1 - grade2)) or size == 0.0 or abs(angle) > 64:
        return None
    square = product_grades(mv, mv, (0, 4))
    grade4 = np.array([1.0 if bin(m).count("1") == 4 else 0.0 for m in range(32)])
    if float(np.sqrt(np.sum((square * grade4) ** 2))) > simple * size:
        return None
    sigma, half = float(square[0]), 0.5 * float(angle)
    if sigma < -null * size:
        out = mv * (-math.sin(half) / math.sqrt(-sigma))
        out[0] = math.cos(half)
    elif sigma > (null if hyperbolic_absolute else null * size):
        out = mv * (-math.sinh(half) / math.sqrt(sigma))
        out[0] = math.cosh(half)
    else:
        out = mv * -half
        out[0] = 1.0
    return {"multivector": [float(c) + 0.0 for c in out]}


class LooseSimplicityBound(ProtocolHandler):
    """algebra.rotor calls a bivector simple when |<B B>_4| <= 1e-9 |B|², not 1e-10 |B|²."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = _rotor_with(args, simple=1e-9, null=1e-12)
        return super().op_algebra_rotor(args) if answer is None else answer


class WideNullBand(ProtocolHandler):
    """algebra.rotor's null branch covers |σ| <= 1e-11 |B|², not 1e-12 |B|²."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = _rotor_with(args, simple=1e-10, null=1e-11)
        return super().op_algebra_rotor(args) if answer is None else answer


class HyperbolicBandAbsolute(ProtocolHandler):
    """algebra.rotor's hyperbolic branch starts at σ > 1e-12, not 1e-12 |B|² (the elliptic
    side is relative, as the spec says)."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = _rotor_with(args, simple=1e-10, null=1e-12, hyperbolic_absolute=True)
        return super().op_algebra_rotor(args) if answer is None else answer


class NarrowNullBand(ProtocolHandler):
    """algebra.rotor's null branch covers |σ| <= 1e-13 |B|², not 1e-12 |B|²."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = _rotor_with(args, simple=1e-10, null=1e-13)
        return super().op_algebra_rotor(args) if answer is None else answer


class DecorateTurnIndexUnsigned(ProtocolHandler):
    """variation.decorate checks that turn_idx is an integer but not that it is >= 0 (the
    seed then holds its digits with a sign)."""

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        turn_idx = args.get("turn_idx")
        if type(turn_idx) is int and turn_idx < 0:
            return super().op_variation_decorate({**args, "turn_idx": -turn_idx})
        return super().op_variation_decorate(args)
