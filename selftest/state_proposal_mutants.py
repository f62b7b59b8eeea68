"""Broken engines that count a journal's lines, not its entries, when an open finds the
proposal journals, or that do not keep a proposal's integers exact (docs/state.md
§ Pending proposals and backpressure).

Two are the reference ``ProtocolHandler`` whose store opens its proposal queue and then
adds the corrupt lines recovery kept in one journal to that journal's count
(``STATE-PROPOSE-601`` fails on each); two more mishandle a proposal's integers past the
canonical range, which are written as their exact digits (``STATE-PROPOSE-602``); one
writes the empty object as ``[]``, as PHP's encoder does (``STATE-PROPOSE-603``).
"""

from __future__ import annotations

from typing import Any

from reference.protocol.envelope import refuse
from reference.serve import ProtocolHandler
from reference.state import StateStore, recover
from reference.state.fsops import FileOps
from reference.state.journal import JournalWriter
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


MAX_SAFE = 2**53 - 1


def _as_doubles(value: object) -> object:
    """*value* with every integer rounded to the nearest double, as a JSON.parse would."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(float(value))
    if isinstance(value, list):
        return [_as_doubles(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_doubles(item) for key, item in value.items()}
    return value


def _past_safe(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > MAX_SAFE
    if isinstance(value, list):
        return any(map(_past_safe, value))
    if isinstance(value, dict):
        return any(map(_past_safe, value.values()))
    return False


class ProposalIntegersAsDoubles(ProtocolHandler):
    """A proposal's integers are parsed as doubles: 2^53 + 1 is written 9007199254740992."""

    def op_state_propose(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_state_propose({**args, "proposal": _as_doubles(args.get("proposal"))})


class ProposalIntegersInHashedRange(ProtocolHandler):
    """A proposal holding an integer past 2^53 - 1 is refused, as a hashed record's would be."""

    def op_state_propose(self, args: dict[str, Any]) -> dict[str, Any]:
        if _past_safe(args.get("proposal")):
            refuse("STATE_BAD_MUTATION", "proposal: an integer past 2^53 - 1", "proposal")
        return super().op_state_propose(args)


class _EmptyAsListWriter(JournalWriter):
    def append(self, payload: Any) -> None:
        super().append(payload if payload else [])


class _EmptyAsListStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        queue = super().open_queue(fs)
        queue.writers = {
            name: _EmptyAsListWriter(writer.path, writer.fs, writer.size)
            for name, writer in queue.writers.items()
        }
        return queue


class EmptyProposalAsList(ProtocolHandler):
    """The empty proposal ``{}`` is written as ``[]``, as PHP writes an empty array.

    Its journal line then reads back as a corrupt one."""

    def store_class(self) -> Any:
        return _EmptyAsListStore
