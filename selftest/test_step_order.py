"""The pair check of the commit protocol's order (``conformance.state.commit_order``) on
hand-written traces: the documented order passes, extra syncs break nothing, and each
reordering is named."""

from __future__ import annotations

from typing import Any

from conformance.state.commit_order import violations

GEN = "gen-00000004"


def _op(kind: str, path: str = "", **more: Any) -> dict[str, Any]:
    return {"op": kind, "path": path, **more} if path else {"op": kind, **more}


def _trace() -> list[dict[str, Any]]:
    return [
        _op("unlink", "CURRENT.tmp"),
        _op("unlink", "staging-x/core.jsonl"),
        _op("rmdir", "staging-x"),
        _op("mkdir", "staging-4"),
        _op("write", "staging-4/core.jsonl"),
        _op("fsync", "staging-4/core.jsonl"),
        _op("write", "staging-4/manifest.json"),
        _op("fsync", "staging-4/manifest.json"),
        _op("fsync_dir", "staging-4"),
        {"op": "rename", "src": "staging-4", "dst": GEN},
        _op("fsync_dir", "."),
        _op("write", "CURRENT.tmp"),
        _op("fsync", "CURRENT.tmp"),
        {"op": "rename", "src": "CURRENT.tmp", "dst": "CURRENT"},
        _op("fsync_dir", "."),
        _op("unlink", "gen-00000002/core.jsonl"),
        _op("unlink", "gen-00000002/manifest.json"),
        _op("rmdir", "gen-00000002"),
        _op("unlink", "gen-00000001/core.jsonl"),
        _op("unlink", "gen-00000001/manifest.json"),
        _op("rmdir", "gen-00000001"),
    ]


def test_the_documented_order_passes() -> None:
    assert violations(_trace(), GEN, debris=True) == []


def test_extra_syncs_break_no_pair() -> None:
    ops = _trace()
    ops.insert(6, _op("fsync_dir", "staging-4"))
    ops.insert(4, _op("fsync_dir", "."))
    assert violations(ops, GEN, debris=True) == []


def test_a_pointer_renamed_before_its_fsync_is_named() -> None:
    ops = _trace()
    ops[12], ops[13] = ops[13], _op("fsync", "CURRENT")
    assert violations(ops, GEN, debris=True) == [
        "no step 5: the fsync of CURRENT.tmp after its write"
    ]


def test_a_pointer_fsynced_through_its_descriptor_after_the_rename_is_named() -> None:
    ops = _trace()
    ops[12], ops[13] = ops[13], ops[12]
    (problem,) = violations(ops, GEN, debris=True)
    assert "rename CURRENT.tmp -> CURRENT" in problem and "fsync of CURRENT.tmp" in problem


def test_a_manifest_removed_before_its_core_is_named_per_generation() -> None:
    ops = _trace()
    ops[15], ops[16] = ops[16], ops[15]
    (problem,) = violations(ops, GEN, debris=True)
    assert "gen-00000002/manifest.json" in problem and "core.jsonl first" in problem


def test_an_older_generation_removed_first_is_named() -> None:
    ops = _trace()
    ops[15:21] = ops[18:21] + ops[15:18]
    (problem,) = violations(ops, GEN, debris=True)
    assert "gen-00000001 is removed" in problem and "newest first" in problem


def test_missing_debris_removal_is_named_only_when_there_was_debris() -> None:
    ops = _trace()[3:]
    assert violations(ops, GEN, debris=False) == []
    assert violations(ops, GEN, debris=True) == [
        "no step 1: the removal of every staging-* entry and CURRENT.tmp"
    ]
