"""``state.soak`` on fresh, lived-on and damaged directories (a generation past
``CURRENT``, debris, a LOCK left behind, a store open by this engine), its events and
result compared, then the directory read back."""

from __future__ import annotations

import random

from tools.differential.areas.lineage import Lineage, damage_step
from tools.differential.material import Material
from tools.differential.shared import Json


def _soak_args(rng: random.Random) -> dict[str, Json]:
    args: dict[str, Json] = {
        "dir": "$dir",
        "iterations": rng.choice([0, 1, 2, 3, 5]),
        "seed": rng.choice([0, 1, 7, 2**31, 2**53 - 1]),
    }
    if rng.random() < 0.1:
        args[rng.choice(["iterations", "seed"])] = rng.choice([-1, 1.5, "1", None, 2**64])
    if rng.random() < 0.05:
        del args[rng.choice(["iterations", "seed", "dir"])]
    return args


def gen_soak(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A soak case on ``"$dir"``."""
    lineage = Lineage()
    if rng.random() < 0.6:
        lineage.work(rng, m, rng.randint(1, 3))
        if rng.random() < 0.8:
            lineage.close()
    for _ in range(rng.randint(0, 2)):
        lineage.case.append(
            damage_step(
                rng,
                [
                    "stray",
                    "lock_left",
                    "current",
                    "journal_torn",
                    "delta",
                    "manifest_edited",
                    "data_removed",
                ],
            )
        )
    for i in range(rng.randint(1, 2)):
        lineage.case.append({"id": f"soak{i}", "op": "state.soak", "args": _soak_args(rng)})
    lineage.close()
    lineage.read(rng)
    lineage.open()
    lineage.close()
    return lineage.case, {"rvid": None}
