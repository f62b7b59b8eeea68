"""``overrides.resolve`` cases: realizer overrides, well formed or not, and an intent."""

from __future__ import annotations

import random

from tools.differential.material import INTENTS, Material
from tools.differential.shared import Json


def _override_value(rng: random.Random) -> Json:
    return rng.choice([1, 2, 3, 0, 4, -1, 2.0, "2", None, True, [2], {"x": 1}, 10**30, 1.5])


def _per_intent(rng: random.Random) -> Json:
    """A ``per_intent`` member: a few intents (some in lower case), or not an object."""
    per: Json = {}
    for intent in rng.sample(INTENTS, rng.randint(0, 3)):
        per[intent if rng.random() < 0.85 else intent.lower()] = rng.choice(
            [
                {"disclosure_domain_count": _override_value(rng)},
                {},
                _override_value(rng),
                {"other": 2},
            ]
        )
    return per if rng.random() < 0.9 else rng.choice([[], "x", None, 3])


def _overrides(rng: random.Random) -> dict[str, Json]:
    overrides: dict[str, Json] = {}
    if rng.random() < 0.7:
        overrides["disclosure_domain_count"] = _override_value(rng)
    if rng.random() < 0.6:
        overrides["per_intent"] = _per_intent(rng)
    if rng.random() < 0.1:
        overrides["unrelated"] = 1
    return overrides


def gen_overrides(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """One ``overrides.resolve`` request; no context."""
    overrides = _overrides(rng)
    intent = (
        rng.choice(INTENTS)
        if rng.random() < 0.9
        else rng.choice(["definition", "CAUSE ", "", 3, None, "UNREGISTERED"])
    )
    args: dict[str, Json] = {"realizer_overrides": overrides, "intent": intent}
    if rng.random() < 0.05:
        args["realizer_overrides"] = rng.choice([[], "x", None])
    return [{"id": 1, "op": "overrides.resolve", "args": args}], {}
