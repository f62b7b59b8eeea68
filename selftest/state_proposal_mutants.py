"""Broken engines that count a journal's lines, not its entries, when an open finds the
proposal journals (docs/state.md § Pending proposals and backpressure).

Each is the reference ``ProtocolHandler`` whose store opens its proposal queue and then
adds the corrupt lines recovery kept in one journal to that journal's count.
``STATE-PROPOSE-601`` fails on each.
"""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore, recover
from reference.state.fsops import FileOps
from reference.state.layout import OVERFLOW, PROPOSALS
from reference.state.proposals import ProposalQueue


def _corrupt_lines(fs: FileOps, name: str) -> int:
    return len(recover(fs.root / name, repair=False, fs=fs).skipped)


class _PendingLinesStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        queue = super().open_queue(fs)
        queue.pending += _corrupt_lines(fs, PROPOSALS)
        return queue


class _OverflowLinesStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        queue = super().open_queue(fs)
        queue.spilled += _corrupt_lines(fs, OVERFLOW)
        return queue


class PendingCountsCorruptLines(ProtocolHandler):
    """The pending count at open is the lines of `proposals.journal`, corrupt ones included."""

    def store_class(self) -> Any:
        return _PendingLinesStore


class OverflowCorruptLinesSpill(ProtocolHandler):
    """An overflow journal holding only corrupt lines makes new proposals spill."""

    def store_class(self) -> Any:
        return _OverflowLinesStore
