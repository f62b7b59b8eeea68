"""The one canonical JSON encoding, and the hashes taken over it.

Canonical JSON is ``json.dumps`` with sorted keys, ``(",", ":")`` separators,
UTF-8 output and no ASCII escaping. Floats are refused: a float may enter a
hash only after :func:`quantize` has turned it into an integer.

hashlib (and the OpenSSL it loads) is imported at the first hash, not with this module:
a server that answers only ``hello`` never hashes.
"""

from __future__ import annotations

import json
import math
from typing import Any

QUANTUM = 10**9
"""Floats enter hashes as integers: ``round(x * QUANTUM)``, ties to even."""

MAX_CANONICAL_INTEGER = 2**53 - 1
"""Canonical JSON's integers lie in ``[-MAX_CANONICAL_INTEGER, MAX_CANONICAL_INTEGER]``."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_WIRE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
"""The encoders, built once: ``json.dumps`` with options builds a new one at every call."""


class FloatInHashError(TypeError):
    """A float reached a canonical encoding; quantize it first."""


_NEVER_FLOAT = frozenset({str, int, bool, type(None)})
"""Exact types that neither are nor hold a float (checked before the isinstance walk)."""


def _holds_float(value: Any) -> bool:
    """Whether a float lies anywhere in *value* (dicts, lists and tuples are walked)."""
    kind = type(value)
    if kind in _NEVER_FLOAT:
        return False
    if kind is dict or (kind is not list and kind is not tuple and isinstance(value, dict)):
        items = value.values()
    elif kind is list or kind is tuple or isinstance(value, (list, tuple)):
        items = value
    else:
        return isinstance(value, float)
    for item in items:  # noqa: SIM110 (a loop, not any(), keeps the hot path free of a generator)
        if type(item) not in _NEVER_FLOAT and _holds_float(item):
            return True
    return False


def _float_path(value: object, path: str = "$") -> str | None:
    """The JSON path of the first float in *value*, or None when it holds none."""
    if isinstance(value, float):
        return path
    if isinstance(value, dict):
        items = ((f"{path}.{key}", item) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((f"{path}[{index}]", item) for index, item in enumerate(value))
    else:
        return None
    for item_path, item in items:
        found = _float_path(item, item_path)
        if found is not None:
            return found
    return None


def _refuse_floats(value: object) -> None:
    """Raise :class:`FloatInHashError` naming the path of the first float in *value*.

    The walk that builds paths runs only once a float has been found.
    """
    if _holds_float(value):
        raise FloatInHashError(f"float at {_float_path(value)}; quantize floats before hashing")


def canonical_json(value: object) -> str:
    """Return the canonical JSON text of *value* (no floats allowed)."""
    _refuse_floats(value)
    return _CANONICAL.encode(value)


def canonical_bytes(value: object) -> bytes:
    """Return the UTF-8 bytes of :func:`canonical_json`."""
    return canonical_json(value).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    """SHA-256 hex digest of bytes, or of a string's UTF-8 bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    import hashlib

    return hashlib.sha256(data).hexdigest()


def digest(value: object) -> str:
    """SHA-256 hex digest of the canonical JSON of *value*."""
    return sha256_hex(canonical_bytes(value))


def quantize(x: float) -> int:
    """Map a finite float to the integer ``round(x * QUANTUM)`` (ties to even)."""
    if not math.isfinite(x):
        raise ValueError(f"cannot quantize non-finite float {x!r}")
    return round(x * QUANTUM)


def pretty_json(value: object) -> str:
    """Stable human-readable JSON used for files on disk (normal form).

    Sorted keys, two-space indent, UTF-8, trailing newline. Files in this form
    can be checked byte for byte against their parsed content.
    """
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def wire_json(value: object) -> str:
    """Canonical JSON that also admits finite floats (written as Python's shortest repr).

    For output only: anything hashed goes through :func:`canonical_json`.
    """
    return _WIRE.encode(value)
