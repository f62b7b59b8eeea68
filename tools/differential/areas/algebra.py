"""Algebra cases: one call of each algebra op on dense, sparse, scaled or degenerate
multivectors, rarely with a malformed argument."""

from __future__ import annotations

import random

from tools.differential.material import Material
from tools.differential.shared import Json

PLANES = [3, 5, 6, 9, 10, 12, 17, 18, 20, 24]
"""The blade indices of the bivectors e_i e_j."""


def _mv(rng: random.Random, kind: str | None = None) -> list[Json]:
    """A multivector of *kind* (drawn when None): 32 coefficients."""
    kind = kind or rng.choice(["dense", "sparse", "int", "scaled", "vector", "bivector"])
    mv: list[Json] = [0] * 32
    if kind == "dense":
        mv = [rng.uniform(-2, 2) for _ in range(32)]
    elif kind == "sparse":
        for _ in range(rng.randint(1, 4)):
            mv[rng.randrange(32)] = rng.uniform(-3, 3)
    elif kind == "int":
        mv = [rng.randint(-3, 3) for _ in range(32)]
    elif kind == "scaled":
        mv = [rng.uniform(-1, 1) * 2.0 ** rng.randint(-60, 60) for _ in range(32)]
    elif kind == "vector":
        for m in (1, 2, 4, 8, 16):
            mv[m] = rng.uniform(-2, 2)
    else:
        plane = rng.choice(PLANES)
        mv[plane] = rng.choice([rng.uniform(-3, 3), 1, 2.0**-50, 2.0**40])
    return mv


def _hyperbolic(rng: random.Random) -> list[Json]:
    """A hyperbolic or null plane: e_i e5 with e_i squared."""
    bivector: list[Json] = [0] * 32
    bivector[16 | rng.choice([1, 2, 4, 8])] = rng.uniform(-1, 1)
    if rng.random() < 0.5:
        bivector[rng.choice([3, 5, 6, 9, 10, 12])] = bivector[16 | 1] or 0.5
    return bivector


def _near_bounds(rng: random.Random) -> list[Json]:
    """sigma near the null band, or <B B>_4 near the simplicity bound."""
    a = rng.uniform(0.1, 4) * 2.0 ** rng.randint(-20, 20)
    bivector: list[Json] = [0] * 32
    if rng.random() < 0.5:
        bivector[9], bivector[17] = a, a * (1 + rng.choice([-1, 1]) * rng.uniform(0, 2e-12))
    else:
        bivector[3], bivector[12] = a, a * rng.uniform(0, 1e-10)
    return bivector


def _rotor_args(rng: random.Random) -> dict[str, Json]:
    bivector = _mv(rng, "bivector")
    if rng.random() < 0.3:
        bivector[rng.choice(PLANES)] = rng.uniform(-1, 1)
    if rng.random() < 0.3:
        bivector = _hyperbolic(rng)
    if rng.random() < 0.3:
        bivector = _near_bounds(rng)
    return {
        "bivector": bivector,
        "angle": rng.choice([rng.uniform(-3.2, 3.2), rng.uniform(-64, 64), 0, 64, 64.5]),
    }


def _args(rng: random.Random, op: str) -> dict[str, Json]:
    if op == "product":
        return {"a": _mv(rng), "b": _mv(rng)}
    if op == "reverse":
        return {"a": _mv(rng)}
    if op == "grade":
        return {"a": _mv(rng), "grade": rng.choice([0, 1, 2, 3, 4, 5, 6, -1])}
    if op == "rotor":
        return _rotor_args(rng)
    if op == "versor_apply":
        return {"versor": _mv(rng, rng.choice(["vector", "sparse", "int"])), "x": _mv(rng)}
    return {"versor": _mv(rng)}


def gen_algebra(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """One algebra request; no context."""
    op = rng.choice(["product", "reverse", "grade", "rotor", "versor_apply", "versor_condition"])
    args = _args(rng, op)
    if rng.random() < 0.05:
        key = rng.choice(sorted(args))
        args[key] = rng.choice([[0] * 31, [None] * 32, "x", [1e51] + [0] * 31, [True] + [0] * 31])
    return [{"id": 1, "op": f"algebra.{op}", "args": args}], {}
