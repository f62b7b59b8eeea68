"""A broken engine whose fall back skips a generation it cannot use for a reason other
than damage (docs/state.md § Schema versions; § Recovery rules (load) 6).
``STATE-RECOVER-461`` fails on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import StateError, StateStore, loader
from reference.state.fsops import FileOps
from reference.state.manifest import InvalidGeneration

SKIPPED = ("STATE_SCHEMA_TOO_NEW", "STATE_SCHEMA_MALFORMED", "STATE_RECORD_MALFORMED")


class _SkippingStore(StateStore):
    @classmethod
    def load(cls, fs: FileOps) -> Any:
        reader = loader.read_generation
        named = loader.read_pointer(fs).number

        def lenient(fs_: FileOps, number: int) -> Any:
            try:
                return reader(fs_, number)
            except StateError as refusal:
                if number != named and refusal.code in SKIPPED:
                    raise InvalidGeneration(str(refusal)) from refusal
                raise

        with mock.patch.object(loader, "read_generation", lenient):
            return loader.load_state(Path(fs.root), fs)


class FallbackSkipsRefused(ProtocolHandler):
    """A load that falls back treats a generation whose schema version is refused, or whose
    records are malformed, as invalid, and goes on to an older one (a silent downgrade)."""

    def store_class(self) -> Any:
        return _SkippingStore
