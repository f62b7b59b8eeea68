"""``batch`` cases: a batch of up to five elements, well formed or not."""

from __future__ import annotations

import random

from tools.differential.areas.chat import chat_turn
from tools.differential.areas.overrides import gen_overrides
from tools.differential.material import REGISTERS, Material
from tools.differential.prompts import prompt
from tools.differential.shared import Json


def _element(rng: random.Random, m: Material) -> Json:
    """One element of a batch: a request of some area, a nested batch, or not a request."""
    roll = rng.randrange(8)
    if roll == 0:
        return rng.choice([1, "x", None, [], True, 2.5])
    if roll == 1:
        return {"id": rng.choice([1, None, 1.5, True, "e"]), "op": rng.choice(["hello", "nope", 3])}
    if roll == 2:
        return {"id": "o", "op": "session.open", "args": {"register_id": rng.choice(REGISTERS)}}
    if roll == 3:
        return chat_turn("c", 0, prompt(rng, m))
    if roll == 4:
        return {"id": "b", "op": "batch", "args": {"requests": []}}
    if roll == 5:
        return gen_overrides(rng, m)[0][0]
    if roll == 6:
        return {"id": "x", "op": "session.close", "args": {"session": {"$handle": 0}}}
    return {"id": "l", "op": "lexicon.list", "args": rng.choice([{}, {"x": 1}, []])}


def gen_batch(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """One ``batch`` request, its args rarely malformed; ``rvid`` unknown."""
    inner = [_element(rng, m) for _ in range(rng.randint(0, 5))]
    args: Json = {"requests": inner}
    if rng.random() < 0.05:
        args = rng.choice([{"requests": "x"}, {}, {"requests": inner, "more": 1}])
    return [{"id": 1, "op": "batch", "args": args}], {"rvid": None}
