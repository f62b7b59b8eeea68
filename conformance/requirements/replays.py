"""The coverage cases of other requirements, run again through a forwarding engine that adds
a second request after each one it sees (a metamorphic relation between the two answers).

A requirement built on this draws ``[requirement id, scenario]`` from the coverage plans of
the requirements *chosen* picks, runs that requirement's check against a :class:`Forwarding`
engine, and judges only what the forwarding engine kept: the case's own verdict is reported
under its own requirement.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient, EngineRefused
from conformance.model import Requirement, SuiteContext
from conformance.requirements.registry import REGISTRY

Chooser = Callable[[str, Requirement], bool]


def chosen_ids(chosen: Chooser) -> list[str]:
    """The ids of the requirements with a coverage plan that *chosen* picks, sorted."""
    return sorted(
        rid for rid, found in REGISTRY.items() if found.cover is not None and chosen(rid, found)
    )


def items(ctx: SuiteContext, chosen: Chooser) -> list[list[Any]]:
    """``[requirement id, scenario]`` for every coverage case of every chosen requirement."""
    return [
        [rid, case.scenario]
        for rid in chosen_ids(chosen)
        for case in REGISTRY[rid].cover(ctx).cases  # type: ignore[misc]  # chosen have one
    ]


def planner(chosen: Chooser) -> Callable[[SuiteContext], Plan]:
    """A coverage plan of every item of :func:`items`, one class per requirement."""

    def plan(ctx: SuiteContext) -> Plan:
        found = items(ctx, chosen)
        cases = tuple(Case(item, (("requirement", item[0]),)) for item in found)
        return Plan(cases, (("requirement", len({item[0] for item in found})),))

    return plan


class Forwarding:
    """*engine* with every attribute forwarded; subclasses add to :meth:`call` or
    :meth:`raw` and keep what they find in :attr:`problems`."""

    def __init__(self, engine: EngineClient) -> None:
        self._engine = engine
        self.problems: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)


def run_case(forwarding: Forwarding, item: list[Any]) -> None:
    """Run the check of *item*'s requirement on its scenario through *forwarding*; its own
    failure is its requirement's to report."""
    rid, scenario = item
    with contextlib.suppress(AssertionError, EngineRefused):
        REGISTRY[rid].check(forwarding, scenario)  # type: ignore[arg-type]  # forwards all
