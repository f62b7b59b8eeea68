"""A member named twice below the request object, read otherwise than the last occurrence
counts (docs/protocol.md § Requests): the request object itself keeps the last one, as
PROTO-JSON-001 checks; each engine parses the line, changes what a nested duplicate reads
as, and hands the re-encoded request to the reference."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from reference.serve import ProtocolHandler


class _Pairs(dict[str, Any]):
    """An object as ``json`` reads it (the last occurrence counts), keeping its pairs."""

    pairs: list[tuple[str, Any]]

    @property
    def duplicated(self) -> list[str]:
        return [key for key, count in Counter(k for k, _ in self.pairs).items() if count > 1]


def _read(pairs: list[tuple[str, Any]]) -> _Pairs:
    obj = _Pairs(pairs)
    obj.pairs = pairs
    return obj


def _first_wins(value: Any) -> Any:
    if isinstance(value, _Pairs):
        out: dict[str, Any] = {}
        for key, item in value.pairs:
            out.setdefault(key, _first_wins(item))
        return out
    if isinstance(value, list):
        return [_first_wins(item) for item in value]
    return value


def _nested_duplicates(value: Any) -> list[str]:
    found: list[str] = []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    for item in items:
        if isinstance(item, _Pairs):
            found += item.duplicated
        found += _nested_duplicates(item)
    return found


def _parsed(line: str | bytes) -> Any:
    """The request as ``json`` reads it, or ``None`` for a line the reference must judge."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        if text.startswith("\ufeff"):
            return None
        return json.loads(text, object_pairs_hook=_read)
    except ValueError:
        return None


class FirstDuplicateWinsBelowTop(ProtocolHandler):
    """Of a member named twice inside args (or deeper), the first one counts."""

    def handle_line(self, line: str | bytes) -> str:
        request = _parsed(line)
        if not isinstance(request, _Pairs):
            return super().handle_line(line)
        top = {key: _first_wins(value) for key, value in request.items()}
        return super().handle_line(json.dumps(top))


class DuplicateArgumentRefused(ProtocolHandler):
    """A member named twice inside args is refused as a duplicate field (PROTOCOL_BAD_ARGS)."""

    def handle_line(self, line: str | bytes) -> str:
        request = _parsed(line)
        if not isinstance(request, _Pairs):
            return super().handle_line(line)
        duplicated = _nested_duplicates(request)
        if not duplicated:
            return super().handle_line(line)
        args = {f"duplicate field `{duplicated[0]}`": 0}
        return super().handle_line(json.dumps({**request, "args": args}))
