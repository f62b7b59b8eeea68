"""Journals torn or damaged on disk, read with ``state.journal`` (``repair`` true, false or
left out), then repaired by a writer's open and appended to."""

from __future__ import annotations

import random

from tools.differential.areas.lineage import Lineage, damage_step
from tools.differential.material import Material
from tools.differential.shared import Json

PROPOSALS = [{"x": 1}, {"k": "\u00e9"}, {"n": 10**30}, {}, {"s": "\U0001f600\u2028"}]


def _journal(rng: random.Random, rid: str) -> Json:
    args: dict[str, Json] = {
        "dir": "$dir",
        "name": rng.choice(["proposals", "lineage", "overflow"]),
    }
    roll = rng.randrange(5)
    if roll < 4:
        args["repair"] = [True, False, True, False][roll]
    elif rng.random() < 0.5:
        args["repair"] = rng.choice([None, 1, "true"])
    return {"id": rid, "op": "state.journal", "args": args}


def gen_journals(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A journal case on ``"$dir"``."""
    lineage = Lineage()
    lineage.open()
    for i in range(rng.randint(0, 4)):
        proposal = {"store": {"$handle": lineage.store}, "proposal": rng.choice(PROPOSALS)}
        lineage.case.append({"id": f"p{i}", "op": "state.propose", "args": proposal})
    if rng.random() < 0.7:
        lineage.close()
    for i in range(rng.randint(1, 3)):
        lineage.case.append(damage_step(rng, ["journal_torn", "journal_corrupt"]))
        for k in range(rng.randint(1, 2)):
            lineage.case.append(_journal(rng, f"j{i}.{k}"))
    lineage.close()
    lineage.open()
    proposal = {"store": {"$handle": lineage.store}, "proposal": {"after": 1}}
    lineage.case.append({"id": "after", "op": "state.propose", "args": proposal})
    for k in range(3):
        lineage.case.append(_journal(rng, f"end{k}"))
    lineage.close()
    return lineage.case, {"rvid": None}
