"""Pending proposals with backpressure: at most ``PENDING_CAP`` in ``proposals.journal``.

A proposal arriving when the cap is reached, or while earlier proposals wait in
``overflow.journal``, is spilled there so that arrival order is kept; nothing is dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.canonical import FloatInHashError
from reference.state import journal
from reference.state.errors import StateError
from reference.state.fsops import FileOps
from reference.state.journal import JournalWriter
from reference.state.layout import OVERFLOW, PROPOSALS

PENDING_CAP = 256


class ProposalQueue:
    """The pending and overflow journals of one open state directory.

    *writers* append to each journal (made afresh, learning the journal's size at the
    first append, when not given).
    """

    def __init__(
        self,
        path: Path,
        fs: FileOps,
        *,
        pending: int,
        spilled: int,
        writers: dict[str, JournalWriter] | None = None,
    ) -> None:
        self.path = Path(path)
        self.fs = fs
        self.pending = pending
        self.spilled = spilled
        self.writers = writers or {
            name: JournalWriter(self.path / name, fs) for name in (PROPOSALS, OVERFLOW)
        }

    @classmethod
    def open(cls, path: Path, fs: FileOps) -> ProposalQueue:
        """Recover both journals (cutting torn tails) and count their entries."""
        writers, counts = {}, {}
        for name in (PROPOSALS, OVERFLOW):
            writers[name], found = JournalWriter.open(Path(path) / name, fs)
            counts[name] = len(found.entries)
        return cls(path, fs, pending=counts[PROPOSALS], spilled=counts[OVERFLOW], writers=writers)

    def propose(self, proposal: object) -> dict[str, Any]:
        """Queue *proposal*, or spill it past the cap; say which and how many are pending.

        A failed append refuses the proposal (``STATE_IO``) and counts nothing."""
        line = _checked(proposal)
        queued = self.pending < PENDING_CAP and self.spilled == 0
        self.writers[PROPOSALS if queued else OVERFLOW].append(line)
        if queued:
            self.pending += 1
        else:
            self.spilled += 1
        return {"queued": queued, "spilled": not queued, "pending": self.pending}


def _checked(proposal: object) -> dict[str, Any]:
    if not isinstance(proposal, dict):
        raise StateError("a proposal is a JSON object", field="proposal", code="STATE_BAD_MUTATION")
    try:
        journal.frame(proposal)
    except (FloatInHashError, TypeError, ValueError) as exc:
        raise StateError(
            f"a proposal must be plain JSON without floats: {exc}",
            field="proposal",
            code="STATE_BAD_MUTATION",
        ) from exc
    return proposal
