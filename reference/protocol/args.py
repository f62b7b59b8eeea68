"""Typed request arguments: each helper returns the value or refuses with PROTOCOL_BAD_ARGS."""

from __future__ import annotations

import contextlib
import os
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from reference.protocol.envelope import MARKER_BUCKETS, REQUIRED_MARKER_BUCKETS, bad_arg
from reference.realize.variation import DecorationSeed

# Arguments -----------------------------------------------------------------------------------


def string_arg(args: Mapping[str, Any], name: str) -> str:
    """The string argument *name*."""
    value = args.get(name)
    if not isinstance(value, str):
        bad_arg(name, f"argument {name!r} must be a string")
    return value


def nullable_string_arg(args: Mapping[str, Any], name: str) -> str | None:
    """The argument *name* as a string or None (absent reads as None)."""
    value = args.get(name)
    if value is not None and not isinstance(value, str):
        bad_arg(name, f"argument {name!r} must be a string or null")
    return value


def object_arg(args: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The JSON object argument *name*."""
    value = args.get(name)
    if not isinstance(value, dict):
        bad_arg(name, f"argument {name!r} must be an object")
    return value


def index_arg(args: Mapping[str, Any], name: str) -> int:
    """The non-negative integer argument *name* (booleans are not integers)."""
    value = args.get(name)
    if type(value) is not int or value < 0:
        bad_arg(name, f"argument {name!r} must be an integer >= 0")
    return value


def string_list(value: object, name: str, where: str) -> list[str]:
    """*value* as a list of strings; *where* names it in the message, *name* in the field."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        bad_arg(name, f"{where} must be a list of strings")
    return value


def markers_arg(args: Mapping[str, Any], name: str) -> dict[str, list[str]]:
    """Marker buckets: ``openings`` and ``closings`` required, ``transitions`` optional."""
    markers = object_arg(args, name)
    for key in sorted(markers):
        if key not in MARKER_BUCKETS:
            bad_arg(name, f"{name}.{key} is not a marker bucket")
    for key in REQUIRED_MARKER_BUCKETS:
        if key not in markers:
            bad_arg(name, f"{name}.{key} is missing")
    return {key: string_list(markers.get(key, []), name, f"{name}.{key}") for key in MARKER_BUCKETS}


def decoration_seed_arg(args: Mapping[str, Any]) -> DecorationSeed:
    """The decoration seed named by ``trace_hash``, ``register_id`` and ``turn_idx``."""
    return DecorationSeed(
        trace_hash=string_arg(args, "trace_hash"),
        register_id=string_arg(args, "register_id"),
        turn_idx=index_arg(args, "turn_idx"),
    )


def intent_arg(args: Mapping[str, Any], name: str) -> str:
    """An ``IntentTag`` member name."""
    from reference.truth.intent import IntentTag

    value = string_arg(args, name)
    if value not in IntentTag.__members__:
        bad_arg(name, f"argument {name!r} is not an IntentTag name")
    return value


def is_plain_file_name(name: str) -> bool:
    """A plain ``*.json`` name: no ``/`` or ``\\``, no NUL or other control character.

    Without a separator a name cannot leave its directory, so ``..`` inside one is
    harmless (a pack whose id ends in ``.`` is ratified as ``<id>.json`` = ``x..json``).
    """
    if "/" in name or "\\" in name:
        return False
    return name.endswith(".json") and not any(unicodedata.category(c) == "Cc" for c in name)


def decode_file(name: str, encoded: object) -> bytes:
    """The bytes of one base64 file value; bad names and bad base64 are PROTOCOL_BAD_ARGS."""
    if not is_plain_file_name(name):
        bad_arg("files", f"file name {name!r} is not a plain *.json name")
    if not isinstance(encoded, str):
        bad_arg("files", f"files[{name!r}] must be a base64 string")
    import base64
    import binascii

    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        bad_arg("files", f"files[{name!r}] is not valid base64")


def files_arg(args: Mapping[str, Any], name: str) -> dict[str, bytes]:
    """A ``{file name: base64}`` object, decoded."""
    files = object_arg(args, name)
    return {key: decode_file(key, value) for key, value in sorted(files.items())}


MEMORY_FS = Path("/dev/shm")


@contextlib.contextmanager
def op_directory(prefix: str) -> Iterator[Path]:
    """A fresh directory that lives for one op, on a memory file system when one is
    writable: nothing in it outlives the op, so its fsyncs need not wait for a disk."""
    import tempfile

    parent = MEMORY_FS if os.access(MEMORY_FS, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix=prefix, dir=parent) as name:
        yield Path(name)


@contextlib.contextmanager
def staged_files(files: Mapping[str, bytes]) -> Iterator[Path]:
    """A fresh temporary directory holding *files*, removed on exit."""
    with op_directory("core-serve-") as directory:
        for name, data in files.items():
            try:
                (directory / name).write_bytes(data)
            except OSError as exc:
                bad_arg("files", f"file {name!r} cannot be written: {exc.strerror or exc}")
        yield directory


def encode_file(path: Path) -> str:
    """The base64 text of a file's bytes."""
    import base64

    return base64.b64encode(path.read_bytes()).decode("ascii")
