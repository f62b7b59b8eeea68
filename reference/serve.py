"""``python -m reference serve``: the reference engine speaking ``core-engine/1`` on stdio.

The implementation lives in :mod:`reference.protocol`; this module is the stable
import point for engines built on the reference handler.
"""

from reference.protocol.envelope import read_envelope
from reference.protocol.handler import CAPABILITIES, ProtocolHandler, factory
from reference.protocol.stdio import serve

__all__ = ["CAPABILITIES", "ProtocolHandler", "factory", "read_envelope", "serve"]
