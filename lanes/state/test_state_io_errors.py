"""I/O errors in the state store: typed refusals naming the first failure, journal appends
all or nothing, nothing acknowledged that a failed fsync may have lost (docs/state.md
§ I/O errors)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from lanes.state.io_faults import Rule, failing
from lanes.state.state_helpers import put, recognizer
from reference.state import RecordingFileOps, StateError, StateStore, load_state, recover
from reference.state.layout import PROPOSALS

PROPOSAL = [{"lemma": f"l{n}", "claim": f"c{n}"} for n in range(4)]


def _refusal(call) -> StateError:
    with pytest.raises(StateError) as refused:
        call()
    return refused.value


def _listed(directory: Path) -> list[dict]:
    return list(recover(directory / PROPOSALS, repair=False).entries)


def _open_with_journal(directory: Path) -> StateStore:
    """An open store whose proposals journal exists and holds PROPOSAL[0]."""
    store = StateStore.open(directory)
    assert store.propose(PROPOSAL[0])["pending"] == 1
    return store


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO, errno.EROFS])
def test_a_short_append_leaves_no_bytes_for_the_next_line_to_fuse_with(tmp_path, code):
    store = _open_with_journal(tmp_path)
    with failing(Rule("write", PROPOSALS, code, short=True)):
        refusal = _refusal(lambda: store.propose(PROPOSAL[1]))
    assert refusal.code == "STATE_IO" and PROPOSALS in refusal.message
    assert store.propose(PROPOSAL[2]) == {"queued": True, "spilled": False, "pending": 2}
    assert _listed(tmp_path) == [PROPOSAL[0], PROPOSAL[2]]
    store.close()
    reopened = StateStore.open(tmp_path)
    assert reopened.propose(PROPOSAL[3])["pending"] == 3
    reopened.close()
    assert _listed(tmp_path) == [PROPOSAL[0], PROPOSAL[2], PROPOSAL[3]]


@pytest.mark.parametrize("times", [1, 2])
def test_a_proposal_whose_fsync_failed_is_refused_and_never_listed(tmp_path, times):
    store = _open_with_journal(tmp_path)
    with failing(Rule("fsync", PROPOSALS, errno.EIO, times=times)) as (rule,):
        refusal = _refusal(lambda: store.propose(PROPOSAL[1]))
    assert refusal.code == "STATE_IO"
    assert PROPOSALS in refusal.message and "EIO" in refusal.message
    assert len(rule.failed) == times
    assert _listed(tmp_path) == [PROPOSAL[0]], "a refused proposal is listed"
    assert store.propose(PROPOSAL[2])["pending"] == 2
    assert _listed(tmp_path) == [PROPOSAL[0], PROPOSAL[2]]
    store.close()


def test_after_a_failed_fsync_the_journal_is_rewritten_before_the_next_acknowledgement(tmp_path):
    """The failed fsync may have dropped the journal's dirty pages: a later fsync of the same
    file proves nothing, so its good lines are written afresh and renamed into place."""
    recording = RecordingFileOps(tmp_path)
    store = StateStore.open(tmp_path, fs=recording)
    store.propose(PROPOSAL[0])
    with failing(Rule("fsync", PROPOSALS, errno.EIO, times=2)):
        _refusal(lambda: store.propose(PROPOSAL[1]))
    before = len(recording.ops)
    store.propose(PROPOSAL[2])
    ops = [(op["op"], op.get("path", op.get("dst"))) for op in recording.ops[before:]]
    staged = "staging-" + PROPOSALS
    assert ops == [
        ("write", staged),
        ("fsync", staged),
        ("rename", PROPOSALS),
        ("fsync_dir", "."),
        ("append", PROPOSALS),
        ("fsync", PROPOSALS),
    ]
    store.close()


def test_a_journal_whose_creating_directory_fsync_failed_is_not_used(tmp_path):
    recording = RecordingFileOps(tmp_path)
    store = StateStore.open(tmp_path, fs=recording)
    before = len(recording.ops)
    with failing(Rule("fsync", tmp_path.name, errno.EIO)) as (rule,):
        refusal = _refusal(lambda: store.propose(PROPOSAL[0]))
    assert rule.failed == [str(tmp_path)]
    assert refusal.code == "STATE_IO" and str(tmp_path) in refusal.message
    assert _listed(tmp_path) == []
    assert store.propose(PROPOSAL[1])["pending"] == 1
    ops = [(op["op"], op.get("path", op.get("dst"))) for op in recording.ops[before:]]
    acknowledged = len(ops) - 1 - ops[::-1].index(("append", PROPOSALS))
    made = ops.index(("rename", PROPOSALS)) if ("rename", PROPOSALS) in ops else acknowledged
    assert ("fsync_dir", ".") in ops[made:acknowledged], "the journal's entry is not durable"
    store.close()
    assert _listed(tmp_path) == [PROPOSAL[1]]


@pytest.mark.parametrize("path", ["core.jsonl", "manifest.json", "CURRENT.tmp"])
def test_a_failed_close_in_a_checkpoint_is_state_io_naming_the_file(tmp_path, path):
    store = StateStore.open(tmp_path)
    store.apply([put(recognizer("a")), {"op": "turn"}])
    with failing(Rule("close", path, errno.EIO)):
        refusal = _refusal(store.checkpoint)
    assert refusal.code == "STATE_IO"
    assert path in refusal.message and "EIO" in refusal.message
    done = store.checkpoint()
    store.close()
    assert load_state(tmp_path).generation == done.generation


def test_a_failed_rename_is_state_io_and_the_next_checkpoint_commits(tmp_path):
    store = StateStore.open(tmp_path)
    store.apply([put(recognizer("a")), {"op": "turn"}])
    with failing(Rule("rename", "CURRENT", errno.EROFS)):
        refusal = _refusal(store.checkpoint)
    assert refusal.code == "STATE_IO" and "CURRENT" in refusal.message
    assert "EROFS" in refusal.message
    done = store.checkpoint()
    store.close()
    assert load_state(tmp_path).generation == done.generation
