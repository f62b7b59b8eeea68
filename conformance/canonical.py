"""The suite's canonical JSON (sorted keys, compact separators, UTF-8) and digests.

The suite never imports an engine, so it keeps its own copy of this encoding.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


_SPELT = "\x00\x01number:"
"""Opens the placeholder :func:`wire_form` puts where a non-integer number stood."""
_PLACEHOLDER = re.compile(r'"\\u0000\\u0001number:(\d+)"')


def wire_form(line: str, value: Any) -> str:
    """The response line *line* (parsed as *value*) as docs/protocol.md § Framing says it is
    written: canonical JSON, except that each finite non-integer number keeps the spelling
    *line* gives it (any spelling is allowed there)."""
    wire = canonical_json(value)
    if wire == line or not any(isinstance(x, float) for x in _numbers(value)):
        return wire
    spelt: list[str] = []

    def keep(literal: str) -> str:
        spelt.append(literal)
        return f"{_SPELT}{len(spelt) - 1}"

    held = canonical_json(json.loads(line, parse_float=keep))
    return _PLACEHOLDER.sub(lambda found: spelt[int(found[1])], held)


def _numbers(value: Any) -> Iterator[Any]:
    """Every number (and other scalar) *value* holds, depth first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            yield item


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


LARGEST = 10**MAX_INTEGER_DIGITS
"""The smallest magnitude an integer of more than MAX_INTEGER_DIGITS digits has (a JSON
integer has no leading zero)."""
INFINITIES = (float("inf"), float("-inf"))


def _hooked(text: str) -> Any:
    """*text* parsed with a Python call per number (:func:`_parse_int`, :func:`_parse_float`):
    the refusals of out-of-range numbers, in document order."""
    return json.loads(
        text, parse_constant=_refuse_constant, parse_int=_parse_int, parse_float=_parse_float
    )


def _out_of_range(value: Any) -> bool:
    """Whether parsed *value* holds a number :func:`_hooked` would refuse: an integer of
    more than MAX_INTEGER_DIGITS digits or a float that overflowed to an infinity. Walked
    one level at a time; the default number parsing gives the same values as the hooks
    wherever they accept, so only text holding such a number is parsed again."""
    level = [value] if isinstance(value, dict | list) else []
    while level:
        deeper = []
        for item in level:
            for child in item.values() if type(item) is dict else item:
                kind = type(child)
                if kind is dict or kind is list:
                    deeper.append(child)
                elif kind is int:
                    if child >= LARGEST or child <= -LARGEST:
                        return True
                elif kind is float and child in INFINITIES:
                    return True
        level = deeper
    return False


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
        if not level:
            return False
    return bool(level)


def read_json(data: bytes | str) -> Any:
    """Parse untrusted UTF-8 JSON, or raise :class:`RefusedJSON` with a one-line reason.

    Refuses non-UTF-8 bytes, NaN/Infinity, integers over MAX_INTEGER_DIGITS digits,
    nesting deeper than MAX_DEPTH and strings holding a lone surrogate.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        try:
            value = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError):
            value = _hooked(text)
        if not isinstance(value, dict | list) or _out_of_range(value):
            value = _hooked(text)
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
