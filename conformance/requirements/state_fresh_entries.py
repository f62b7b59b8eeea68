"""What makes a directory fresh is the absence of ``CURRENT`` and of every ``gen-*``, not
of every entry; and ``CURRENT`` missing beside generations none of which is valid is no
fresh state (docs/state.md § Recovery rules (load) 1, 3 and 5).

A directory that holds journals (a lineage of two boots, a pending proposal), an empty
``LOCK`` and the debris of a first commit a crash cut short (``staging-1`` with a core and
a manifest of generation 1, ``CURRENT.tmp`` naming it) but no ``CURRENT`` and no
``gen-*`` loads as a fresh state, opens fresh (boot 3, no parent, nothing recovered),
reports generation 0 by ``state.load``, ``state.open`` and ``state.digest`` alike (and
``state.digest`` the empty core's identity, turn count 0, not dirty), keeps its proposal
pending, loses its debris and commits ``gen-00000001`` first. A
directory whose only generations are torn and whose ``CURRENT`` is missing is
``STATE_CORRUPT`` for a load and an open, never a fresh life, and the open changes
nothing. A port that calls a directory fresh only when it holds nothing at all, or
starts a fresh life when no pointer and no valid generation are found, fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.crashstates import snapshot
from conformance.state.driver import scratch

RECORD = {"kind": "recognizer", "key": "staged", "pattern": "p", "weight": 1}
PENDING = {"lemma": "pending", "claim": "before any generation"}


def _boot(boot: int, version: int) -> dict[str, Any]:
    return {
        "boot": boot,
        "from_version": None,
        "identity": oracle.identity(version, oracle.encode_core([])),
        "parent": None,
        "reason": "fresh",
        "recovered": None,
        "to_version": version,
    }


def _entries_only(directory: Path, version: int) -> None:
    """Journals, an empty LOCK and a crashed first commit's debris: no CURRENT, no gen-*."""
    directory.mkdir()
    (directory / "lineage.journal").write_bytes(
        oracle.frame(_boot(1, version)) + oracle.frame(_boot(2, version))
    )
    (directory / "proposals.journal").write_bytes(oracle.frame(PENDING))
    (directory / "LOCK").write_bytes(b"")
    staged = directory / "staged"
    oracle.write_generation(staged, 1, oracle.encode_core([RECORD]), version, point=False)
    (staged / "gen-00000001").rename(directory / "staging-1")
    staged.rmdir()
    (directory / "CURRENT.tmp").write_bytes(b"gen-00000001\n")


def _torn_only(directory: Path, version: int) -> None:
    """Two generations, each with a torn core, and no CURRENT."""
    for number in (1, 2):
        oracle.write_generation(
            directory, number, oracle.encode_core([RECORD]), version, point=False
        )
        (directory / f"gen-{number:08d}" / "core.jsonl").write_bytes(b"torn")


def _fresh_problems(engine: EngineClient, directory: Path, version: int) -> list[str]:
    empty = oracle.identity(version, oracle.encode_core([]))
    found: list[str] = []
    try:
        loaded = engine.call("state.load", {"dir": str(directory)})
    except EngineRefused as refusal:
        found.append(f"state.load was refused {refusal.code}, not a fresh state")
    else:
        seen = {k: loaded.get(k) for k in ("fresh", "generation", "records", "identity")}
        want = {"fresh": True, "generation": 0, "records": 0, "identity": empty}
        if seen != want:
            found.append(f"state.load answered {seen}, not the fresh state {want}")
    try:
        opened = engine.call("state.open", {"dir": str(directory)})
    except EngineRefused as refusal:
        return [*found, f"state.open was refused {refusal.code}, not a fresh open"]
    seen = {k: opened.get(k) for k in ("reason", "boot", "parent", "recovered", "generation")}
    want = {"reason": "fresh", "boot": 3, "parent": None, "recovered": None, "generation": 0}
    if seen != want:
        found.append(f"state.open answered {seen}, not {want}")
    leftovers = [n for n in ("staging-1", "CURRENT.tmp") if (directory / n).exists()]
    if leftovers:
        found.append(f"the open left the debris {leftovers}")
    store = opened.get("store")
    digest = engine.call("state.digest", {"store": store})
    seen = {k: digest.get(k) for k in ("generation", "turn_count", "identity", "dirty")}
    want = {"generation": 0, "turn_count": 0, "identity": empty, "dirty": False}
    if seen != want:
        found.append(f"state.digest of the fresh store answered {seen}, not {want}")
    queued = engine.call("state.propose", {"store": store, "proposal": {"lemma": "later"}})
    if queued.get("pending") != 2:
        found.append(f"pending is {queued.get('pending')} after one more proposal, not 2")
    done = engine.call("state.checkpoint", {"store": store})
    engine.call("state.close", {"store": store})
    if (done.get("generation"), done.get("identity")) != (1, empty):
        found.append(
            f"the first checkpoint committed generation {done.get('generation')!r}, identity "
            f"{done.get('identity')!r}: not gen-00000001 of an empty core"
        )
    return found


def _corrupt_problems(engine: EngineClient, directory: Path) -> list[str]:
    found: list[str] = []
    before = snapshot(directory)
    for op in ("state.load", "state.open"):
        try:
            got = engine.call(op, {"dir": str(directory)})
        except EngineRefused as refusal:
            if refusal.code != "STATE_CORRUPT":
                found.append(f"{op} was refused {refusal.code}, not STATE_CORRUPT")
            continue
        found.append(f"{op} answered {dict(got)}: a fresh life, not STATE_CORRUPT")
        if op == "state.open":
            engine.call("state.close", {"store": got.get("store")})
    after = snapshot(directory)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if [k for k in changed if k != "LOCK"]:
        found.append(f"the refused open changed {changed}")
    return found


@requirement(
    "STATE-FRESH-461",
    "a directory with journals, an empty LOCK and a crashed first commit's staging-1 and "
    "CURRENT.tmp, but no CURRENT and no gen-*, is fresh: state.load fresh, state.open "
    "reason fresh, boot 3 after two recorded, generation 0 by load, open and digest, the "
    "debris removed, the pending proposal counted, the first checkpoint gen-00000001; with "
    "CURRENT missing and every generation torn, load and open are STATE_CORRUPT and nothing "
    "changes",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Recovery rules (load) 1 (an empty directory: no CURRENT, no gen-*), "
    "3 (CURRENT missing while generations exist: fall back, never a fresh life) and 5",
    max_examples=1,
)
def fresh_is_no_pointer_no_generation(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    with scratch() as root:
        _entries_only(root / "entries", version)
        problems = [
            f"journals and debris only: {p}"
            for p in _fresh_problems(engine, root / "entries", version)
        ]
        _torn_only(root / "torn", version)
        problems += [
            f"torn generations, no CURRENT: {p}" for p in _corrupt_problems(engine, root / "torn")
        ]
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
