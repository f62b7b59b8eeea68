"""The suite's own statement of the on-disk state format (docs/state.md).

Used to compute the bytes and identities a conforming engine must produce, and to
build fixtures and crash states, without importing any engine.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conformance.canonical import canonical_json

BASE_SCHEMA_VERSION = 3
"""The current schema version of an engine that does not claim ``state.life``."""

LIFE_SCHEMA_VERSION = 4
"""The current schema version of an engine that claims ``state.life`` (docs/state.md)."""

DELTA_SCHEMA_VERSION = 5
"""The current schema version of an engine that claims ``state.delta`` (docs/state.md
§ Delta generations): it loads delta generations, and its identity hashes line digests."""

CURRENT_SCHEMA_VERSION = BASE_SCHEMA_VERSION
"""The version the suite's own fixtures are written at."""


def schema_of(capabilities: Iterable[str]) -> int:
    """The current schema version of an engine claiming *capabilities*."""
    capabilities = set(capabilities)
    if "state.delta" in capabilities:
        return DELTA_SCHEMA_VERSION
    return LIFE_SCHEMA_VERSION if "state.life" in capabilities else BASE_SCHEMA_VERSION


def manifest_version(generation: Path) -> int:
    """The schema version the manifest of the *generation* directory names."""
    import json

    version = json.loads((generation / "manifest.json").read_bytes())["schema_version"]
    assert isinstance(version, int), f"{generation.name}: schema_version {version!r}"
    return version


PENDING_CAP = 256
"""At most this many proposals are pending in ``proposals.journal`` (docs/state.md § Pending
proposals and backpressure)."""

OPTIONAL_SINCE: dict[str, int] = {"label": 2, "evidence": 3}
"""The schema version that added each additive-optional field (a recognizer's ``label``, a
candidate's ``evidence``)."""


def at_version(record: dict[str, Any], version: int) -> dict[str, Any]:
    """*record* without the optional fields its schema *version* does not know."""
    return {k: v for k, v in record.items() if OPTIONAL_SINCE.get(k, 0) <= version}


OPTIONAL_DEFAULTS: dict[str, dict[str, object]] = {
    "recognizer": {"label": ""},
    "candidate": {"evidence": 0},
}


def normalize(record: dict[str, Any]) -> dict[str, Any]:
    """Drop optional fields that equal their default."""
    defaults = OPTIONAL_DEFAULTS.get(record["kind"], {})
    return {k: v for k, v in record.items() if k not in defaults or v != defaults[k]}


def encode_core(records: Iterable[dict[str, Any]]) -> bytes:
    """core.jsonl: canonical JSON lines sorted by (kind, key), defaults omitted."""
    unique = {(r["kind"], r["key"]): normalize(r) for r in records}
    ordered = sorted(unique, key=lambda k: (k[0].encode(), k[1].encode()))
    return b"".join(canonical_json(unique[k]).encode("utf-8") + b"\n" for k in ordered)


def core_lines(core: bytes) -> list[bytes]:
    """The lines of *core*, each with its ``\\n`` (a last line without one as it is)."""
    parts = core.split(b"\n")
    return [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def identity(schema_version: int, core: bytes) -> str:
    """``sha256(b"core-state/" + version + b"\\n" + core)`` before version 5; from it the
    prefix and the raw SHA-256 of each line of the core (docs/state.md § Identity)."""
    prefix = b"core-state/%d\n" % schema_version
    if schema_version < DELTA_SCHEMA_VERSION:
        return hashlib.sha256(prefix + core).hexdigest()
    digests = b"".join(hashlib.sha256(line).digest() for line in core_lines(core))
    return hashlib.sha256(prefix + digests).hexdigest()


def manifest(schema_version: object, generation: int, turn_count: int, core: bytes) -> bytes:
    """A manifest with a correct checksum (schema_version may be anything, for fixtures)."""
    body: dict[str, object] = {
        "files": {"core.jsonl": hashlib.sha256(core).hexdigest()},
        "generation": generation,
        "identity": identity(schema_version, core) if isinstance(schema_version, int) else "",
        "turn_count": turn_count,
    }
    if schema_version is not None:
        body["schema_version"] = schema_version
    checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    return canonical_json({**body, "checksum": checksum}).encode("utf-8") + b"\n"


def write_generation(
    directory: Path,
    generation: int,
    core: bytes,
    schema_version: object = 3,
    turn_count: int = 0,
    *,
    point: bool = True,
) -> None:
    """Write ``gen-N/`` (and, with *point*, ``CURRENT``) in the normative format."""
    gen = directory / f"gen-{generation:08d}"
    gen.mkdir(parents=True, exist_ok=True)
    (gen / "core.jsonl").write_bytes(core)
    (gen / "manifest.json").write_bytes(manifest(schema_version, generation, turn_count, core))
    if point:
        (directory / "CURRENT").write_bytes(f"gen-{generation:08d}\n".encode())


def frame(payload: dict[str, Any]) -> bytes:
    """One journal line: length and CRC-32 in 8 hex digits each, then the payload."""
    data = canonical_json(payload).encode("utf-8")
    return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"


def journal_lines(data: bytes) -> list[bytes]:
    """The raw lines of a journal file (the last may be torn)."""
    return data.splitlines(keepends=True)
