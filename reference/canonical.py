"""The one canonical JSON encoding, and the hashes taken over it.

Canonical JSON is ``json.dumps`` with sorted keys, ``(",", ":")`` separators,
UTF-8 output and no ASCII escaping. Floats are refused: a float may enter a
hash only after :func:`quantize` has turned it into an integer.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

QUANTUM = 10**9
"""Floats enter hashes as integers: ``round(x * QUANTUM)``, ties to even."""


class FloatInHashError(TypeError):
    """A float reached a canonical encoding; quantize it first."""


def _refuse_floats(value: Any, path: str = "$") -> None:
    if isinstance(value, float):
        raise FloatInHashError(f"float at {path}; quantize floats before hashing")
    if isinstance(value, dict):
        for key, item in value.items():
            _refuse_floats(item, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _refuse_floats(item, f"{path}[{index}]")


def canonical_json(value: Any) -> str:
    """Return the canonical JSON text of *value* (no floats allowed)."""
    _refuse_floats(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_bytes(value: Any) -> bytes:
    """Return the UTF-8 bytes of :func:`canonical_json`."""
    return canonical_json(value).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    """SHA-256 hex digest of bytes, or of a string's UTF-8 bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def digest(value: Any) -> str:
    """SHA-256 hex digest of the canonical JSON of *value*."""
    return sha256_hex(canonical_bytes(value))


def quantize(x: float) -> int:
    """Map a finite float to the integer ``round(x * QUANTUM)`` (ties to even)."""
    if not math.isfinite(x):
        raise ValueError(f"cannot quantize non-finite float {x!r}")
    return int(round(x * QUANTUM)) + 0


def pretty_json(value: Any) -> str:
    """Stable human-readable JSON used for files on disk (normal form).

    Sorted keys, two-space indent, UTF-8, trailing newline. Files in this form
    can be checked byte for byte against their parsed content.
    """
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def wire_json(value: Any) -> str:
    """Canonical JSON that also admits finite floats (written as Python's shortest repr).

    For output only: anything hashed goes through :func:`canonical_json`.
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
