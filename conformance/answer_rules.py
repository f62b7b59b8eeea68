"""The answer catalogue: what an answer says, rule by rule (docs/intents.md § Answers).

``conformance/data/cognition/answers.json`` (and the files of ``EXTRA``) names every
normative sentence of § Answers that an answer's ``says`` object states (capability
``answers``), each by an ``A-*`` id with the sentence it comes from, and holds cases labeled
from the docs, each tagged with the rules it exercises. A case is plain JSON: the turns of
one fresh unregistered session, the intent of its last turn and the members of that turn's
``says`` the case fixes.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from conformance.coverage import Case, Plan
from conformance.model import SuiteContext

PACKAGE = "conformance.data.cognition"
DIMENSION = "answer rules"
EXTRA = ("answers_referring.json",)
"""Further catalogue files whose ``rules`` and ``cases`` follow those of ``answers.json``, in
order: a statement without predicate words, a checked statement that refers back, the turns
that name a subject."""
SAYS_MEMBERS = (
    "by",
    "checked",
    "claim",
    "compared",
    "earlier",
    "said",
    "spans",
    "start",
    "steps",
    "unknown",
    "verdict",
    "way",
)
"""Every member of ``says``, in sorted order (docs/intents.md § What an answer says)."""


def catalogue() -> dict[str, Any]:
    """The shipped answer catalogue: ``rules`` (id and sentence) and ``cases``, in file order,
    those of ``answers.json`` first, then those of each file of ``EXTRA``."""
    folder = resources.files(PACKAGE)
    data: dict[str, Any] = json.loads(folder.joinpath("answers.json").read_text("utf-8"))
    for name in EXTRA:
        extra = json.loads(folder.joinpath(name).read_text("utf-8"))
        data["rules"] = [*data["rules"], *extra["rules"]]
        data["cases"] = [*data["cases"], *extra["cases"]]
    return data


def case(case_id: str) -> dict[str, Any]:
    """The catalogue case *case_id* (``KeyError`` for an id the catalogue lacks)."""
    cases: dict[str, dict[str, Any]] = {c["id"]: c for c in catalogue()["cases"]}
    return cases[case_id]


def answer_plan(ctx: SuiteContext) -> Plan:
    """The ids of every case of the catalogue as one scenario (a shrunk failure is a shorter
    list of ids, never an edited case), tagged with the rules its cases exercise."""
    del ctx
    data = catalogue()
    cases = data["cases"]
    classes = tuple((DIMENSION, rule) for case in cases for rule in case["rules"])
    ids = [case["id"] for case in cases]
    return Plan((Case(ids, classes),), ((DIMENSION, len(data["rules"])),))
