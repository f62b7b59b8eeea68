"""Chat cases: a session under one register, a few turns, maybe a turn after closing."""

from __future__ import annotations

import dataclasses
import random

from tools.differential.material import REGISTERS, Material
from tools.differential.prompts import prompt
from tools.differential.shared import Json


def rvid(pack: Json | None) -> Json:
    """Whether register_variant_id is "" whatever the draw (True/False), else None."""
    if pack is None:
        return True
    markers = pack.get("discourse_markers")
    if not isinstance(markers, dict):
        return None
    opens, closes = markers.get("openings", []), markers.get("closings", [])
    if not isinstance(opens, list) or not isinstance(closes, list):
        return None
    if not opens and not closes:
        return True
    if (opens and "" not in opens) or (closes and "" not in closes):
        return False
    return None


def _long_claim(rng: random.Random, m: Material) -> str:
    """A claim past the 160 code points a vault keeps of a text, astral letters inside."""
    a = rng.choice(m.lemmas)
    filler = rng.choice(
        ["\U0001d400\U0001d401 ", "\u00e9t\u00e9 ", "word ", "\U0001f600 ", "e\u0301 "]
    )
    return f"No, {a} is {filler * rng.randint(25, 45)}".rstrip() + rng.choice([".", "", "!"])


def chat_turn(turn_id: Json, session: int, text: str) -> Json:
    """A ``session.chat`` request on the case's *session*-th handle."""
    return {
        "id": turn_id,
        "op": "session.chat",
        "args": {"session": {"$handle": session}, "text": text},
    }


def gen_chat(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A chat case and its context (``rvid``: see :func:`rvid`)."""
    if rng.random() < 0.6:  # a few lemmas per session, so turns refer to each other
        m = dataclasses.replace(m, lemmas=rng.sample(m.lemmas, 3))
    register = rng.choice(REGISTERS)
    case: list[Json] = [{"id": 0, "op": "session.open", "args": {"register_id": register}}]
    for i in range(rng.randint(1, 8)):
        text = _long_claim(rng, m) if rng.random() < 0.08 else prompt(rng, m)
        case.append(chat_turn(i + 1, 0, text))
    if rng.random() < 0.3:
        case.append({"id": "close", "op": "session.close", "args": {"session": {"$handle": 0}}})
        case.append(chat_turn("after", 0, "hi"))
    return case, {"rvid": rvid(m.packs.get(register) if register else None)}
