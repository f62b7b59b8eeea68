"""Persisted-state porting mistakes: each store class bends one rule of docs/state.md."""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import LoadedState, StateStore, core, loader, manifest, proposals
from reference.state.core import Key, encode_record, sort_key
from reference.state.fsops import FileOps
from reference.state.layout import CURRENT
from reference.state.lineage import BootInfo
from reference.state.mutations import bad
from reference.state.records import normalise, validate_record


class PartialApplyStore(StateStore):
    """Applies a batch one mutation at a time, so those before a refused one stay applied."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        for mutation in mutations:
            super().apply([mutation])


class Utf16KeyLengthStore(StateStore):
    """Counts a record key's length in UTF-16 code units (JavaScript's ``length``)."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        for index, mutation in enumerate(mutations):
            record = mutation.get("record") if isinstance(mutation, dict) else None
            key = record.get("key") if isinstance(record, dict) else None
            if isinstance(key, str) and len(key.encode("utf-16-le")) // 2 > 128:
                raise bad(f"mutations[{index}]: key longer than 128", "key")
        super().apply(mutations)


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be")


class Utf16OrderStore(StateStore):
    """Orders core.jsonl by the UTF-16 code units of (kind, key) instead of their UTF-8 bytes."""

    def encode(self, records: Iterable[dict[str, Any]]) -> bytes:
        rows = sorted(records, key=lambda r: (_utf16(r["kind"]), _utf16(r["key"])))
        return b"".join(encode_record(normalise(r)) for r in rows)


class PartialApply(ProtocolHandler):
    """state.apply keeps the mutations before a malformed one: not all or nothing."""

    def store_class(self) -> type[StateStore]:
        return PartialApplyStore


class Utf16KeyLength(ProtocolHandler):
    """A record key of 128 astral characters is refused as longer than 128."""

    def store_class(self) -> type[StateStore]:
        return Utf16KeyLengthStore


class Utf16KeyOrder(ProtocolHandler):
    """core.jsonl sorts keys by UTF-16 code units: an astral key lands before U+E000."""

    def store_class(self) -> type[StateStore]:
        return Utf16OrderStore


class LineageForgetsRecoveryStore(StateStore):
    """The lineage journal records every boot with ``recovered: null``, even after a fallback."""

    @classmethod
    def record_boot(cls, fs: FileOps, boot: BootInfo) -> None:
        super().record_boot(fs, dataclasses.replace(boot, recovered=None))


class LineageForgetsRecovery(ProtocolHandler):
    """state.open says it recovered, but the lineage event it appends does not."""

    def store_class(self) -> type[StateStore]:
        return LineageForgetsRecoveryStore


class TurnsForgottenStore(StateStore):
    """A reopened store starts its turn count at 0 instead of the checkpoint's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turn_count = 0


class TurnsForgotten(ProtocolHandler):
    """The turn count is not kept across a reopen."""

    def store_class(self) -> type[StateStore]:
        return TurnsForgottenStore


class FreshNullWhenLoaded(ProtocolHandler):
    """state.load answers ``"fresh": null`` for a loaded state (an optional left unset)."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_state_load(args)
        return {**result, "fresh": result["fresh"] or None}


