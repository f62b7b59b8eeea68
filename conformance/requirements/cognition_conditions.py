"""Every condition of the truth path holds at its MC/DC cases (COG-COND-251 for the reading
and grounding, COG-COND-252 for what an answer says).

A sentence of docs/intents.md or docs/spec.md § Cognition that states a condition (if, when,
only, unless, otherwise, else, either/or, a conjunction of requirements) is a row of the
condition table (``conformance/conditions.py``): its atoms and the expression joining them,
with cases that make the whole condition true and false and flip each atom alone. A port
that implements a condition in part (one atom narrowed, widened, inverted or dropped) reads
one of those cases otherwise.
"""

from __future__ import annotations

from typing import Any

from conformance import conditions
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.cognition import catalogue_holds
from conformance.requirements.registry import requirement

BREAKS = "condition cases break their conditions"
SEED = (
    "docs/intents.md § How a prompt is read, § Subjects, § Cue words, § Answers, § What an "
    "answer says; docs/spec.md § Cognition (grounding rules): every condition they state"
)


def _reading(case: dict[str, Any], last: Any) -> list[str]:
    return [
        f"{key} {last.get(key)!r}, the docs say {case[key]!r}"
        for key in conditions.READING
        if key in case and last.get(key) != case[key]
    ]


def _says(case: dict[str, Any], last: Any) -> list[str]:
    found = []
    if "intent" in case and last.get("intent") != case["intent"]:
        found.append(f"intent {last.get('intent')!r}, the docs say {case['intent']!r}")
    says = member(last, "says", "object")
    for key, expected in case["says"].items():
        value = member(says, key)
        if value != expected:
            found.append(f"says.{key} {value!r}, the docs say {expected!r}")
    return found


@requirement(
    "COG-COND-251",
    "every condition of the reading and grounding rules holds at its MC/DC cases: the whole "
    "condition true and false, and each atomic sub-condition alone flipping it (intent, "
    "subject and grounding source as the docs' words fix them)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed=SEED,
    cover=conditions.reading_plan,
)
def reading_conditions_hold(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    catalogue_holds(engine, cases, _reading, BREAKS)


@requirement(
    "COG-COND-252",
    "every condition of what an answer says holds at its MC/DC cases: the says members a "
    "condition decides (verdict and evidence, checked statement, way, start, compared, "
    "earlier, claim, words not grounded) with the whole condition true and false and each "
    "atomic sub-condition alone flipping it",
    family="cognition",
    capabilities=("sessions", "answers"),
    seed=SEED,
    cover=conditions.says_plan,
)
def says_conditions_hold(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    catalogue_holds(engine, cases, _says, BREAKS)
