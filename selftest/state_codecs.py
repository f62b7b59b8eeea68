"""Broken engines that write a persisted field in another encoding and read it back their
own way, so every protocol answer stays right and only the files are wrong.

Each is the reference with a :class:`CodecFileOps`: every file the store writes passes
through its codec's ``encode`` on the way to disk and ``decode`` on the way back, so the
store, the loader and the journals believe they wrote docs/state.md's bytes (checksums
and identities included). Only a reader of the files that follows docs/state.md, not the
engine, sees the defect: STATE-FORMAT-001 (and, when the engine cannot read the docs'
encoding, STATE-FORMAT-002).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from reference.canonical import canonical_bytes, digest, sha256_hex
from reference.serve import ProtocolHandler
from reference.state import JournalRecovery, StateError, StateStore
from reference.state.core import identity
from reference.state.fsops import FileOps
from reference.state.journal import recover

Transform = Callable[[dict[str, Any]], dict[str, Any]]


class Codec:
    """How one broken engine's bytes differ from docs/state.md's, per file: the identity
    unless a subclass says otherwise. A decode that meets bytes it did not write (a fixture,
    damage) leaves them as they are."""

    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        return record

    def core_in(self, record: dict[str, Any]) -> dict[str, Any]:
        return record

    def manifest_out(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return manifest

    def manifest_in(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return manifest

    def frame_out(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        return header, payload

    def frame_in(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        return header, payload

    def pointer_out(self, data: bytes) -> bytes:
        return data

    def pointer_in(self, data: bytes) -> bytes:
        return data

    # Bytes ------------------------------------------------------------------------------

    def encode(self, name: str, data: bytes) -> bytes:
        return self._code(name, data, out=True)

    def decode(self, name: str, data: bytes) -> bytes:
        try:
            return self._code(name, data, out=False)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            return data

    def _changes(self, *hooks: str) -> bool:
        """Whether this codec replaces any of the *hooks* (a file it leaves alone keeps its
        bytes, damaged ones included)."""
        return any(getattr(type(self), hook) is not getattr(Codec, hook) for hook in hooks)

    def _code(self, name: str, data: bytes, *, out: bool) -> bytes:
        kinds = {
            "core.jsonl": ("core_out", "core_in"),
            "manifest.json": ("manifest_out", "manifest_in"),
            "CURRENT": ("pointer_out", "pointer_in"),
            "CURRENT.tmp": ("pointer_out", "pointer_in"),
        }
        hooks = ("frame_out", "frame_in") if name.endswith(".journal") else kinds.get(name, ())
        if not self._changes(*hooks):
            return data
        if name == "core.jsonl":
            change = self.core_out if out else self.core_in
            records = [change(json.loads(line)) for line in data.splitlines()]
            records.sort(key=lambda r: (r["kind"].encode(), r["key"].encode()))
            return b"".join(_dumps(record) + b"\n" for record in records)
        if name == "manifest.json":
            reseal = self.manifest_out if out else self.manifest_in
            return _dumps(reseal(json.loads(data))) + b"\n"
        if name.endswith(".journal"):
            frame = self.frame_out if out else self.frame_in
            return b"".join(_framed(frame, line) for line in data.splitlines(keepends=True))
        if name in ("CURRENT", "CURRENT.tmp"):
            return self.pointer_out(data) if out else self.pointer_in(data)
        return data


HEADER = re.compile(rb"([0-9a-fA-F]{8} [0-9a-fA-F]{8} )(.*?)(\n?)", re.DOTALL)


def _framed(frame: Callable[[bytes, bytes], tuple[bytes, bytes]], line: bytes) -> bytes:
    match = HEADER.fullmatch(line)
    if match is None:
        return line
    try:
        header, payload = frame(match.group(1), match.group(2))
    except (ValueError, KeyError, TypeError):
        return line
    return header + payload + match.group(3)


def _dumps(value: object) -> bytes:
    """Canonical JSON, floats allowed (a codec may write one)."""
    try:
        return canonical_bytes(value)
    except (TypeError, ValueError):
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8")


class CodecFileOps(FileOps):
    """File operations whose writes are encoded and whose reads are decoded by ``codec``."""

    codec: ClassVar[Codec] = Codec()

    def append_file(self, path: Path, data: bytes) -> None:
        super().append_file(path, self.codec.encode(Path(path).name, data))

    def append_synced(self, path: Path, data: bytes) -> None:
        super().append_synced(path, self.codec.encode(Path(path).name, data))

    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        path = Path(path)
        if path.name == "manifest.json":
            data = self._sealed(path, data, out=True)
        super().write_file(path, self.codec.encode(path.name, data), mode)

    def read_file(self, path: Path, *, reading: bool = True) -> bytes | None:
        path = Path(path)
        data = super().read_file(path, reading=reading)
        if data is None:
            return None
        data = self.codec.decode(path.name, data)
        return self._sealed(path, data, out=False) if path.name == "manifest.json" else data

    def _sealed(self, path: Path, data: bytes, *, out: bool) -> bytes:
        """A manifest whose SHA-256 and identity are over the core as written (*out*), or
        back over the core as this engine reads it, resealed: the engine's manifests hold
        for the bytes it wrote, so only the field the codec changes is wrong."""
        try:
            raw = FileOps.read_file(self, path.parent / "core.jsonl", reading=False)
        except StateError:
            return data
        if raw is None:
            return data
        decoded = self.codec.decode("core.jsonl", raw)
        if raw == decoded:
            return data
        try:
            manifest = json.loads(data)
            version = manifest["schema_version"]
            before, after = (decoded, raw) if out else (raw, decoded)
            if manifest["files"].get("core.jsonl") != sha256_hex(before):
                return data
            body = {k: v for k, v in manifest.items() if k != "checksum"}
            body["files"] = {**body["files"], "core.jsonl": sha256_hex(after)}
            body["identity"] = identity(version, after)
            return canonical_bytes({**body, "checksum": digest(body)}) + b"\n"
        except (ValueError, KeyError, TypeError, AttributeError):
            return data


_STORES: dict[type[Codec], type[StateStore]] = {}


def _store_of(codec_class: type[Codec]) -> type[StateStore]:
    """The store class whose files pass through *codec_class* (one class per codec)."""
    if codec_class in _STORES:
        return _STORES[codec_class]
    codec = codec_class()

    class Ops(CodecFileOps):
        pass

    Ops.codec = codec

    class CodecStore(StateStore):
        @classmethod
        def file_ops(cls, path: Path) -> FileOps:
            return Ops(path)

    _STORES[codec_class] = CodecStore
    return CodecStore


class CodecHandler(ProtocolHandler):
    """The reference, its store's files written through ``codec``."""

    codec: ClassVar[type[Codec]] = Codec

    def store_class(self) -> type[StateStore]:
        return _store_of(self.codec)

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        return recover(path, repair=repair, fs=_store_of(self.codec).file_ops(Path(path).parent))


