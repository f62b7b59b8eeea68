"""Turn any counterexample value into plain JSON data, and back for replay.

Scenarios come from Hypothesis strategies and may hold values JSON has no type
for. They are written as tagged objects, stated in ``counterexample.schema.json``:
``{"$bytes": "<base64>"}`` for bytes, ``{"$float": "nan" | "inf" | "-inf"}`` for
non-finite floats, and ``{"$repr": "..."}`` for anything else (text holding a
lone surrogate, sets, objects); tuples become lists and mapping keys strings.
"""

from __future__ import annotations

import base64
import dataclasses
import math
from typing import Any

BYTES_TAG, FLOAT_TAG, REPR_TAG = "$bytes", "$float", "$repr"


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _float(value: float) -> Any:
    if math.isfinite(value):
        return value
    return {FLOAT_TAG: "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}


def to_plain(value: Any) -> Any:
    """*value* as plain JSON data (see the module docstring for the tags)."""
    kind = type(value)
    if kind is str:
        return value if value.isascii() or _is_unicode(value) else {REPR_TAG: repr(value)}
    if kind is dict:
        return {_key(k): to_plain(v) for k, v in value.items()}
    if kind is list:
        return [to_plain(item) for item in value]
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return value if _is_unicode(value) else {REPR_TAG: repr(value)}
    if isinstance(value, bytes | bytearray | memoryview):
        return {BYTES_TAG: base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dict):
        return {_key(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_plain(dataclasses.asdict(value))
    return {REPR_TAG: repr(value)}


def _key(key: Any) -> str:
    if isinstance(key, str) and (key.isascii() or _is_unicode(key)):
        return key
    return repr(key)


def from_plain(value: Any) -> Any:
    """Undo :func:`to_plain` where it can: bytes and non-finite floats come back."""
    if isinstance(value, list):
        return [from_plain(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1 and isinstance(value.get(BYTES_TAG), str):
        return base64.b64decode(value[BYTES_TAG], validate=True)
    if len(value) == 1 and value.get(FLOAT_TAG) in ("nan", "inf", "-inf"):
        return float(value[FLOAT_TAG])
    return {k: from_plain(v) for k, v in value.items()}
