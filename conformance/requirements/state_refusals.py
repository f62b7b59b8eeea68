"""Refused state ops: a proposal that is not canonical JSON, a close whose commit fails, and
ops on a handle that is closed or was never opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.crashstates import snapshot
from conformance.state.driver import Stores, put, scratch

STATE = ("state",)
Proposal = dict[str, Any]

proposals = st.fixed_dictionaries(
    {"lemma": st.text("abc", min_size=1, max_size=4), "claim": st.integers(0, 99)}
)
NOT_CANONICAL: dict[str, Proposal] = {
    "a float member": {"lemma": "l", "claim": 1.5},
    "a whole float": {"lemma": "l", "claim": 2.0},
    "a whole float written with an exponent": {"lemma": "l", "claim": 1e16},
    "a float in a list": {"lemma": "l", "claim": [1, 0.25]},
    "a float in an object": {"lemma": "l", "claim": {"weight": -3.5}},
}


def _refused(call: Any) -> EngineRefused | None:
    try:
        call()
    except EngineRefused as refusal:
        return refusal
    return None


def _journal(engine: EngineClient, directory: Path, name: str) -> list[Proposal]:
    args: EncodableObject = {"dir": str(directory), "name": name, "repair": False}
    entries: list[Proposal] = engine.call("state.journal", args)["entries"]
    return entries


PROPOSE_STARTS: dict[str, tuple[int, int]] = {
    "fresh": (0, 0),
    "an overflow entry found at open": (0, 1),
    "256 pending found at open": (oracle.PENDING_CAP, 0),
}
"""``(entries of proposals.journal, entries of overflow.journal)`` an open finds: from a
fresh directory a proposal is queued; from the other two it spills to ``overflow.journal``."""


def _found(count: int, tag: str) -> list[Proposal]:
    return [{"lemma": f"{tag}{n}", "claim": n} for n in range(count)]


def _spill_model(
    pending: list[Proposal], overflow: list[Proposal], item: Proposal
) -> dict[str, Any]:
    """Where *item* goes (docs/state.md § Pending proposals and backpressure) and the answer."""
    queued = len(pending) < oracle.PENDING_CAP and not overflow
    (pending if queued else overflow).append(item)
    return {"queued": queued, "spilled": not queued, "pending": len(pending)}


@requirement(
    "STATE-PROPOSE-001",
    "a proposal holding a number canonical JSON cannot encode (a float) is refused with "
    "STATE_BAD_MUTATION naming proposal; no journal and no pending count changes (an "
    "overflow journal never written reads empty, nothing cut), on the queue path and while "
    "proposals spill to overflow.journal (an overflow entry, or 256 pending, found at open)",
    family="state",
    capabilities=STATE,
    seed='docs/state.md § Pending proposals and backpressure ("One that holds a value '
    "canonical JSON cannot encode ... is refused with `STATE_BAD_MUTATION`, `field` "
    '`proposal`, and neither journal nor the pending count changes"); § Refusals; '
    "docs/spec.md § Canonical JSON (no floats)",
    strategy=lambda ctx: st.tuples(
        st.sampled_from(sorted(PROPOSE_STARTS)),
        st.sampled_from(sorted(NOT_CANONICAL)),
        st.lists(proposals, max_size=3),
        st.lists(proposals, min_size=1, max_size=3),
    ).map(list),
    cover=coverage.each(
        "where the proposal would go, non-canonical proposals",
        [
            [start, name, [], [{"lemma": "l", "claim": 1}]]
            for start in sorted(PROPOSE_STARTS)
            for name in sorted(NOT_CANONICAL)
        ],
    ),
)
def float_proposal_refused(engine: EngineClient, scenario: list[Any]) -> None:
    start, name, before, after = scenario
    counts = PROPOSE_STARTS[start]
    pending, overflow = _found(counts[0], "p"), _found(counts[1], "o")
    with scratch() as directory, Stores(engine) as stores:
        journals = {
            "proposals": directory / "proposals.journal",
            "overflow": directory / "overflow.journal",
        }
        for journal, found in zip(journals.values(), (pending, overflow), strict=True):
            if found:
                journal.write_bytes(b"".join(oracle.frame(p) for p in found))
        store = stores.open(directory)["store"]
        for item in before:
            engine.call("state.propose", {"store": store, "proposal": item})
            _spill_model(pending, overflow, item)
        bytes_before = {k: j.read_bytes() if j.exists() else b"" for k, j in journals.items()}
        args = {"store": store, "proposal": NOT_CANONICAL[name]}
        refusal = _refused(lambda: engine.call("state.propose", args))
        assert refusal is not None, f"{start}: a proposal holding {name} was accepted"
        assert refusal.code == "STATE_BAD_MUTATION", f"{start}: {name}: refused with {refusal.code}"
        assert refusal.field == "proposal", f"{start}: {name}: refusal field {refusal.field!r}"
        assert "proposal" in refusal.message, f"{start}: {name}: message {refusal.message!r}"
        for key, journal in journals.items():
            now = journal.read_bytes() if journal.exists() else b""
            assert now == bytes_before[key], (
                f"{start}: {name}: the refused proposal changed {journal.name}"
            )
        answers = [engine.call("state.propose", {"store": store, "proposal": p}) for p in after]
        got = [{k: a.get(k) for k in ("queued", "spilled", "pending")} for a in answers]
        want = [_spill_model(pending, overflow, p) for p in after]
        assert got == want, (
            f"{start}: {name}: after a refusal the proposals answered {got}, not {want}"
        )
        stores.close(store)
        assert _journal(engine, directory, "proposals") == pending, (
            f"{start}: proposals.journal entries"
        )
        if overflow:
            assert _journal(engine, directory, "overflow") == overflow, (
                f"{start}: overflow.journal entries"
            )
            return
        args = {"dir": str(directory), "name": "overflow", "repair": False}
        read = engine.call("state.journal", args)
        want_empty = {"entries": [], "skipped": [], "cut_bytes": 0}
        assert read == want_empty, f"the overflow journal, never written, reads {read}"


def _link_debris(directory: Path, outside: Path) -> Path:
    """Make ``CURRENT.tmp`` a link out of the state directory; return its target."""
    target = outside / "target"
    target.write_bytes(b"outside")
    (directory / "CURRENT.tmp").symlink_to(target)
    return target


@requirement(
    "STATE-CLOSE-001",
    "a close whose commit is refused still closes the handle: it answers STATE_NOT_OPEN "
    "(field store) from then on, the lock is released, and the next open loads the last "
    "durable checkpoint",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Refusals (a failed close); § Confinement; § Single writer",
    strategy=lambda ctx: st.tuples(st.lists(proposals, max_size=3), st.integers(0, 9)).map(list),
    max_examples=4,
)
def failed_close_closes(engine: EngineClient, scenario: list[Any]) -> None:
    lemmas, weight = scenario
    kept = [
        {
            "kind": "candidate",
            "key": f"k{i}",
            "lemma": p["lemma"],
            "score": p["claim"],
            "status": "coherent",
        }
        for i, p in enumerate(lemmas)
    ]
    extra = {"kind": "recognizer", "key": "late", "pattern": "p", "weight": weight}
    with scratch() as root, Stores(engine) as stores:
        directory, outside = root / "state", root / "outside"
        outside.mkdir()
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(r) for r in kept]})
        durable = engine.call("state.checkpoint", {"store": store})
        engine.call("state.apply", {"store": store, "mutations": [put(extra), {"op": "turn"}]})
        target = _link_debris(directory, outside)
        stores.open_handles.remove(store)
        refusal = _refused(lambda: engine.call("state.close", {"store": store}))
        assert refusal is not None, "close committed past a CURRENT.tmp that is a link"
        assert refusal.code == "STATE_SYMLINK", f"the failed close answered {refusal.code}"
        assert target.read_bytes() == b"outside", "the failed close wrote outside the directory"
        for op in ("state.digest", "state.checkpoint", "state.close"):
            after = _refused(lambda op=op: engine.call(op, {"store": store}))
            assert after is not None, f"{op} on the handle of a failed close was answered"
            assert after.code == "STATE_NOT_OPEN", f"{op} after a failed close: {after.code}"
            assert after.field == "store", f"{op}: refusal field {after.field!r}"
            assert "store" in after.message, f"{op}: message {after.message!r}"
        (directory / "CURRENT.tmp").unlink()
        reopened = stores.open(directory)
        assert reopened["generation"] == durable["generation"], "not the last durable generation"
        assert reopened["identity"] == oracle.identity(
            oracle.schema_of(engine.capabilities()), oracle.encode_core(kept)
        ), "the reopened state is not the last durable checkpoint"
        assert reopened["turn_count"] == durable["turn_count"], "turn count of the reopen"


STORE_OPS: dict[str, EncodableObject] = {
    "state.apply": {"mutations": [{"op": "turn"}]},
    "state.checkpoint": {},
    "state.digest": {},
    "state.propose": {"proposal": {"lemma": "l", "claim": 1}},
    "state.close": {},
}
"""Every op of the ``state`` capability that takes a store, with valid other arguments."""
UNKNOWN_HANDLES = ("x", "st0", "st1 ", "0" * 64, "\U0001f512")


def _not_open(engine: EngineClient, handle: str, which: str) -> None:
    for op, args in STORE_OPS.items():
        refusal = _refused(lambda op=op, args=args: engine.call(op, {**args, "store": handle}))
        assert refusal is not None, f"{op} on {which} handle {handle!r} was answered"
        assert refusal.code == "STATE_NOT_OPEN", f"{op} on {which} handle: {refusal.code}"
        assert refusal.field == "store", f"{op} on {which} handle: field {refusal.field!r}"
        assert "store" in refusal.message, f"{op}: message {refusal.message!r}"


@requirement(
    "STATE-HANDLE-001",
    "every op that takes a store answers STATE_NOT_OPEN (field store, named in the message) "
    "for a handle that was closed and for one that was never opened, and changes nothing in "
    "the directory",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Refusals (STATE_NOT_OPEN: a store handle is unknown or closed)",
    strategy=lambda ctx: st.text(min_size=1, max_size=16),
    max_examples=4,
    cover=coverage.each("unknown handles", UNKNOWN_HANDLES),
)
def unknown_handles_refused(engine: EngineClient, unknown: str) -> None:
    with scratch() as root, Stores(engine) as stores:
        first, second = root / "first", root / "second"
        closed = stores.open(first)["store"]
        engine.call("state.apply", {"store": closed, "mutations": [{"op": "turn"}]})
        stores.close(closed)
        before = snapshot(first)
        _not_open(engine, closed, "a closed")
        assert snapshot(first) == before, "an op on a closed handle changed the directory"
        live = stores.open(second)["store"]
        if unknown != live:
            _not_open(engine, unknown, "a never opened")
        assert engine.call("state.digest", {"store": live})["turn_count"] == 0, "the open store"
