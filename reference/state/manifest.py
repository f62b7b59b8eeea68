"""The generation manifest: building it, and checking a generation directory against it.

``check_generation`` checks a generation in the order of docs/state.md: the manifest
parses; its schema version (a refusal, never a reason to fall back); its checksum and
listed files (an invalid generation, so the loader falls back). Files are read through
a ``FileOps``, so an unreadable or symlinked file is a refusal, not an invalid generation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.canonical import canonical_bytes, digest, sha256_hex
from reference.state.core import Key, decode_core, encode_core, identity
from reference.state.delta import DeltaDamaged, apply_delta
from reference.state.errors import StateError, symlink_refusal
from reference.state.fsops import FileOps
from reference.state.layout import CORE, DELTA, MANIFEST, gen_name, gen_number
from reference.state.records import CURRENT_SCHEMA_VERSION, Record

DELTA_SINCE = 5
"""The schema version that introduced delta generations."""

_FIELDS = {"checksum", "files", "generation", "identity", "turn_count"}


@dataclass(frozen=True)
class Generation:
    """A valid generation as read from disk."""

    generation: int
    schema_version: int
    turn_count: int
    identity: str
    core: bytes
    base: int | None = None
    """The base generation of a delta generation; None for a full one."""
    records: dict[Key, Record] | None = None
    """A delta generation's records (its base's with the delta applied); None: decode
    ``core``."""


@dataclass(frozen=True)
class Base:
    """The base a delta generation names: its number and the SHA-256 of its core."""

    generation: int
    core: str

    def as_member(self) -> dict[str, object]:
        """The manifest's ``base`` member."""
        return {"core": self.core, "generation": self.generation}


class InvalidGeneration(Exception):
    """A generation that is not valid; the message says why. Internal to the loader."""


def build_manifest(
    generation: int,
    schema_version: int,
    turn_count: int,
    core_bytes: bytes,
    *,
    core_identity: str | None = None,
    delta: tuple[Base, bytes] | None = None,
) -> bytes:
    """The bytes of ``manifest.json`` for a generation: canonical JSON and ``\\n``.
    *core_identity*, when given, is ``identity(schema_version, core_bytes)``, already
    computed. With *delta* (its base and the bytes of ``delta.jsonl``) the manifest is a
    delta generation's, and *core_bytes* is not hashed."""
    if core_identity is None:
        core_identity = identity(schema_version, core_bytes)
    body: dict[str, object] = {
        "files": {CORE: sha256_hex(core_bytes)} if delta is None else {DELTA: sha256_hex(delta[1])},
        "generation": generation,
        "identity": core_identity,
        "schema_version": schema_version,
        "turn_count": turn_count,
    }
    if delta is not None:
        body["base"] = delta[0].as_member()
    return canonical_bytes({**body, "checksum": digest(body)}) + b"\n"


def is_count(value: object) -> bool:
    """Whether *value* is a manifest count (``generation``, ``turn_count``): an integer from
    0 to 2^53 - 1, never a boolean."""
    return type(value) is int and 0 <= value <= 2**53 - 1


def _members_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of *pairs*; ValueError when it names a member twice (not one manifest)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a member named twice")
    return found


def _read_manifest(directory: Path, fs: FileOps) -> dict[str, Any]:
    data = fs.read_file(directory / MANIFEST)
    if data is None:
        raise InvalidGeneration(f"{MANIFEST} missing")
    try:
        manifest = json.loads(data.decode("utf-8"), object_pairs_hook=_members_once)
    except ValueError as exc:
        raise InvalidGeneration(f"{MANIFEST} is not JSON ({exc.__class__.__name__})") from exc
    if not isinstance(manifest, dict) or not _FIELDS.issubset(manifest):
        raise InvalidGeneration(f"{MANIFEST} lacks required fields")
    return manifest


def _check_checksum(manifest: dict[str, Any]) -> None:
    body = {key: value for key, value in manifest.items() if key != "checksum"}
    try:
        expected = digest(body)
    except TypeError as exc:
        raise InvalidGeneration(f"{MANIFEST} holds a float") from exc
    if manifest["checksum"] != expected:
        raise InvalidGeneration(f"{MANIFEST} checksum mismatch")


def plain_file_name(name: str) -> bool:
    """Whether *name* names a file of its own directory: not empty, ``.`` or ``..``, no ``/``."""
    return "/" not in name and name not in ("", ".", "..")


def _check_files(directory: Path, files: object, fs: FileOps, main: str) -> bytes:
    if not isinstance(files, dict) or main not in files:
        raise InvalidGeneration(f"{MANIFEST} does not list {main}")
    contents = {}
    for name, expected in sorted(files.items()):
        if not plain_file_name(name):
            raise InvalidGeneration(f"{MANIFEST} lists a bad file name {name!r}")
        data = fs.read_file(directory / name)
        if data is None:
            raise InvalidGeneration(f"{name} missing")
        contents[name] = data
        if sha256_hex(contents[name]) != expected:
            raise InvalidGeneration(f"{name} does not match its SHA-256")
    return contents[main]


