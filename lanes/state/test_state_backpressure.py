"""Pending proposals: at most 256 pending, the rest spilled to the overflow journal, none lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.state import PENDING_CAP, StateError, StateStore, recover


def test_300_proposals_queue_256_and_spill_44(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    answers = [store.propose({"proposal": n}) for n in range(300)]
    store.close()
    assert PENDING_CAP == 256
    assert sum(a["queued"] for a in answers) == 256
    assert sum(a["spilled"] for a in answers) == 44
    assert answers[255] == {"queued": True, "spilled": False, "pending": 256}
    assert answers[256] == {"queued": False, "spilled": True, "pending": 256}
    pending = recover(tmp_path / "proposals.journal", repair=False).entries
    spilled = recover(tmp_path / "overflow.journal", repair=False).entries
    assert [p["proposal"] for p in pending + spilled] == list(range(300))


def test_counts_survive_a_reopen(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    for n in range(PENDING_CAP):
        store.propose({"proposal": n})
    store.close()
    store = StateStore.open(tmp_path)
    assert store.propose({"proposal": "late"}) == {"queued": False, "spilled": True, "pending": 256}
    store.close()


def test_spilling_keeps_arrival_order_while_overflow_is_non_empty(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    for n in range(PENDING_CAP + 1):
        store.propose({"proposal": n})
    store.close()
    journal = tmp_path / "proposals.journal"
    journal.write_bytes(journal.read_bytes()[:-3])
    store = StateStore.open(tmp_path)
    answer = store.propose({"proposal": "next"})
    store.close()
    assert answer == {"queued": False, "spilled": True, "pending": 255}


@pytest.mark.parametrize("proposal", ["text", {"score": 0.5}, {"x": object()}])
def test_bad_proposals_are_refused(tmp_path: Path, proposal: object) -> None:
    store = StateStore.open(tmp_path)
    with pytest.raises(StateError) as caught:
        store.propose(proposal)
    store.close()
    assert caught.value.code == "STATE_BAD_MUTATION"
