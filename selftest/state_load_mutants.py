"""A broken engine whose ``state.load`` clears a crashed commit's leftovers as a writer's
open does: a port with one "open the directory" routine that loads and then removes
``staging-*`` entries, ``CURRENT.tmp`` and the invalid generations past ``CURRENT``, shared
by the read-only load and the writer's open (docs/protocol.md: ``state.load`` is
"read-only, takes no lock"; docs/state.md § Recovery rules: "After the load, a *writer*
removes only ..."). The writer's open keeps the documented order (every read that can
refuse, then the removal), so only the read-only load is broken. ``STATE-LOCK-101`` fails
on it.
"""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore, journal
from reference.state.fsops import FileOps
from reference.state.layout import LINEAGE
from reference.state.loader import LoadedState
from reference.state.store import Booted


class _LoadClearsLeftoversStore(StateStore):
    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        """The shared routine: load, then clear what a crashed commit left."""
        loaded = super().load(fs)
        cls.clear_leftovers(fs, loaded)
        return loaded

    @classmethod
    def start(cls, fs: FileOps) -> Booted:
        """The writer's open as documented (every read that can refuse, then the removal):
        only the read-only load is broken."""
        loaded = super().load(fs)
        cls.preflight(fs)
        cls.clear_leftovers(fs, loaded)
        queue = cls.open_queue(fs)
        events = journal.recover(fs.root / LINEAGE, repair=True, fs=fs).entries
        boot = cls.boot_event(loaded, events)
        cls.record_boot(fs, boot)
        return Booted(loaded, boot, queue)


class LoadClearsLeftovers(ProtocolHandler):
    """``state.load`` removes staging leftovers, ``CURRENT.tmp`` and the invalid generations
    past ``CURRENT`` (a writer's open's leftover removal), beside a writer or with none."""

    def store_class(self) -> Any:
        return _LoadClearsLeftoversStore
