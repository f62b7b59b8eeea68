"""The one guarded reader of JSON from untrusted bytes (packs, reports, state, protocol lines).

:func:`read_untrusted_file` is the engine CLI's reader of input files (the contract of
docs/conformance.md § Input files: size, encoding, depth), built on :func:`loads_untrusted`.

:func:`loads_untrusted` either returns a plain JSON value or raises :class:`UntrustedJSON`
with a one-line reason; callers turn that reason into their own typed error code. It
refuses, and never lets through to a traceback: bytes that are not UTF-8, text that is
not JSON, ``NaN`` and ``Infinity``, integers longer than :data:`MAX_INTEGER_DIGITS`
digits, numbers too large for a double, nesting deeper than :data:`MAX_DEPTH`, and
strings (or keys) holding a lone surrogate escape such as ``"\\ud800"``.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted (a top-level scalar has depth 0)."""
MAX_INTEGER_DIGITS = 1000
"""Longest integer literal accepted, in digits (a leading minus sign is not counted)."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input file :func:`read_untrusted_file` accepts, in bytes."""

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_OPENERS = ("[", "{")
_CONTAINERS = (dict, list)


class UntrustedJSON(ValueError):
    """Bytes or text that are not acceptable JSON; ``reason`` says why in one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _refuse_constant(name: str) -> Any:
    raise UntrustedJSON(f"{name} is not JSON")


def _parse_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise UntrustedJSON(f"an integer has more than {MAX_INTEGER_DIGITS} digits")
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise UntrustedJSON(f"the number {literal[:20]} is too large for a double")
    return value


def _depth(value: Any) -> int:
    """The nesting depth of a parsed JSON value: 0 for a scalar, and one more than its
    deepest item for an array or object."""
    deepest = 0
    stack = [(value, 1)] if type(value) in _CONTAINERS else []
    while stack:
        container, depth = stack.pop()
        if depth > deepest:
            deepest = depth
        for item in container.values() if type(container) is dict else container:
            if type(item) in _CONTAINERS:
                stack.append((item, depth + 1))
    return deepest


def _check_surrogates(text: str, value: Any) -> None:
    if _SURROGATE_ESCAPE.search(text) is None:
        return
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise UntrustedJSON("a string holds a lone surrogate; it is not Unicode text") from None


def loads_untrusted(data: bytes | str) -> Any:
    """Parse *data* (UTF-8 bytes or text) as JSON, or raise :class:`UntrustedJSON`."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UntrustedJSON(f"not valid UTF-8 (byte {exc.start})") from None
    else:
        text = data
    try:
        value = json.loads(
            text, parse_constant=_refuse_constant, parse_int=_parse_int, parse_float=_parse_float
        )
    except UntrustedJSON:
        raise
    except json.JSONDecodeError as exc:
        raise UntrustedJSON(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise UntrustedJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise UntrustedJSON(f"not JSON: {exc}") from None
    if sum(text.count(opener) for opener in _OPENERS) > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise UntrustedJSON(f"nested deeper than {MAX_DEPTH} levels")
    _check_surrogates(text, value)
    return value


def read_untrusted_file(path: str | os.PathLike[str]) -> tuple[bytes, Any]:
    """The bytes of the file at *path* and the JSON value they hold.

    Raises :class:`UntrustedJSON` for a file larger than :data:`MAX_FILE_BYTES` or
    bytes :func:`loads_untrusted` refuses, and ``OSError`` when the file cannot be
    read (a path holding a NUL byte is reported as ``OSError`` too).
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except ValueError:
        raise OSError(errno.EINVAL, "the path holds a NUL byte") from None
    if len(data) > MAX_FILE_BYTES:
        raise UntrustedJSON(f"larger than {MAX_FILE_BYTES} bytes")
    return data, loads_untrusted(data)
