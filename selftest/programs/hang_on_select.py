"""An engine program that never answers a variation.select request."""

from __future__ import annotations

import sys
import time
from typing import Any

from reference.serve import ProtocolHandler, serve


class HangOnSelect(ProtocolHandler):
    """The reference handler, except that variation.select sleeps forever."""

    def op_variation_select(self, args: dict[str, Any]) -> dict[str, Any]:
        while True:
            time.sleep(60)


if __name__ == "__main__":
    raise SystemExit(serve(sys.stdin, sys.stdout, HangOnSelect()))
