"""An engine program that answers overrides.resolve under a response id it was never sent."""

from __future__ import annotations

import sys
from typing import Any

from reference.serve import ProtocolHandler, serve


class WrongId(ProtocolHandler):
    """The reference handler, except that overrides.resolve responses carry the wrong id."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        if isinstance(request, dict) and request.get("op") == "overrides.resolve":
            return {**response, "id": f"not-{response['id']}"}
        return response


if __name__ == "__main__":
    raise SystemExit(serve(sys.stdin, sys.stdout, WrongId()))
