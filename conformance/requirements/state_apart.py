"""Stores open side by side in one engine are apart (STATE-APART-001).

Every answer of a state op is defined by the op's own store: its directory and the ops sent
to it (docs/protocol.md § Persisted-state ops; docs/state.md: the next generation is one past
the live one and every ``gen-*`` *on disk*, the pending count is the number of entries of
*its* ``proposals.journal``, ``dirty`` compares the in-memory state with *its* last
checkpoint). So a program over two directories, its ops interleaved in one engine, answers
each store exactly as the same ops on that store alone. A port that
keeps a count, a cache or a high-water mark per process rather than per store (a class-level
pending count, the highest generation seen, a dirty flag) answers one store from the other's
history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, put, scratch

STEPS = (
    "put",
    "turn",
    "delete",
    "refused batch",
    "checkpoint",
    "digest",
    "propose",
    "journal",
    "reopen",
)
"""What one step does to its store: put a record (a new key each time), apply a turn,
delete the last key put, apply a batch refused with ``STATE_BAD_MUTATION``, checkpoint,
read the digest, propose, read ``proposals.journal``, or close and open again."""

Step = tuple[int, str]
PROGRAMS = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from(STEPS)), min_size=2, max_size=14
).filter(lambda steps: len({store for store, _ in steps}) == 2)


def _around(what: str) -> list[Step]:
    """A program that gives *what* to each store between the other's proposals, puts and
    checkpoints, so that anything one store's history leaks into the other's shows."""
    return [
        (0, "propose"),
        (0, "put"),
        (0, "checkpoint"),
        (1, what),
        (1, "propose"),
        (1, "checkpoint"),
        (0, what),
        (1, "digest"),
        (0, "journal"),
        (1, "journal"),
    ]


def programs(ctx: SuiteContext) -> Plan:
    """Every step between the other store's proposals, puts and checkpoints, once."""
    del ctx
    cases = tuple(Case(_around(what), (("steps", what),)) for what in STEPS)
    return Plan(cases, (("steps", len(STEPS)),))


class _Store:
    """One store's handle, directory and the keys it has put, as a program drives it."""

    def __init__(self, stores: Stores, directory: Path) -> None:
        self.stores = stores
        self.directory = directory
        self.keys: list[str] = []
        self.handle = ""
        self.answers: list[object] = []

    def open(self) -> None:
        opened = self.stores.open(self.directory)
        self.handle = opened["store"]
        self.answers.append(("state.open", _apart(opened)))

    def step(self, engine: EngineClient, what: str) -> None:
        self.answers.append((what, _apart(self._answer(engine, what))))

    def _answer(self, engine: EngineClient, what: str) -> object:
        if what == "reopen":
            closed = self.stores.close(self.handle)
            self.open()
            return closed
        if what == "journal":
            args: EncodableObject = {"dir": str(self.directory), "name": "proposals"}
            return engine.call("state.journal", args)
        if what in ("checkpoint", "digest"):
            return engine.call(f"state.{what}", {"store": self.handle})
        if what == "propose":
            proposal = {"n": len(self.answers)}
            return engine.call("state.propose", {"store": self.handle, "proposal": proposal})
        try:
            mutations = self._batch(what)
            args = {"store": self.handle, "mutations": mutations}
            # The refused batch is off the request schema on purpose: sent unchecked.
            return engine.call("state.apply", args, checked=what != "refused batch")
        except EngineRefused as refusal:
            return {"refused": refusal.code}

    def _batch(self, what: str) -> list[EncodableObject]:
        if what == "turn":
            return [{"op": "turn"}]
        if what == "refused batch":
            return [{"op": "turn"}, {"op": "rename"}]
        if what == "delete":
            key = self.keys.pop() if self.keys else "none"
            return [{"op": "delete", "kind": "recognizer", "key": key}]
        key = f"k{len(self.answers)}"
        self.keys.append(key)
        return [put({"kind": "recognizer", "key": key, "pattern": key, "weight": 1})]

    def close(self) -> None:
        self.answers.append(("state.close", _apart(self.stores.close(self.handle))))


def _apart(answer: object) -> object:
    """An answer without the store handle, which names the store, not its state."""
    if isinstance(answer, dict):
        return {key: value for key, value in answer.items() if key != "store"}
    return answer


def _run(engine: EngineClient, root: Path, steps: list[Step], only: int | None) -> list[Any]:
    """Each store's answers to *steps* (those of store *only*, when given) in *engine*."""
    with Stores(engine) as stores:
        drivers = [_Store(stores, root / name) for name in ("a", "b")]
        wanted = [index for index in (0, 1) if only in (None, index)]
        for index in wanted:
            drivers[index].open()
        for index, what in steps:
            if index in wanted:
                drivers[index].step(engine, what)
        for index in wanted:
            drivers[index].close()
        return [drivers[index].answers for index in wanted]


@requirement(
    "STATE-APART-001",
    "two stores open side by side in one engine are apart: a program of puts, turns, "
    "deletes, refused batches, checkpoints, digests, proposals, journal reads, reopens and "
    "closes over two directories, interleaved, answers each store exactly as the same ops on "
    "that store alone (generation, identity, turn count, dirty, pending, "
    "journal entries, refusals, boot events)",
    family="state",
    capabilities=("state",),
    seed="docs/protocol.md § Persisted-state ops (each op answers for its store); "
    "docs/state.md § Commit protocol (N is one more than L and every gen-* on disk; a store "
    "is dirty when its identity or turn count is not its last checkpoint's); § Pending "
    "proposals (the pending count is the number of entries of proposals.journal)",
    strategy=lambda ctx: PROGRAMS,
    max_examples=40,
    cover=programs,
)
def stores_are_apart(engine: EngineClient, steps: list[Step]) -> None:
    alone = []
    for index in (0, 1):
        with scratch() as root:
            alone += _run(engine, root, steps, index)
    with scratch() as root:
        together = _run(engine, root, steps, None)
    for name, mine, theirs in zip("ab", together, alone, strict=True):
        for number, (got, want) in enumerate(zip(mine, theirs, strict=True)):
            assert got == want, (
                f"store {name}, beside another store, answered its step {number} ({got[0]}) "
                f"{got[1]!r}; the same ops on it alone answer {want[1]!r}"
            )