# The codecs ----------------------------------------------------------------------------


def _swap(bits: str) -> str:
    return bytes.fromhex(bits)[::-1].hex()


class RotorBytesReversed(Codec):
    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        if record.get("kind") == "life":
            return {**record, "rotor": [_swap(b) for b in record["rotor"]]}
        return record

    core_in = core_out


class RotorAsFloats(Codec):
    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        import struct

        if record.get("kind") == "life":
            values = [struct.unpack(">d", bytes.fromhex(b))[0] for b in record["rotor"]]
            return {**record, "rotor": values}
        return record

    def core_in(self, record: dict[str, Any]) -> dict[str, Any]:
        import struct

        if record.get("kind") == "life" and all(isinstance(v, float) for v in record["rotor"]):
            return {**record, "rotor": [struct.pack(">d", v).hex() for v in record["rotor"]]}
        return record


def _shift_turns(record: dict[str, Any], by: int) -> dict[str, Any]:
    if record.get("kind") != "vault":
        return record
    said = [{**s, "turn_idx": s["turn_idx"] + by} for s in record["said"]]
    return {
        **record,
        "first_turn": record["first_turn"] + by,
        "last_turn": record["last_turn"] + by,
        "said": said,
    }


class VaultTurnsFromOne(Codec):
    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        return _shift_turns(record, 1)

    def core_in(self, record: dict[str, Any]) -> dict[str, Any]:
        return _shift_turns(record, -1)


def _low_bits_address(lemma: str) -> str:
    """A lemma's address from the low 10 bits of each digest word (docs: the top 10)."""
    import hashlib
    import struct

    seed = hashlib.sha256(f"vault-point|{lemma}".encode()).digest()
    x = [((int.from_bytes(seed[2 * k : 2 * k + 2], "big") % 1024) - 512) / 512 for k in range(3)]
    half = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / 2
    point = [0.0] * 32
    point[1], point[2], point[4] = x
    point[8], point[16] = half - 0.5, half + 0.5
    return hashlib.sha256(struct.pack(">32d", *point)).hexdigest()


class AddressFromLowBits(Codec):
    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        if record.get("kind") == "vault":
            return {**record, "key": _low_bits_address(record["lemma"])}
        return record

    def core_in(self, record: dict[str, Any]) -> dict[str, Any]:
        from reference.truth.vault import lemma_address

        if record.get("kind") == "vault" and record["key"] == _low_bits_address(record["lemma"]):
            return {**record, "key": lemma_address(record["lemma"])}
        return record


def _resealed(manifest: dict[str, Any]) -> dict[str, Any]:
    from reference.canonical import digest

    body = {k: v for k, v in manifest.items() if k != "checksum"}
    return {**body, "checksum": digest(body)}


