"""The suite's canonical JSON (sorted keys, compact separators, UTF-8) and digests.

The suite never imports an engine, so it keeps its own copy of this encoding.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def digest(value: Any) -> str:
    """SHA-256 hex of the canonical JSON of *value*."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


MAX_DEPTH = 64
"""Deepest nesting of arrays and objects the suite accepts from untrusted bytes."""
MAX_INTEGER_DIGITS = 1000
"""Longest integer literal the suite accepts from untrusted bytes, in digits."""


class RefusedJSON(ValueError):
    """Untrusted bytes that are not acceptable JSON; the message says why in one line."""


def _refuse_constant(name: str) -> Any:
    raise RefusedJSON(f"{name} is not JSON")


def _parse_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise RefusedJSON(f"an integer has more than {MAX_INTEGER_DIGITS} digits")
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise RefusedJSON(f"the number {literal[:20]} is too large for a double")
    return value


_OUT_OF_RANGE = re.compile(r"\d{300}|[eE][+-]?0*\d{3}")
"""What any number that :func:`_parse_int` or :func:`_parse_float` refuses must contain (a
run of 300 digits, below :data:`MAX_INTEGER_DIGITS` and any double's overflow, or a
three-digit exponent): text without it is parsed with the default number hooks, which give
the same values without a Python call per number."""


def _too_deep(value: Any) -> bool:
    """Whether a container sits more than MAX_DEPTH levels deep, walked one level at a time
    over containers only."""
    level = [value] if isinstance(value, dict | list) else []
    for _ in range(MAX_DEPTH):
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
    return bool(level)


def read_json(data: bytes | str) -> Any:
    """Parse untrusted UTF-8 JSON, or raise :class:`RefusedJSON` with a one-line reason.

    Refuses non-UTF-8 bytes, NaN/Infinity, integers over MAX_INTEGER_DIGITS digits,
    nesting deeper than MAX_DEPTH and strings holding a lone surrogate.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        if _OUT_OF_RANGE.search(text) is None:
            value = json.loads(text, parse_constant=_refuse_constant)
        else:
            value = json.loads(
                text,
                parse_constant=_refuse_constant,
                parse_int=_parse_int,
                parse_float=_parse_float,
            )
    except RefusedJSON:
        raise
    except UnicodeDecodeError as exc:
        raise RefusedJSON(f"not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise RefusedJSON(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise RefusedJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise RefusedJSON(f"not JSON: {exc}") from None
    if (text.count("[") + text.count("{")) > MAX_DEPTH and _too_deep(value):
        raise RefusedJSON(f"nested deeper than {MAX_DEPTH} levels")
    if "\\u" in text and "\\ud" in text.lower():
        try:
            canonical_json(value).encode("utf-8")
        except (UnicodeEncodeError, ValueError):
            raise RefusedJSON("a string holds a lone surrogate; it is not Unicode text") from None
    return value
