"""Broken engines that read persisted bytes that are not UTF-8, or frames that are not JSON
objects, leniently: one decodes a core line with replacement characters and keeps the record
(``STATE-DISK-802`` fails), one takes a delta frame that checks but holds no JSON object for
damage and falls back (``STATE-DELTA-353`` fails).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import LoadedState, StateStore, decode_core, delta, loader
from reference.state.core import Key
from reference.state.fsops import FileOps
from reference.state.journal import scan
from reference.state.records import Record


def _lenient_core(data: bytes, schema_version: int) -> dict[Key, Record]:
    """A core decoded with U+FFFD for what is not UTF-8, then read as written."""
    return decode_core(data.decode("utf-8", "replace").encode("utf-8"), schema_version)


def _frames_as_journal(data: bytes) -> list[dict[str, Any]]:
    """The entries of a delta read as a journal: a frame whose payload is no JSON object is
    skipped, so taken for damage."""
    found = scan(data)
    if found.skipped or found.cut_bytes:
        raise delta.DeltaDamaged("delta.jsonl holds a frame that does not check")
    return list(found.entries)


def _loading_with(module: Any, name: str, replacement: Any) -> type[StateStore]:
    class Store(StateStore):
        @classmethod
        def load(cls, fs: FileOps) -> LoadedState:
            with mock.patch.object(module, name, replacement):
                return super().load(fs)

    return Store


class CoreLenientUtf8(ProtocolHandler):
    """A core.jsonl line that is not UTF-8 is decoded with replacements and loaded."""

    def store_class(self) -> type[StateStore]:
        return _loading_with(loader, "decode_core", _lenient_core)


class DeltaNotObjectAsDamage(ProtocolHandler):
    """A delta frame that checks but holds no JSON object makes the generation invalid (a
    fall back), not ``STATE_RECORD_MALFORMED``."""

    def store_class(self) -> type[StateStore]:
        return _loading_with(delta, "frame_entries", _frames_as_journal)
