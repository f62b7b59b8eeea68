"""Broken engines that go wrong only from a starting state the suite once skipped
(/work/notes/audit-starts56.md): each is the reference with one public hook replaced.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import (
    CheckpointInfo,
    StateError,
    StateStore,
)
from reference.state.layout import gen_name


class _FirstCommitTakesState(StateStore):
    def checkpoint(self, announce: Callable[..., Any] | None = None) -> CheckpointInfo:
        if self.generation:
            return super().checkpoint(announce)
        try:
            return super().checkpoint(announce)
        except StateError:
            self._records, self._turn_count = {}, 0
            raise


class RefusedFirstCommitForgets(ProtocolHandler):
    """The first commit of a store (no generation yet) moves the in-memory state into the
    writer (a Rust ``mem::take``) and a refused one never puts it back: the store is fresh
    again, so a refused first turn is lost and the next session opens at turn 0. Every
    later commit borrows the state and keeps it when refused."""

    def store_class(self) -> Any:
        return _FirstCommitTakesState


class _FirstCommitKeepsDebris(StateStore):
    def clear_debris(self) -> None:
        if self.generation:
            super().clear_debris()


class FirstCommitKeepsDebris(ProtocolHandler):
    """The first commit of a store (no generation yet) takes a fast path (make the staging
    directory, write, point) that skips commit step 1, trusting the open to have cleared the
    directory: debris that appears under the writer before it is kept, and a ``staging-1``
    among it makes the commit fail. Every later commit clears debris first."""

    def store_class(self) -> Any:
        return _FirstCommitKeepsDebris


class _FirstPublishUnsynced(StateStore):
    def publish(self, staging: Path, generation: int) -> None:
        if self.generation:
            super().publish(staging, generation)
            return
        self.fs.rename(staging, self.fs.root / gen_name(generation))
        with contextlib.suppress(StateError):
            self.fs.fsync_dir(self.fs.root)


class FirstCommitIgnoresDirSync(ProtocolHandler):
    """The first commit of a store (no ``CURRENT`` yet, nothing acknowledged to lose)
    ignores a failed fsync of the state directory after renaming the staging directory to
    ``gen-00000001`` (step 4), and goes on to acknowledge generation 1, whose entry a power
    cut may then take away. Every later commit refuses on that failure."""

    def store_class(self) -> Any:
        return _FirstPublishUnsynced
