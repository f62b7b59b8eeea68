"""A broken engine whose ``lstat`` of a generation directory takes the other code
(GAP-009): its check of a ``gen-*`` entry (an ``lstat``, never following a link) is told "a
load asks" the wrong way round, so a failed lstat of a generation in commit step 6 is a
load's ``STATE_UNREADABLE``, not the writer's ``STATE_IO``, and a failed lstat of a delta's
base directory while a load reads it is ``STATE_IO``, not ``STATE_UNREADABLE``
(docs/state.md § Confinement). The lstat of an entry of the state directory needs only
the directory's search permission, which every earlier call needs too, so only an
injected failure (STATE-EIO-001) shows it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import FileOps, StateStore


class _SwappedExamineOps(FileOps):
    def entry_kind(self, path: Path, *, reading: bool) -> str | None:
        generation = Path(path).parent == self.root and Path(path).name.startswith("gen-")
        return super().entry_kind(path, reading=reading != generation)


class _SwappedExamineStore(StateStore):
    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        return _SwappedExamineOps(path)


class LstatFailureSwapped(ProtocolHandler):
    """Each failed lstat of a generation directory answered with the other code: a
    writer's as a load's read (``STATE_UNREADABLE``), a load's as a writer's (``STATE_IO``)."""

    def store_class(self) -> Any:
        return _SwappedExamineStore
