"""Shrinking a disagreeing case: requests and batch elements dropped while it still
disagrees on the same (op, member)."""

from __future__ import annotations

import copy
from collections.abc import Iterator

from tools.differential.compare import compare_case
from tools.differential.replay import Pair
from tools.differential.shared import Json


def _without_a_request(case: list[Json]) -> Iterator[list[Json]]:
    """*case* with one request dropped, the first first; never empty."""
    for i in range(len(case)):
        candidate = case[:i] + case[i + 1 :]
        if candidate:
            yield candidate


def _without_a_batch_element(case: list[Json]) -> Iterator[list[Json]]:
    """*case* with one element of one of its batches dropped, in order."""
    for i, request in enumerate(case):
        if not isinstance(request, dict) or request.get("op") != "batch":
            continue
        inner = request.get("args", {}).get("requests")
        if not isinstance(inner, list):
            continue
        for j in range(len(inner)):
            smaller = copy.deepcopy(request)
            del smaller["args"]["requests"][j]
            yield case[:i] + [smaller] + case[i + 1 :]


def shrink(
    pair: Pair, case: list[Json], context: dict[str, Json], key: tuple[str, str]
) -> list[Json]:
    """Drop requests (and batch elements) while the case still disagrees on *key*."""

    def still(candidate: list[Json]) -> bool:
        """Whether *candidate* disagrees on *key* first."""
        ra, rb = pair.answers(candidate)
        found = compare_case(candidate, ra, rb, context)
        return found is not None and found[1:] == key

    while True:
        smaller = next((c for c in _without_a_request(case) if still(c)), None)
        if smaller is None:
            smaller = next((c for c in _without_a_batch_element(case) if still(c)), None)
        if smaller is None:
            return case
        case = smaller
