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
from reference.state.layout import OVERFLOW, PROPOSALS

PENDING_CAP = 256


class ProposalQueue:
    """The pending and overflow journals of one open state directory."""

    def __init__(self, path: Path, fs: FileOps, *, pending: int, spilled: int) -> None:
        self.path = Path(path)
        self.fs = fs
        self.pending = pending
        self.spilled = spilled

    @classmethod
    def open(cls, path: Path, fs: FileOps) -> ProposalQueue:
        """Recover both journals (cutting torn tails) and count their entries."""
        pending = journal.recover(Path(path) / PROPOSALS, repair=True, fs=fs)
        spilled = journal.recover(Path(path) / OVERFLOW, repair=True, fs=fs)
        return cls(path, fs, pending=len(pending.entries), spilled=len(spilled.entries))

    def propose(self, proposal: object) -> dict[str, Any]:
        """Queue *proposal*, or spill it past the cap; say which and how many are pending."""
        line = _checked(proposal)
        queued = self.pending < PENDING_CAP and self.spilled == 0
        journal.append(self.path / (PROPOSALS if queued else OVERFLOW), line, self.fs)
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
