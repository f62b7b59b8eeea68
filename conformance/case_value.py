"""The order a budgeted run takes a coverage plan's cases in: most defect-finding value per
second first.

Before the run no case has a measured cost, so a case's cost is its size (the turns of
a script, the requests a scenario stands for: :func:`weight`), and its value is the
classes it exercises that no earlier case did. Cases are taken greedily among those
adding a new class: most recorded defects first (*hits*, :mod:`conformance.case_history`),
then most new classes per unit of cost, so every class is exercised as early as possible
(class coverage first) and, of the cases that do so, those that found defects before
lead. Cases that add no new class follow: those with recorded defects (most first), then
the others in plan order. A cut at any point then leaves out the cases worth least.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.coverage import Case


def weight(scenario: Any) -> int:
    """About how many requests *scenario* costs: the leaves of its lists and tuples (a
    script of 12 prompts is 12, a pack or a single prompt is 1), at least 1."""
    if isinstance(scenario, list | tuple):
        return max(1, sum(weight(item) for item in scenario))
    return 1


def by_value(cases: Sequence[Case], hits: Sequence[int] | None = None) -> list[int]:
    """Indices of *cases* in the order a budgeted run takes them; *hits* are the recorded
    defects each case exposed (none by default)."""
    found = list(hits) if hits is not None else [0] * len(cases)
    seen: set[tuple[str, str]] = set()
    left = list(range(len(cases)))
    costs = [weight(case.scenario) for case in cases]
    order: list[int] = []
    while left:
        best, best_value = None, (0, 0.0)
        for index in left:
            new = len(set(cases[index].classes) - seen)
            value = (found[index], new / costs[index])
            if new and (best is None or value > best_value):
                best, best_value = index, value
        if best is None:
            order += sorted(left, key=lambda index: -found[index])
            break
        order.append(best)
        left.remove(best)
        seen |= set(cases[best].classes)
    return order
