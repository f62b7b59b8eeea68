"""A broken engine that keeps per process what docs/state.md keeps per store, so a store
answers from the history of another store open beside it (STATE-APART-001): one pending
count for every store the process opens, set from the journal at each open and raised by
any store's proposal ("The pending count is the number of entries of `proposals.journal`":
of the store's own journal). A port that numbers generations past the highest any store of
the process committed is caught by older requirements too, which reopen one directory.
"""

from __future__ import annotations

from typing import Any, ClassVar

from reference.serve import ProtocolHandler
from reference.state import FileOps, StateStore
from reference.state.proposals import ProposalQueue


class _SharedPendingQueue(ProposalQueue):
    shared: ClassVar[dict[str, int]] = {"pending": 0}

    @property
    def pending(self) -> int:
        return self.shared["pending"]

    @pending.setter
    def pending(self, value: int) -> None:
        self.shared["pending"] = value


class _SharedPendingStore(StateStore):
    @classmethod
    def open_queue(cls, fs: FileOps) -> ProposalQueue:
        return _SharedPendingQueue.open(fs.root, fs)


class PendingCountPerProcess(ProtocolHandler):
    """One pending count for the whole process: a proposal to one store raises the count
    another store answers."""

    def store_class(self) -> Any:
        return _SharedPendingStore