class DirtyAsInteger(ProtocolHandler):
    """state.apply answers ``dirty`` as 1 or 0, not a boolean."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"dirty": int(super().op_state_apply(args)["dirty"])}


_READ_POINTER = loader.read_pointer


def _parsed_pointer(fs: FileOps) -> loader.Pointer:
    """CURRENT as a port that parses the number reads it: ``gen-`` in any case, then
    whatever ``int()`` takes (a sign, spaces, underscores, any script's digits)."""
    found = _READ_POINTER(fs)
    data = fs.read_file(fs.root / CURRENT) or b""
    text = data.decode("utf-8", "replace").strip("\r\n\x00\ufeff ")
    if found.number is not None or text[:4].lower() != "gen-":
        return found
    try:
        number = int(text[4:])
    except ValueError:
        return found
    return dataclasses.replace(found, number=number, why=None)


class ParsedPointerStore(StateStore):
    """Reads the pointer's generation number with ``int()`` instead of matching 8 ASCII digits."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "read_pointer", _parsed_pointer):
            return super().load(fs)


class _AnyCase(str):
    """A hex digest that equals the same digits in any case (a port that compares bytes)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__


def _any_case(function: Callable[..., str]) -> Callable[..., str]:
    return lambda *args: _AnyCase(function(*args))


class AnyCaseDigestStore(StateStore):
    """Compares manifest digests as the bytes they spell: upper case hex matches."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with (
            mock.patch.object(manifest, "digest", _any_case(manifest.digest)),
            mock.patch.object(manifest, "sha256_hex", _any_case(manifest.sha256_hex)),
            mock.patch.object(manifest, "identity", _any_case(manifest.identity)),
        ):
            return super().load(fs)


class ParsedPointer(ProtocolHandler):
    """CURRENT's number is parsed (``int()``): gen-1, gen-+0000001, GEN- and other digits load."""

    def store_class(self) -> type[StateStore]:
        return ParsedPointerStore


class AnyCaseDigest(ProtocolHandler):
    """A manifest's checksum, identity or file SHA-256 in upper case hex still matches."""

    def store_class(self) -> type[StateStore]:
        return AnyCaseDigestStore


def _whole(value: Any) -> Any:
    """*value* as a parser that yields doubles reads it: a whole float is an integer."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class WholeFloatsAsIntegersStore(StateStore):
    """Reads a record's numbers as doubles (``JSON.parse``): ``1.0`` and ``-0.0`` are integers."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        read = []
        for mutation in mutations:
            record = mutation.get("record") if isinstance(mutation, dict) else None
            if isinstance(record, dict):
                mutation = {**mutation, "record": {k: _whole(v) for k, v in record.items()}}
            read.append(mutation)
        super().apply(read)


class PendingCapInclusiveStore(StateStore):
    """Spills only past 257 pending: the cap read as "at most 256 before this one"."""

    def propose(self, proposal: dict[str, Any]) -> dict[str, Any]:
        with mock.patch.object(proposals, "PENDING_CAP", proposals.PENDING_CAP + 1):
            return super().propose(proposal)


class WholeFloatsAsIntegers(ProtocolHandler):
    """A record's integer field written ``1.0`` or ``-0.0`` is stored as an integer."""

    def store_class(self) -> type[StateStore]:
        return WholeFloatsAsIntegersStore


class PendingCapInclusive(ProtocolHandler):
    """The 257th pending proposal is queued; only the 258th spills."""

    def store_class(self) -> type[StateStore]:
        return PendingCapInclusiveStore


def _key_as(mutations: list[dict[str, Any]], read: Callable[[str], str]) -> list[dict[str, Any]]:
    """*mutations* with every put's and delete's key passed through *read*."""
    out = []
    for mutation in mutations:
        if isinstance(mutation, dict):
            record = mutation.get("record")
            if isinstance(record, dict) and isinstance(record.get("key"), str):
                mutation = {**mutation, "record": {**record, "key": read(record["key"])}}
            if isinstance(mutation.get("key"), str):
                mutation = {**mutation, "key": read(mutation["key"])}
        out.append(mutation)
    return out


class NormalisedKeysStore(StateStore):
    """NFC-normalises record keys (a string type that normalises, Swift's or a library's)."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        super().apply(_key_as(mutations, lambda key: unicodedata.normalize("NFC", key)))


class FoldedKeysStore(StateStore):
    """Case-folds and trims record keys (a case-insensitive map)."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        super().apply(_key_as(mutations, lambda key: key.strip().casefold()))


class CStringKeysStore(StateStore):
    """Keeps record keys as C strings: a key ends at its first NUL."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        super().apply(_key_as(mutations, lambda key: key.split("\x00", 1)[0]))


def _in_buffer(key: str) -> str:
    """*key* as a 255-byte buffer holds it with its terminating NUL: its first 254 bytes."""
    return key.encode("utf-8")[:254].decode("utf-8", "ignore")


class BufferKeysStore(StateStore):
    """Keeps record keys in a 255-byte buffer: a key is cut after 254 bytes of UTF-8."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        super().apply(_key_as(mutations, _in_buffer))


class CStringKeys(ProtocolHandler):
    """Record keys end at their first NUL: `r` + NUL + `a` and `r` + NUL + `b` are one record."""

    def store_class(self) -> type[StateStore]:
        return CStringKeysStore


class BufferKeys(ProtocolHandler):
    """Record keys are cut after 254 bytes: 127 `é` and a last letter are one record."""

    def store_class(self) -> type[StateStore]:
        return BufferKeysStore


class NormalisedKeys(ProtocolHandler):
    """Record keys are NFC-normalised: `e` + U+0301 is stored as `é`, one record with it."""

    def store_class(self) -> type[StateStore]:
        return NormalisedKeysStore


class FoldedKeys(ProtocolHandler):
    """Record keys are case-folded and trimmed: `K`, `k` and the Kelvin sign are one record."""

    def store_class(self) -> type[StateStore]:
        return FoldedKeysStore


def _int32(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value + 2**31) % 2**32 - 2**31
    return value


class Int32FieldsStore(StateStore):
    """Holds a record's integers in 32 bits (an ``i32`` or ``int32`` field): 2**31 wraps."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        read = []
        for mutation in mutations:
            record = mutation.get("record") if isinstance(mutation, dict) else None
            if isinstance(record, dict):
                mutation = {**mutation, "record": {k: _int32(v) for k, v in record.items()}}
            read.append(mutation)
        super().apply(read)


class Int32Fields(ProtocolHandler):
    """A record's integer fields are 32-bit: a weight of 2**31 is stored as -2**31."""

    def store_class(self) -> type[StateStore]:
        return Int32FieldsStore


def _double(literal: str) -> float | int:
    value = float(literal)
    return int(value) if value.is_integer() else value


def _lenient_core(data: bytes, schema_version: int) -> dict[Key, dict[str, Any]]:
    """core.jsonl as a port reads it with its language's JSON parser alone: any spelling of
    each record, numbers as doubles (``1.0`` and ``1e0`` are 1); order still checked."""
    records: dict[Key, dict[str, Any]] = {}
    previous = None
    if not data.endswith(b"\n"):
        return core.decode_core(data, schema_version)
    for line in data[:-1].split(b"\n"):
        try:
            parsed = json.loads(line, parse_float=_double, parse_int=_double)
        except ValueError:
            return core.decode_core(data, schema_version)
        record = validate_record(parsed, schema_version)
        if previous is not None and sort_key(previous) >= sort_key(record):
            return core.decode_core(data, schema_version)
        records[(record["kind"], record["key"])] = record
        previous = record
    return records


class LenientCoreReaderStore(StateStore):
    """Reads core.jsonl without checking that each line is its record's canonical JSON."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        with mock.patch.object(loader, "decode_core", _lenient_core):
            return super().load(fs)


class LenientCoreReader(ProtocolHandler):
    """A core.jsonl line in any JSON spelling of its record loads (order, spaces, escapes)."""

    def store_class(self) -> type[StateStore]:
        return LenientCoreReaderStore


def _clamped(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return 0
    return value


class NegativeCountsClampedStore(StateStore):
    """A life or vault record's negative count or turn is stored as 0 instead of refused."""

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        read = []
        for mutation in mutations:
            record = mutation.get("record") if isinstance(mutation, dict) else None
            if isinstance(record, dict) and record.get("kind") in ("life", "vault"):
                fixed = {k: _clamped(v) for k, v in record.items()}
                said = fixed.get("said")
                if isinstance(said, list):
                    fixed["said"] = [
                        {k: _clamped(v) for k, v in s.items()} if isinstance(s, dict) else s
                        for s in said
                    ]
                mutation = {**mutation, "record": fixed}
            read.append(mutation)
        super().apply(read)


class NegativeCountsClamped(ProtocolHandler):
    """A life record's turns of -1 (or a vault count, turn) is clamped to 0, not refused."""

    def store_class(self) -> type[StateStore]:
        return NegativeCountsClampedStore
