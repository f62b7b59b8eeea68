"""An engine program that answers variation.decorate with a line that is not JSON."""

from __future__ import annotations

import json
import sys

from reference.serve import ProtocolHandler, serve

GARBAGE = "decorated!! <not json>"


class GarbageOnDecorate(ProtocolHandler):
    """The reference handler, except that a variation.decorate request gets a non-JSON line."""

    def handle_line(self, line: str | bytes) -> str:
        try:
            request = json.loads(line)
        except ValueError:
            return super().handle_line(line)
        if isinstance(request, dict) and request.get("op") == "variation.decorate":
            return GARBAGE
        return super().handle_line(line)


if __name__ == "__main__":
    raise SystemExit(serve(sys.stdin, sys.stdout, GarbageOnDecorate()))
