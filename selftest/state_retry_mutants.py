"""Broken state engines whose checkpoint after a refused one is refused too, though no call
of it fails (docs/state.md § I/O errors: the next checkpoint, or the close, commits the
in-memory state whole). The first line of each docstring states the defect."""

from __future__ import annotations

from reference.serve import ProtocolHandler
from reference.state import CheckpointInfo, StateStore
from reference.state.store import Announce


class NumberedOnceStore(StateStore):
    """Numbers a checkpoint past the generations on disk at its first checkpoint and past
    its own acknowledged ones after that, so a generation a refused checkpoint left on disk
    is chosen again and every later commit collides with it."""

    _numbered: int | None = None

    def next_generation(self) -> int:
        if self._numbered is None:
            self._numbered = super().next_generation() - 1
        return max(self.generation, self._numbered) + 1

    def checkpoint(self, announce: Announce | None = None) -> CheckpointInfo:
        info = super().checkpoint(announce)
        self._numbered = info.generation
        return info


class NumberedOnce(ProtocolHandler):
    """After a checkpoint refused once its generation was published, every checkpoint and
    the close are refused: the next number is the refused generation's again."""

    def store_class(self) -> type[StateStore]:
        return NumberedOnceStore
