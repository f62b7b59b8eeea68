"""The rule catalogue: every rule of docs/intents.md and docs/spec.md § Cognition by id.

``conformance/data/cognition/rules.json`` (and the files of ``EXTRA``) names each rule (the
id of a form of the table of forms, a cue-word row, a reading step, a subject, folding or
grounding rule) and holds cases labeled from the docs, each tagged with the rules it
exercises. A case is plain JSON: the turns of one fresh unregistered session, and the
intent, subject and (where given) grounding source of its last turn.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from conformance.coverage import Case, Plan
from conformance.model import SuiteContext

PACKAGE = "conformance.data.cognition"
DIMENSION = "rules"
EXTRA = ("rules_referring.json",)
"""Further catalogue files whose ``rules`` and ``cases`` follow those of ``rules.json``, in
order: the words that refer back, the terms a slot names and the sentence that decides."""


def catalogue() -> dict[str, Any]:
    """The shipped catalogue: ``rules`` (id and rule) and ``cases``, in file order, those of
    ``rules.json`` first, then those of each file of ``EXTRA``."""
    folder = resources.files(PACKAGE)
    data: dict[str, Any] = json.loads(folder.joinpath("rules.json").read_text("utf-8"))
    for name in EXTRA:
        extra = json.loads(folder.joinpath(name).read_text("utf-8"))
        data["rules"] = [*data["rules"], *extra["rules"]]
        data["cases"] = [*data["cases"], *extra["cases"]]
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


@functools.cache
def function_words() -> tuple[str, ...]:
    """The closed list of function words of docs/intents.md § Subjects, in its order (read
    once: the catalogue is shipped data)."""
    return tuple(catalogue()["function_words"])


def function_word_plan(ctx: SuiteContext) -> Plan:
    """Every function word, each asked about alone (``What is <word>?``)."""
    del ctx
    words = function_words()
    return Plan(
        (Case(list(words), tuple(("function words", w) for w in words)),),
        (("function words", len(words)),),
    )