class TurnCountPlusOne(Codec):
    def manifest_out(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return _resealed({**manifest, "turn_count": manifest["turn_count"] + 1})

    def manifest_in(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return _resealed({**manifest, "turn_count": manifest["turn_count"] - 1})


class ManifestHexUpper(Codec):
    def manifest_out(self, manifest: dict[str, Any]) -> dict[str, Any]:
        files = {k: v.upper() for k, v in manifest["files"].items()}
        upper = {"checksum": manifest["checksum"].upper(), "identity": manifest["identity"].upper()}
        return {**manifest, **upper, "files": files}

    def manifest_in(self, manifest: dict[str, Any]) -> dict[str, Any]:
        files = {k: v.lower() for k, v in manifest["files"].items()}
        lower = {"checksum": manifest["checksum"].lower(), "identity": manifest["identity"].lower()}
        return {**manifest, **lower, "files": files}


class CrcUpperCase(Codec):
    def frame_out(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        return header.upper(), payload

    def frame_in(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        return header.lower(), payload


class LengthInCodePoints(Codec):
    def frame_out(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        return b"%08x" % len(payload.decode("utf-8")) + header[8:], payload

    def frame_in(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        if int(header[:8], 16) != len(payload.decode("utf-8")):
            return header, payload
        return b"%08x" % len(payload) + header[8:], payload


class NullsOmitted(Codec):
    """Lineage events without their null members (read back as null)."""

    MEMBERS = ("from_version", "parent", "recovered")

    def frame_out(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        event = json.loads(payload)
        if "boot" not in event:
            return header, payload
        return _reframed({k: v for k, v in event.items() if v is not None})

    def frame_in(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        event = json.loads(payload)
        if "boot" not in event:
            return header, payload
        return _reframed({name: None for name in self.MEMBERS} | event)


def _reframed(payload: dict[str, Any]) -> tuple[bytes, bytes]:
    import zlib

    data = canonical_bytes(payload)
    return b"%08x %08x " % (len(data), zlib.crc32(data)), data


class BootsFromZero(Codec):
    """Lineage events numbered from 0 on disk (one added back when read)."""

    def frame_out(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        event = json.loads(payload)
        if "boot" not in event:
            return header, payload
        return _reframed({**event, "boot": event["boot"] - 1})

    def frame_in(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        event = json.loads(payload)
        if "boot" not in event:
            return header, payload
        return _reframed({**event, "boot": event["boot"] + 1})


class ContextAsEmptyString(Codec):
    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        if record.get("kind") == "life" and record["context"] is None:
            return {**record, "context": ""}
        return record

    def core_in(self, record: dict[str, Any]) -> dict[str, Any]:
        if record.get("kind") == "life" and record["context"] == "":
            return {**record, "context": None}
        return record


class PointerUnterminated(Codec):
    def pointer_out(self, data: bytes) -> bytes:
        return data.rstrip(b"\n")

    def pointer_in(self, data: bytes) -> bytes:
        return data if data.endswith(b"\n") or not data.startswith(b"gen-") else data + b"\n"


# The broken engines --------------------------------------------------------------------


class RotorLittleEndian(CodecHandler):
    """The life record's rotor is written as little-endian bit patterns (and read so)."""

    codec = RotorBytesReversed


class RotorFloats(CodecHandler):
    """The life record's rotor is written as JSON floats, not bit patterns (and read so)."""

    codec = RotorAsFloats


class VaultTurnsOneBased(CodecHandler):
    """A vault record's first_turn, last_turn and said turn_idx count from 1 on disk."""

    codec = VaultTurnsFromOne


class LifeContextEmptyString(CodecHandler):
    """The life record's context is an empty string, not null, before any subject (and read
    back so)."""

    codec = ContextAsEmptyString


class ManifestTurnCountOffByOne(CodecHandler):
    """A manifest's turn_count is one more than the turns counted (one less when read)."""

    codec = TurnCountPlusOne


class ManifestUpperHex(CodecHandler):
    """A manifest's checksum, identity and file SHA-256 are written in upper case hex."""

    codec = ManifestHexUpper


class JournalCrcUpperHex(CodecHandler):
    """Journal headers are written in upper case hex (and read in any case)."""

    codec = CrcUpperCase


class JournalLengthInCodePoints(CodecHandler):
    """A journal line's length counts the payload's code points, not its bytes."""

    codec = LengthInCodePoints


class LineageNullsOmitted(CodecHandler):
    """A boot event omits its null members (parent, from_version, recovered)."""

    codec = NullsOmitted


class LineageBootsFromZero(CodecHandler):
    """Boot events are numbered from 0 in lineage.journal (state.open still answers from 1)."""

    codec = BootsFromZero


class PointerWithoutNewline(CodecHandler):
    """CURRENT is written without its newline (and read with or without one)."""

    codec = PointerUnterminated


class VaultAddressLowBits(CodecHandler):
    """A vault record is keyed by an address drawn from the low 10 bits of each digest word."""

    codec = AddressFromLowBits