def check_schema_version(manifest: dict[str, Any]) -> int:
    """Return the manifest's loadable schema version or raise the schema refusal."""
    value = manifest.get("schema_version")
    if type(value) is not int or not 1 <= value <= 2**53 - 1:
        shown = repr(value) if "schema_version" in manifest else "missing"
        raise StateError(
            f"schema_version {shown} is not a positive integer",
            field="schema_version",
            code="STATE_SCHEMA_MALFORMED",
        )
    if value > CURRENT_SCHEMA_VERSION:
        raise StateError(
            f"schema_version {value} is newer than {CURRENT_SCHEMA_VERSION}",
            field="schema_version",
            code="STATE_SCHEMA_TOO_NEW",
        )
    return value


def _check_consistent(directory: Path, manifest: dict[str, Any]) -> None:
    generation = manifest["generation"]
    if not is_count(generation) or generation != gen_number(directory.name):
        raise InvalidGeneration(f"{MANIFEST} names another generation")
    if not is_count(manifest["turn_count"]):
        raise InvalidGeneration(f"{MANIFEST} turn_count is not a count")


def read_base(manifest: dict[str, Any], version: int) -> Base | None:
    """The base a manifest names (None: a full generation); raise InvalidGeneration when
    its ``base`` member is not one."""
    if "base" not in manifest:
        return None
    base = manifest["base"]
    if version < DELTA_SINCE:
        raise InvalidGeneration(f"{MANIFEST} names a base at schema {version}")
    if not isinstance(base, dict) or set(base) != {"core", "generation"}:
        raise InvalidGeneration(f"{MANIFEST} base is not an object of core and generation")
    number, core = base["generation"], base["core"]
    if not is_count(number) or number < 1 or not isinstance(core, str):
        raise InvalidGeneration(f"{MANIFEST} base is malformed")
    if not is_count(manifest["generation"]) or number >= manifest["generation"]:
        raise InvalidGeneration(f"{MANIFEST} base is not an earlier generation")
    return Base(number, core)


def check_base(directory: Path, base: Base, fs: FileOps) -> Generation:
    """The full generation *base* names beside *directory*, checked as a delta's base;
    raise InvalidGeneration when it is missing, invalid, a delta, of another schema version
    or its core is not the SHA-256 named."""
    path = directory.parent / gen_name(base.generation)
    kind = fs.entry_kind(path, reading=True)
    if kind == "link":
        raise symlink_refusal(path)
    if kind != "dir":
        raise InvalidGeneration(f"its base {gen_name(base.generation)} does not exist")
    try:
        found = check_generation(path, fs)
    except InvalidGeneration as exc:
        raise InvalidGeneration(f"its base {gen_name(base.generation)} is invalid: {exc}") from exc
    if found.base is not None or found.schema_version < DELTA_SINCE:
        raise InvalidGeneration(f"its base {gen_name(base.generation)} is not a full generation")
    if sha256_hex(found.core) != base.core:
        raise InvalidGeneration(f"its base {gen_name(base.generation)} has another core")
    return found


def delta_records(base: Generation, data: bytes, version: int) -> dict[Key, Record]:
    """The records of a delta generation: its base's with *data* applied; a damaged frame
    makes the generation InvalidGeneration."""
    records = base.records if base.records is not None else decode_core(base.core, version)
    try:
        return apply_delta(records, data, version)
    except DeltaDamaged as exc:
        raise InvalidGeneration(str(exc)) from exc


def check_generation(directory: Path, fs: FileOps | None = None) -> Generation:
    """Read a generation; raise InvalidGeneration (fall back) or StateError (refuse).

    Only proven damage (a missing file, bad JSON, a checksum or consistency mismatch) is
    InvalidGeneration; a file that exists but cannot be read, or a symbolic link, is a
    StateError, never a reason to fall back.
    """
    fs = fs or FileOps(directory)
    manifest = _read_manifest(directory, fs)
    version = check_schema_version(manifest)
    _check_checksum(manifest)
    base = read_base(manifest, version)
    data = _check_files(directory, manifest["files"], fs, CORE if base is None else DELTA)
    _check_consistent(directory, manifest)
    records = None
    if base is not None:
        records = delta_records(check_base(directory, base, fs), data, version)
        data = encode_core(records.values())
    if manifest["identity"] != identity(version, data):
        raise InvalidGeneration(f"{MANIFEST} identity does not match its core")
    return Generation(
        generation=manifest["generation"],
        schema_version=version,
        turn_count=manifest["turn_count"],
        identity=manifest["identity"],
        core=data,
        base=None if base is None else base.generation,
        records=records,
    )
