"""One run: the seeded stream of cases sent to two engines, each disagreement shrunk and
kept once per (op, member)."""

from __future__ import annotations

import random
from collections.abc import Callable

from tools.differential.areas import AREAS, CAPABILITY
from tools.differential.compare import compare_case, first_difference
from tools.differential.material import Material
from tools.differential.replay import Pair
from tools.differential.report import Disagreement, Found
from tools.differential.shared import Json
from tools.differential.shrink import shrink


def _claimed_areas(pair: Pair, areas: list[str]) -> list[str]:
    """The *areas* whose capability both engines claim in ``hello``."""
    hellos = [e.send(b'{"id":0,"op":"hello"}') for e in pair.engines]
    claimed = set(hellos[0]["result"]["capabilities"]) & set(hellos[1]["result"]["capabilities"])
    return [a for a in areas if CAPABILITY.get(a, "") in claimed or a not in CAPABILITY]


def _lexicon_found(lexicons: list[Json]) -> Found:
    """A disagreement on ``lexicon.list`` when the two engines list different lexicons."""
    where = first_difference(lexicons[0], lexicons[1])
    if where is None:
        return {}
    stream: list[Json] = [{"id": 0, "op": "lexicon.list"}]
    answers = (lexicons[0], lexicons[1])
    return {("lexicon.list", where): Disagreement("lexicon.list", "", stream, answers, "lexicon")}


def _shrunk(
    pair: Pair, case: list[Json], context: dict[str, Json], key: tuple[str, str], area: str
) -> Disagreement:
    """The disagreement *case* shows on *key*, shrunk, with the answers that show it."""
    small = shrink(pair, case, context, key)
    ra, rb = pair.answers(small)
    at = compare_case(small, ra, rb, context)
    index = at[0] if at else len(small) - 1
    return Disagreement(key[0], key[1], small, (ra[index], rb[index]), area)


def _keep(
    found: Found,
    pair: Pair,
    case: list[Json],
    context: dict[str, Json],
    key: tuple[str, str],
    area: str,
) -> bool:
    """Count *case* under *key*, and keep it shrunk unless a shorter stream is kept;
    whether it was kept."""
    count = 1
    if key in found:
        found[key].count += 1
        if len(case) >= len(found[key].stream):
            return False
        count = found[key].count
    found[key] = _shrunk(pair, case, context, key, area)
    found[key].count = count
    return True


def _send_stream(
    pair: Pair,
    areas: list[str],
    material: Material,
    seed: int,
    requests: int,
    found: Found,
    log: Callable[[str], None],
) -> int:
    """Send the cases of *seed* until about *requests* requests were sent, keeping each
    disagreement in *found*; the number sent."""
    rng = random.Random(seed)
    sent = 0
    while sent < requests:
        area = areas[sent * len(areas) // requests] if areas else "lines"
        case, context = AREAS[area](rng, material)
        ra, rb = pair.answers(case)
        sent += len(case)
        hit = compare_case(case, ra, rb, context)
        if hit is not None and _keep(found, pair, case, context, hit[1:], area):
            log(f"[{area}] {hit[1]} {hit[2]}: {len(found[hit[1:]].stream)} request(s)")
    return sent


def run(
    seed: int,
    requests: int,
    areas: list[str],
    command_a: str,
    command_b: str,
    log: Callable[[str], None] = lambda s: None,
) -> tuple[Found, int]:
    """Run the areas' cases until about *requests* requests were sent; returns the
    disagreements by (op, member) and the number of requests sent."""
    pair = Pair(command_a, command_b)
    try:
        areas = _claimed_areas(pair, areas)
        lexicons = [e.send(b'{"id":0,"op":"lexicon.list"}') for e in pair.engines]
        found = _lexicon_found(lexicons)
        material = Material.load(lexicons[0])
        sent = _send_stream(pair, areas, material, seed, requests, found, log)
        return found, sent
    finally:
        pair.close()
