"""Shared steps of the state areas that damage a directory: a lineage built by checkpoints
(and sessions living on the store), damage between requests, and what is read after it."""

from __future__ import annotations

import random

from tools.differential.areas.state import _living_session, _mutation, _store_request
from tools.differential.damage import DAMAGE
from tools.differential.material import Material
from tools.differential.shared import Json


def damage_step(rng: random.Random, names: list[str] | None = None) -> Json:
    """One damage step, of *names* (default: any)."""
    return {"$damage": rng.choice(names or list(DAMAGE)), "pick": rng.randrange(1000)}


class Lineage:
    """A case under construction: the requests so far and the handles opened."""

    def __init__(self) -> None:
        self.case: list[Json] = []
        self.handles = 0
        self.store: int | None = None  # the handle of the open store, if any
        self.n = 0

    def rid(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def open(self) -> None:
        self.case.append({"id": self.rid("open"), "op": "state.open", "args": {"dir": "$dir"}})
        self.store, self.handles = self.handles, self.handles + 1

    def close(self) -> None:
        if self.store is not None:
            store = {"$handle": self.store}
            self.case.append(
                {"id": self.rid("close"), "op": "state.close", "args": {"store": store}}
            )
            self.store = None

    def work(self, rng: random.Random, m: Material, steps: int) -> None:
        """*steps* requests on the open store: mutations, checkpoints, proposals, a
        session living on it."""
        if self.store is None:
            self.open()
        for _ in range(steps):
            store = {"$handle": self.store}
            roll = rng.randrange(8)
            if roll <= 3:
                muts = [_mutation(rng) for _ in range(rng.randint(1, 3))]
                args = {"store": store, "mutations": muts}
                self.case.append({"id": self.rid("a"), "op": "state.apply", "args": args})
                self.case.append(
                    {"id": self.rid("k"), "op": "state.checkpoint", "args": {"store": store}}
                )
            elif roll <= 5:
                self.case.append(_store_request(rng, rng.randrange(7), self.n + 100, store))
                self.n += 1
            elif roll == 6:
                self.case.extend(_living_session(rng, m, self.n, store, self.handles))
                self.handles += 1
                self.n += 1
            else:
                op = rng.choice(["state.checkpoint", "state.trace_checkpoint"])
                self.case.append({"id": self.rid("t"), "op": op, "args": {"store": store}})

    def read(self, rng: random.Random) -> None:
        """What a reader sees: a load, and a journal read or repaired."""
        self.case.append({"id": self.rid("load"), "op": "state.load", "args": {"dir": "$dir"}})
        journal = {"dir": "$dir", "name": rng.choice(["proposals", "lineage", "overflow"])}
        if rng.random() < 0.5:
            journal["repair"] = rng.choice([True, False])
        self.case.append({"id": self.rid("j"), "op": "state.journal", "args": journal})
