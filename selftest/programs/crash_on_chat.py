"""An engine program that exits with status 3, without answering, on any session.chat request."""

from __future__ import annotations

import os
import sys
from typing import Any

from reference.serve import ProtocolHandler, serve


class CrashOnChat(ProtocolHandler):
    """The reference handler, except that session.chat kills the process."""

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        os._exit(3)


if __name__ == "__main__":
    raise SystemExit(serve(sys.stdin, sys.stdout, CrashOnChat()))
