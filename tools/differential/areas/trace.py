"""``state.trace_checkpoint``: the file operations of commits from a fresh directory, past
debris and a generation a crash left beyond ``CURRENT``, after a fall back, and their
prunes."""

from __future__ import annotations

import random

from tools.differential.areas.lineage import Lineage, damage_step
from tools.differential.areas.state import _mutation
from tools.differential.material import Material
from tools.differential.shared import Json


def gen_trace(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A trace case on ``"$dir"``."""
    lineage = Lineage()
    for _life in range(rng.randint(1, 3)):
        lineage.open()
        for _ in range(rng.randint(1, 3)):
            store = {"$handle": lineage.store}
            if rng.random() < 0.7:
                muts = [_mutation(rng) for _ in range(rng.randint(1, 2))]
                lineage.case.append(
                    {
                        "id": lineage.rid("a"),
                        "op": "state.apply",
                        "args": {"store": store, "mutations": muts},
                    }
                )
            if rng.random() < 0.2:
                lineage.case.append(damage_step(rng, ["stray", "lock_left", "journal_torn"]))
            lineage.case.append(
                {"id": lineage.rid("t"), "op": "state.trace_checkpoint", "args": {"store": store}}
            )
        lineage.close()
        if rng.random() < 0.6:
            lineage.case.append(damage_step(rng))
    lineage.read(rng)
    return lineage.case, {"rvid": None}
