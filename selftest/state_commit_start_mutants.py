"""Broken engines whose commits go wrong only from a starting state the suite once left
out (a store's first commit, a live generation reached by a fall back, proposals that spill):
each is the reference with one public hook replaced. The first line of each docstring states
the defect."""

from __future__ import annotations

import contextlib
import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import (
    PENDING_CAP,
    CheckpointInfo,
    FileOps,
    StateError,
    StateStore,
    WriterLock,
)
from reference.state.layout import OVERFLOW, gen_name
from reference.state.proposals import ProposalQueue
from reference.state.store import Booted


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


class _ModesFromPointer(StateStore):
    def __init__(self, path: Path, fs: FileOps, lock: WriterLock, booted: Booted) -> None:
        super().__init__(path, fs, lock, booted)
        self.pointed = booted.loaded.pointer
        self.staging_modes = False

    @property
    def generation(self) -> int:
        if self.staging_modes and self.pointed:
            return self.pointed
        return super().generation

    def stage(self, generation: int, core: bytes) -> Path:
        self.staging_modes = True
        try:
            return super().stage(generation, core)
        finally:
            self.staging_modes = False

    def checkpoint(self, announce: Callable[..., Any] | None = None) -> CheckpointInfo:
        committed = super().checkpoint(announce)
        self.pointed = committed.generation
        return committed


class ModesFromPointer(ProtocolHandler):
    """A checkpoint gives each staged file the mode of the same file in the generation
    ``CURRENT`` named at the open (then the one last committed), not in the live generation
    L: after a fall back, L is older than the generation ``CURRENT`` names, and the files
    take the modes of the invalid generation fallen back from."""

    def store_class(self) -> Any:
        return _ModesFromPointer


class _LaxOverflowQueue(ProposalQueue):
    def propose(self, proposal: object) -> dict[str, Any]:
        try:
            return super().propose(proposal)
        except StateError as refusal:
            spilling = self.pending >= PENDING_CAP or self.spilled > 0
            if refusal.code != "STATE_BAD_MUTATION" or not spilling:
                raise
            if not isinstance(proposal, dict):
                raise
        data = json.dumps(proposal, sort_keys=True, separators=(",", ":")).encode("utf-8")
        line = b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"
        writer = self.writers[OVERFLOW]
        size = writer.size
        if size is None:
            size = len(self.fs.read_file(writer.path, reading=False) or b"")
        self.fs.append_synced(writer.path, line)
        writer.size = size + len(line)
        self.spilled += 1
        return {"queued": False, "spilled": True, "pending": self.pending}


class _LaxOverflowStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _LaxOverflowQueue.open(fs.root, fs)


class OverflowSkipsCanonicalCheck(ProtocolHandler):
    """The canonical-JSON check of a proposal lives on the queue path only: a proposal that
    spills to ``overflow.journal`` (256 pending, or an overflow entry waiting) is written by
    a plain JSON encoder, floats and all, and acknowledged instead of refused with
    ``STATE_BAD_MUTATION``."""

    def store_class(self) -> Any:
        return _LaxOverflowStore
