"""The edge catalogue: the branch edges of the reading and grounding rules, case by case.

``conformance/data/cognition/edges.json`` (written by ``python -m tools.edge_cases``) holds
one case per edge: its class (a position, a character class, the latest across turns, an
order of checks), the rule id it exercises, the docs' sentence it comes from, the edge it
tries, and the turns of one fresh unregistered session with the intent, subject and (where
given) grounding source of the last turn, or the members of its ``says`` (capability
``answers``) the docs fix.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from conformance.coverage import Case, Plan
from conformance.model import SuiteContext

PACKAGE = "conformance.data.cognition"
DIMENSION = "edge classes"


def catalogue() -> dict[str, Any]:
    """The shipped edges file: ``classes`` (name and what it covers) and ``cases``."""
    text = resources.files(PACKAGE).joinpath("edges.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _plan(says: bool) -> Plan:
    data = catalogue()
    cases = [case for case in data["cases"] if ("says" in case) == says]
    classes = tuple((DIMENSION, case["class"]) for case in cases)
    universe = len({case["class"] for case in cases})
    return Plan((Case(cases, classes),), ((DIMENSION, universe),))


def edge_plan(ctx: SuiteContext) -> Plan:
    """Every reading edge (intent, subject, grounding source) as one scenario, tagged with the
    edge class of each case."""
    del ctx
    return _plan(says=False)


def says_plan(ctx: SuiteContext) -> Plan:
    """Every edge of what an answer says (the members of ``says`` it fixes) as one scenario."""
    del ctx
    return _plan(says=True)
