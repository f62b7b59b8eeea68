"""Damaged stores: a lineage of checkpoints (sessions living on it), the directory damaged
on disk between requests (manifests, generation files, pointer, strays, a LOCK left
behind, journals, a delta whose base is gone), then loads, opens, checkpoints and prunes
of the lineage after it, and a session resumed on the damaged store."""

from __future__ import annotations

import random

from tools.differential.areas.chat import chat_turn
from tools.differential.areas.lineage import Lineage, damage_step
from tools.differential.material import REGISTERS, Material
from tools.differential.prompts import prompt
from tools.differential.shared import Json


def gen_damage(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A damaged-store case on ``"$dir"``."""
    lineage = Lineage()
    for _life in range(rng.randint(1, 2)):
        lineage.work(rng, m, rng.randint(1, 5))
        if rng.random() < 0.7:
            lineage.close()
    if rng.random() < 0.5:
        lineage.case.append(damage_step(rng, ["delta"]))
    for _ in range(rng.randint(1, 3)):
        lineage.case.append(damage_step(rng))
    lineage.read(rng)
    lineage.close()
    lineage.open()
    if rng.random() < 0.4:
        lineage.case.append(
            {
                "id": "resumed",
                "op": "session.open",
                "args": {"register_id": rng.choice(REGISTERS), "store": {"$handle": lineage.store}},
            }
        )
        handle = lineage.handles
        lineage.handles += 1
        for t in range(rng.randint(1, 2)):
            lineage.case.append(chat_turn(f"r{t}", handle, prompt(rng, m)))
    lineage.work(rng, m, rng.randint(0, 3))
    if rng.random() < 0.3:
        lineage.case.append(damage_step(rng))
        lineage.work(rng, m, 1)
    lineage.close()
    lineage.read(rng)
    lineage.open()
    lineage.close()
    return lineage.case, {"rvid": None}
