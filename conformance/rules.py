"""The rule catalogue: every rule of docs/intents.md and docs/spec.md § Cognition by id.

``conformance/data/cognition/rules.json`` names each rule (the id of a form of the table of
forms, a cue-word row, a reading step, a subject, folding or grounding rule) and holds
cases labeled from the docs, each tagged with the rules it exercises. A case is plain
JSON: the turns of one fresh unregistered session, and the intent, subject and (where
given) grounding source of its last turn.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from conformance.coverage import Case, Plan
from conformance.model import SuiteContext

PACKAGE = "conformance.data.cognition"
DIMENSION = "rules"


def catalogue() -> dict[str, Any]:
    """The shipped catalogue: ``rules`` (id and rule) and ``cases``, in file order."""
    text = resources.files(PACKAGE).joinpath("rules.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def rule_ids() -> tuple[str, ...]:
    """Every rule id of the catalogue, in order."""
    return tuple(rule["id"] for rule in catalogue()["rules"])


def rule_plan(ctx: SuiteContext) -> Plan:
    """Every case of the catalogue as one scenario, tagged with the rules its cases exercise."""
    del ctx
    data = catalogue()
    cases = data["cases"]
    classes = tuple((DIMENSION, rule) for case in cases for rule in case["rules"])
    return Plan((Case(cases, classes),), ((DIMENSION, len(data["rules"])),))


def function_words() -> tuple[str, ...]:
    """The closed list of function words of docs/intents.md § Subjects, in its order."""
    return tuple(catalogue()["function_words"])


def function_word_plan(ctx: SuiteContext) -> Plan:
    """Every function word, each asked about alone (``What is <word>?``)."""
    del ctx
    words = function_words()
    return Plan(
        (Case(list(words), tuple(("function words", w) for w in words)),),
        (("function words", len(words)),),
    )
