"""One wire line in, one wire line out, for a Python engine plugged in as ``module:factory``.

A handler with ``handle_line`` gets the line's bytes as the stdio loop reads them
(without the ``\\n``); a handler with only ``handle`` gets the parsed request, or None
when the line is not UTF-8 JSON, and its response is written as one canonical JSON line.
"""

from __future__ import annotations

import json
from typing import Any, Protocol


class RequestHandler(Protocol):
    """An in-process engine: one parsed request in, one response object out."""

    def handle(self, request: object) -> dict[str, Any]: ...


def answer_line(handler: RequestHandler, line: bytes) -> str:
    """The response line (without ``\\n``) that *handler* gives the request line *line*."""
    handle_line = getattr(handler, "handle_line", None)
    if callable(handle_line):
        answer = handle_line(line)
        if not isinstance(answer, str):
            raise TypeError(f"handle_line returned {type(answer).__name__}, not str")
        return answer
    try:
        request: object = json.loads(line.decode("utf-8"))
    except ValueError:
        request = None
    return json.dumps(
        handler.handle(request), ensure_ascii=False, separators=(",", ":"), sort_keys=True
    )
