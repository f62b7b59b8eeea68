"""A strict reader of the files of a state directory, written from the words of
docs/state.md alone (§ Directory layout, § The persistent core, § The manifest, § The life,
§ Identity and lineage, § Journals).

Every reader takes the bytes of one file and returns what they hold, or raises
:class:`FormatError` naming the file, the line and the rule the bytes break. Nothing here
asks an engine how to read its own files: an engine that writes a field in another
encoding and reads it back its own way is judged by what it wrote.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.canonical import canonical_json

POINTER = re.compile(rb"gen-([0-9]{8})\n")
"""``CURRENT``: the live generation's name and one ``\\n``."""
GENERATION = re.compile(r"gen-([0-9]{8})")
"""A generation directory: ``gen-`` and its number in 8 decimal digits."""
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
"""A SHA-256 as docs/state.md writes every one: 64 lowercase hex digits."""
BIT_PATTERN = re.compile(r"[0-9a-f]{16}")
"""A binary64 bit pattern: 16 lowercase hex digits, big-endian."""
FRAME = re.compile(rb"([0-9a-f]{8}) ([0-9a-f]{8}) ")
"""A journal line's header: length and CRC-32 in 8 lowercase hex digits each."""

MANIFEST_FIELDS = ("checksum", "files", "generation", "identity", "schema_version", "turn_count")
"""The members of ``manifest.json`` (docs/state.md § The manifest)."""
BOOT_FIELDS = ("boot", "from_version", "identity", "parent", "reason", "recovered", "to_version")
"""The members of a lineage boot event (docs/state.md § Identity and lineage)."""
BOOT_REASONS = ("fresh", "resume", "schema_migration")
ROTOR_SIZE = 32
SAID_KEPT = 3
KEY_CHARS = 128
STATUSES = ("speculative", "coherent", "rejected")


class FormatError(AssertionError):
    """Bytes that are not what docs/state.md says the file holds."""


@dataclass(frozen=True)
class Field:
    """One field of a record kind: its check, the schema version that introduced it, and,
    for an additive-optional field, its default."""

    check: str
    since: int
    optional: bool = False
    default: object = None


def _required(check: str, since: int = 1) -> Field:
    return Field(check, since)


