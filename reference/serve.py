"""``python -m reference serve``: the reference engine speaking ``core-engine/1`` on stdio.

The implementation lives in :mod:`reference.protocol`; this module is the stable
import point for engines built on the reference handler.
"""

from __future__ import annotations

from typing import TextIO

from reference.protocol import stdio
from reference.protocol.envelope import read_envelope
from reference.protocol.handler import CAPABILITIES, ProtocolHandler, factory

__all__ = ["CAPABILITIES", "ProtocolHandler", "factory", "read_envelope", "serve"]


def serve(stdin: TextIO, stdout: TextIO, handler: ProtocolHandler | None = None) -> int:
    """Answer request lines from *stdin* on *stdout* until EOF with *handler* (a fresh
    reference handler by default); returns 0."""
    return stdio.serve(stdin, stdout, factory() if handler is None else handler)
