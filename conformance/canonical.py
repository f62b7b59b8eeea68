"""The suite's canonical JSON (sorted keys, compact separators, UTF-8) and digests.

The suite never imports an engine, so it keeps its own copy of this encoding.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def digest(value: Any) -> str:
    """SHA-256 hex of the canonical JSON of *value*."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