KINDS: dict[str, tuple[int, dict[str, Field]]] = {
    "candidate": (
        1,
        {
            "lemma": _required("str"),
            "score": _required("int"),
            "status": _required("status"),
            "evidence": Field("int", 3, optional=True, default=0),
        },
    ),
    "recognizer": (
        1,
        {
            "pattern": _required("str"),
            "weight": _required("int"),
            "label": Field("str", 2, optional=True, default=""),
        },
    ),
    "session": (1, {"register_id": _required("str?")}),
    "life": (
        4,
        {
            "turns": _required("count", 4),
            "context": _required("str?", 4),
            "rotor": _required("rotor", 4),
        },
    ),
    "vault": (
        4,
        {
            "lemma": _required("str", 4),
            "count": _required("count", 4),
            "first_turn": _required("count", 4),
            "last_turn": _required("count", 4),
            "latest_claim": _required("str?", 4),
            "said": _required("said", 4),
        },
    ),
}
"""docs/state.md § The persistent core's table: per kind, the version that introduced it
and its fields beside ``kind`` and ``key``."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _said_ok(value: object) -> bool:
    if not isinstance(value, list) or len(value) > SAID_KEPT:
        return False
    for item in value:
        if not isinstance(item, dict) or sorted(item) != ["claim", "text", "turn_idx"]:
            return False
        if not (item["claim"] is None or isinstance(item["claim"], str)):
            return False
        if not isinstance(item["text"], str) or not _is_int(item["turn_idx"]):
            return False
        if item["turn_idx"] < 0:
            return False
    return True


CHECKS = {
    "str": lambda v: isinstance(v, str),
    "str?": lambda v: v is None or isinstance(v, str),
    "int": _is_int,
    "count": lambda v: _is_int(v) and v >= 0,
    "status": lambda v: v in STATUSES,
    "rotor": lambda v: (
        isinstance(v, list)
        and len(v) == ROTOR_SIZE
        and all(isinstance(b, str) and BIT_PATTERN.fullmatch(b) for b in v)
    ),
    "said": _said_ok,
}


def _no_float(literal: str) -> Any:
    raise ValueError(f"a number that is not an integer: {literal}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError(f"a member named twice among {names}")
    return dict(pairs)


def canonical_value(data: bytes, what: str) -> Any:
    """The value whose canonical JSON (spec.md § Canonical JSON: sorted keys, no whitespace,
    UTF-8, no floats) is exactly *data*, or FormatError."""
    try:
        value = json.loads(
            data.decode("utf-8"),
            parse_float=_no_float,
            parse_constant=_no_constant,
            object_pairs_hook=_pairs,
        )
    except (UnicodeDecodeError, ValueError) as exc:
        raise FormatError(f"{what}: not canonical JSON ({exc}): {data[:120]!r}") from None
    if canonical_json(value).encode("utf-8") != data:
        raise FormatError(
            f"{what}: {data[:160]!r} is not the canonical JSON of its value "
            f"({canonical_json(value)[:160]!r})"
        )
    return value


def read_pointer(data: bytes) -> int:
    """The generation ``CURRENT`` names: ``gen-`` and 8 decimal digits, then ``\\n``."""
    match = POINTER.fullmatch(data)
    if match is None:
        raise FormatError(f"CURRENT holds {data!r}, not a generation's name and one newline")
    return int(match.group(1))


def generation_number(name: str) -> int | None:
    """The number of a ``gen-NNNNNNNN`` directory name, or None for any other name."""
    match = GENERATION.fullmatch(name)
    return int(match.group(1)) if match else None


def identity(schema_version: int, core: bytes) -> str:
    """docs/state.md § Identity and lineage, computed here from its formulas: over the core's
    bytes before version 5, over the raw SHA-256 of each of its lines from it."""
    prefix = b"core-state/" + str(schema_version).encode("ascii") + b"\n"
    if schema_version < 5:
        return hashlib.sha256(prefix + core).hexdigest()
    parts = core.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return hashlib.sha256(prefix + b"".join(hashlib.sha256(x).digest() for x in lines)).hexdigest()


def read_manifest(data: bytes, what: str = "manifest.json") -> dict[str, Any]:
    """A manifest: canonical JSON and ``\\n``, exactly its six members, each of its type, its
    SHA-256 values in lowercase hex, its checksum the SHA-256 of the canonical JSON of the
    manifest without ``checksum``."""
    if not data.endswith(b"\n"):
        raise FormatError(f"{what} does not end with a newline")
    manifest = canonical_value(data[:-1], what)
    delta = isinstance(manifest, dict) and "base" in manifest
    fields = sorted([*MANIFEST_FIELDS, "base"] if delta else MANIFEST_FIELDS)
    if not isinstance(manifest, dict) or sorted(manifest) != fields:
        members = sorted(manifest) if isinstance(manifest, dict) else manifest
        raise FormatError(f"{what}: members {members}, not {fields}")
    for name in ("generation", "schema_version", "turn_count"):
        if not _is_int(manifest[name]) or manifest[name] < 0:
            raise FormatError(f"{what}: {name} {manifest[name]!r} is not a count")
    for name in ("checksum", "identity"):
        if not isinstance(manifest[name], str) or not SHA256_HEX.fullmatch(manifest[name]):
            raise FormatError(f"{what}: {name} {manifest[name]!r} is not 64 lowercase hex digits")
    if delta:
        _check_base(manifest, what)
    main = "delta.jsonl" if delta else "core.jsonl"
    files = manifest["files"]
    if not isinstance(files, dict) or main not in files:
        raise FormatError(f"{what}: files {files!r} does not list {main}")
    for name, sha in files.items():
        if not isinstance(sha, str) or not SHA256_HEX.fullmatch(sha):
            raise FormatError(f"{what}: the SHA-256 of {name} is {sha!r}, not 64 lowercase hex")
    body = {k: v for k, v in manifest.items() if k != "checksum"}
    want = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    if manifest["checksum"] != want:
        raise FormatError(
            f"{what}: checksum {manifest['checksum']}, the SHA-256 of the canonical JSON of "
            f"the manifest without it is {want}"
        )
    return manifest


def _check_base(manifest: dict[str, Any], what: str) -> None:
    """A delta generation's ``base`` (docs/state.md § Delta generations): schema 5 or later,
    exactly ``core`` (a SHA-256) and ``generation`` (an earlier generation's number)."""
    base = manifest["base"]
    if not _is_int(manifest["schema_version"]) or manifest["schema_version"] < 5:
        raise FormatError(f"{what}: a base at schema version {manifest['schema_version']!r}")
    if not isinstance(base, dict) or sorted(base) != ["core", "generation"]:
        raise FormatError(f"{what}: base {base!r} is not an object of core and generation")
    if not isinstance(base["core"], str) or not SHA256_HEX.fullmatch(base["core"]):
        raise FormatError(f"{what}: base core {base['core']!r} is not 64 lowercase hex digits")
    number = base["generation"]
    if not _is_int(number) or not 1 <= number < manifest["generation"]:
        raise FormatError(f"{what}: base generation {number!r} is not an earlier generation")


def read_delta(
    data: bytes, version: int, base: list[dict[str, Any]], what: str = "delta.jsonl"
) -> list[dict[str, Any]]:
    """The records of a delta generation: *base* (the records of its base's core) with the
    entries of ``delta.jsonl`` applied. Each line a journal frame whose payload is the
    canonical JSON of ``{"op":"put","record":...}`` or ``{"op":"delete","key":...,"kind":...}``,
    in ``(kind, key)`` order, each pair once."""
    records = {(r["kind"], r["key"]): r for r in base}
    previous: tuple[bytes, bytes] | None = None
    for number, entry in enumerate(read_journal(data, what), start=1):
        where = f"{what} entry {number}"
        if sorted(entry) == ["op", "record"] and entry["op"] == "put":
            record = _check_record(entry["record"], version, where)
            pair = (record["kind"], record["key"])
        elif sorted(entry) == ["key", "kind", "op"] and entry["op"] == "delete":
            kind, key = entry["kind"], entry["key"]
            if kind not in KINDS or KINDS[kind][0] > version:
                raise FormatError(f"{where}: deletes kind {kind!r}")
            if not isinstance(key, str) or not 1 <= len(key) <= KEY_CHARS:
                raise FormatError(f"{where}: deletes key {key!r}")
            pair, record = (kind, key), None
        else:
            raise FormatError(f"{where}: {entry!r} is neither a put nor a delete")
        order = (pair[0].encode("utf-8"), pair[1].encode("utf-8"))
        if previous is not None and order <= previous:
            raise FormatError(f"{where}: {pair} is not after the entry before")
        previous = order
        if record is None:
            records.pop(pair, None)
        else:
            records[pair] = record
    ordered = sorted(records, key=lambda k: (k[0].encode("utf-8"), k[1].encode("utf-8")))
    return [records[k] for k in ordered]


def generation_core(path: Path) -> bytes:
    """The full core generation directory *path* holds, read at the schema version its
    manifest names: its ``core.jsonl``, or its base's with its ``delta.jsonl`` applied."""
    manifest = json.loads((path / "manifest.json").read_bytes())
    version = manifest.get("schema_version") if isinstance(manifest, dict) else None
    if not isinstance(version, int) or not _is_int(version):
        raise FormatError(f"{path.name}/manifest.json: schema_version {version!r}")
    return read_generation(path, version)[1]


def live_core(directory: Path) -> bytes:
    """The full core of the generation ``CURRENT`` names in *directory*."""
    name = (directory / "CURRENT").read_text("ascii").strip()
    return generation_core(directory / name)


def bases_named(directory: Path, numbers: list[int]) -> set[int]:
    """The base generations the manifests of generations *numbers* of *directory* name
    (docs/state.md § Delta generations: commit step 6 keeps them); a generation not on disk
    or whose manifest does not parse names none."""
    found = set()
    for number in numbers:
        path = directory / f"gen-{number:08d}" / "manifest.json"
        try:
            manifest = json.loads(path.read_bytes())
        except (OSError, ValueError):
            continue
        base = manifest.get("base") if isinstance(manifest, dict) else None
        if isinstance(base, dict) and _is_int(base.get("generation")):
            found.add(base["generation"])
    return found


def core_of(records: list[dict[str, Any]]) -> bytes:
    """``core.jsonl`` of *records* (already in core order and normalised)."""
    return b"".join(canonical_json(r).encode("utf-8") + b"\n" for r in records)


def read_generation(path: Path, version: int) -> tuple[dict[str, Any], bytes]:
    """The manifest of generation directory *path* and the bytes of the full core it holds:
    its ``core.jsonl``, or for a delta generation its base's core (checked: a full generation
    whose core has the SHA-256 named) with ``delta.jsonl`` applied. Each listed file's
    SHA-256 is checked; the directory holds the manifest and the one file listed."""
    what = f"{path.name}/manifest.json"
    manifest = read_manifest((path / "manifest.json").read_bytes(), what)
    main = "delta.jsonl" if "base" in manifest else "core.jsonl"
    files = {p.name for p in path.iterdir()}
    if files != {main, "manifest.json"}:
        raise FormatError(f"{path.name} holds {sorted(files)}, not {main} and manifest.json")
    data = (path / main).read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    if manifest["files"] != {main: sha}:
        raise FormatError(f"{what}: files {manifest['files']}, {main}'s SHA-256 is {sha}")
    if main == "core.jsonl":
        read_core(data, version)
        return manifest, data
    base = manifest["base"]
    base_path = path.parent / f"gen-{base['generation']:08d}"
    if not base_path.is_dir():
        raise FormatError(f"{what}: its base {base_path.name} does not exist")
    base_manifest, base_core = read_generation(base_path, version)
    if "base" in base_manifest:
        raise FormatError(f"{what}: its base {base_path.name} is a delta generation")
    if hashlib.sha256(base_core).hexdigest() != base["core"]:
        raise FormatError(f"{what}: its base {base_path.name} has another core.jsonl")
    records = read_delta(data, version, read_core(base_core, version), f"{path.name}/{main}")
    return manifest, core_of(records)


def _check_record(record: object, version: int, where: str) -> dict[str, Any]:
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        raise FormatError(f"{where}: {record!r} is not a record with a kind")
    kind = record["kind"]
    if kind not in KINDS or KINDS[kind][0] > version:
        raise FormatError(f"{where}: kind {kind!r} is not a kind of schema version {version}")
    fields = KINDS[kind][1]
    key = record.get("key")
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_CHARS:
        raise FormatError(f"{where}: key {key!r} is not a string of 1 to {KEY_CHARS} characters")
    if kind in ("session", "life") and key != kind:
        raise FormatError(f"{where}: a {kind} record's key is {key!r}, not {kind!r}")
    if kind == "vault" and not SHA256_HEX.fullmatch(key):
        raise FormatError(f"{where}: a vault key {key!r} is not 64 lowercase hex digits")
    known = {"kind", "key", *(n for n, f in fields.items() if f.since <= version)}
    unknown = sorted(set(record) - known)
    if unknown:
        raise FormatError(f"{where}: {kind} members {unknown} are not fields of version {version}")
    for name, field in fields.items():
        if field.since > version:
            continue
        if name not in record:
            if field.optional:
                continue
            raise FormatError(f"{where}: a {kind} record without its required field {name!r}")
        if field.optional and record[name] == field.default:
            raise FormatError(
                f"{where}: {kind}.{name} is written with its default {field.default!r}"
            )
        if not CHECKS[field.check](record[name]):
            raise FormatError(f"{where}: {kind}.{name} {record[name]!r} is not a {field.check}")
    return record


def read_core(data: bytes, version: int) -> list[dict[str, Any]]:
    """The records of ``core.jsonl`` at schema *version*: one canonical JSON line each, ordered
    by the UTF-8 bytes of ``(kind, key)``, each pair once, every field per the table."""
    if data and not data.endswith(b"\n"):
        raise FormatError("core.jsonl does not end with a newline")
    records: list[dict[str, Any]] = []
    previous: tuple[bytes, bytes] | None = None
    for number, line in enumerate(data.split(b"\n")[:-1], start=1):
        where = f"core.jsonl line {number}"
        record = _check_record(canonical_value(line, where), version, where)
        order = (record["kind"].encode("utf-8"), record["key"].encode("utf-8"))
        if previous is not None and order <= previous:
            raise FormatError(
                f"{where}: ({record['kind']}, {record['key']}) is not after the line before"
            )
        previous = order
        records.append(record)
    return records


def double(bits: str) -> float:
    """The binary64 whose big-endian bit pattern is *bits*."""
    value: float = struct.unpack(">d", bytes.fromhex(bits))[0]
    return value


def bits(value: float) -> str:
    """The big-endian bit pattern of the binary64 *value*, in 16 lowercase hex digits."""
    return struct.pack(">d", value).hex()


def read_journal(data: bytes, name: str) -> list[dict[str, Any]]:
    """Every line of a journal written whole: the header's length is the payload's bytes in
    8 lowercase hex digits, its CRC-32 likewise, the payload the canonical JSON of an
    object, then ``\\n``. A journal the suite reads after clean closes has no torn or
    corrupt line, so any is a FormatError here."""
    entries = []
    if data and not data.endswith(b"\n"):
        raise FormatError(f"{name}: the last line has no newline")
    for number, line in enumerate(data.split(b"\n")[:-1], start=1):
        where = f"{name} line {number}"
        match = FRAME.match(line)
        if match is None:
            raise FormatError(
                f"{where}: {line[:40]!r} has no header of 8 and 8 lowercase hex digits"
            )
        payload = line[match.end() :]
        length, crc = int(match.group(1), 16), int(match.group(2), 16)
        if length != len(payload):
            raise FormatError(f"{where}: declares {length} bytes, its payload has {len(payload)}")
        if crc != zlib.crc32(payload):
            raise FormatError(
                f"{where}: CRC-32 {match.group(2)!r}, of the payload {zlib.crc32(payload):08x}"
            )
        value = canonical_value(payload, where)
        if not isinstance(value, dict):
            raise FormatError(f"{where}: the payload {value!r} is not an object")
        entries.append(value)
    return entries


def read_boot(event: dict[str, Any], where: str) -> dict[str, Any]:
    """A boot event: its seven members of their types."""
    if sorted(event) != sorted(BOOT_FIELDS):
        raise FormatError(f"{where}: members {sorted(event)}, not {list(BOOT_FIELDS)}")
    checks: dict[str, Callable[[Any], object]] = {
        "boot": lambda v: _is_int(v) and v >= 1,
        "from_version": lambda v: v is None or (_is_int(v) and v >= 1),
        "to_version": lambda v: _is_int(v) and v >= 1,
        "identity": lambda v: isinstance(v, str) and SHA256_HEX.fullmatch(v),
        "parent": lambda v: v is None or (isinstance(v, str) and SHA256_HEX.fullmatch(v)),
        "reason": lambda v: v in BOOT_REASONS,
        "recovered": lambda v: v is None or (isinstance(v, str) and v),
    }
    for name, check in checks.items():
        if not check(event[name]):
            raise FormatError(f"{where}: {name} {event[name]!r}")
    return event


def vault_address(lemma: str) -> str:
    """docs/trace-hash.md § Vault addresses: the SHA-256 of the lemma's grid point's 32
    coefficients as big-endian binary64, in lowercase hex."""
    seed = hashlib.sha256(f"vault-point|{lemma}".encode()).digest()
    x = [((int.from_bytes(seed[2 * k : 2 * k + 2], "big") >> 6) - 512) / 512 for k in range(3)]
    half = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / 2
    point = [0.0] * ROTOR_SIZE
    point[1], point[2], point[4] = x
    point[8], point[16] = half - 0.5, half + 0.5
    return hashlib.sha256(struct.pack(">32d", *point)).hexdigest()
