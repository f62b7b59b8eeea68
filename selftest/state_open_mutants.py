"""A broken engine whose writer's open writes before every read that can refuse is done
(docs/state.md § Confinement: a refused open leaves every entry but ``LOCK`` as it found it).

It is the reference ``ProtocolHandler`` whose store removes the leftovers of a crashed
commit right after the load, before it reads the journals; a journal that is a link then
refuses the open with the debris already gone. ``STATE-SYMLINK-001`` fails on it.
"""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore, journal
from reference.state.fsops import FileOps
from reference.state.layout import LINEAGE
from reference.state.store import Booted


class _LeftoversFirstStore(StateStore):
    @classmethod
    def start(cls, fs: FileOps) -> Booted:
        loaded = cls.load(fs)
        cls.clear_leftovers(fs, loaded)
        cls.preflight(fs)
        queue = cls.open_queue(fs)
        events = journal.recover(fs.root / LINEAGE, repair=True, fs=fs).entries
        boot = cls.boot_event(loaded, events)
        cls.record_boot(fs, boot)
        return Booted(loaded, boot, queue)


class LeftoversRemovedBeforeJournals(ProtocolHandler):
    """A writer's open removes the leftovers before it reads the journals, so a journal
    that refuses the open finds the debris already removed."""

    def store_class(self) -> Any:
        return _LeftoversFirstStore
