"""The condition table: every condition of the truth path, held by MC/DC cases.

``conformance/data/cognition/conditions.json`` has one row per condition a sentence of
docs/intents.md or docs/spec.md § Cognition states: the sentences it comes from, its atomic
sub-conditions (``atoms``, each by a letter) and the boolean ``expression`` that joins them
(``and``, ``or``, ``not``, parentheses). Each case gives the value of every atom of its
condition and, labeled from the docs' words, the intent, subject and grounding source of its
last turn and the members of its ``says`` it fixes. A condition is covered (modified
condition/decision coverage) when its cases make it both true and false and, for each atom,
two cases differ in that atom alone and in the condition's value: a port that narrows,
widens, inverts or drops one atom then reads one of them differently.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from conformance.coverage import Case, Plan
from conformance.model import SuiteContext

PACKAGE = "conformance.data.cognition"
CONDITIONS = "rule conditions"
"""Coverage dimension: the conditions whose cases reach MC/DC."""
ATOMS = "condition atoms"
"""Coverage dimension: the atoms (``CD-NN.x``) some pair of cases shows to flip their
condition alone."""
READING = ("intent", "subject", "grounding_source")


def catalogue() -> dict[str, Any]:
    """The shipped condition table: ``keywords``, ``conditions``, ``not_conditions`` and
    ``cases``."""
    text = resources.files(PACKAGE).joinpath("conditions.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def evaluate(expression: str, values: Mapping[str, bool]) -> bool:
    """The value of *expression* (atom letters joined by ``and``, ``or``, ``not`` and
    parentheses) under *values*; ``ValueError`` for any other syntax or an atom *values*
    lacks."""

    def value(node: ast.AST) -> bool:
        if isinstance(node, ast.BoolOp):
            parts = [value(v) for v in node.values]
            return all(parts) if isinstance(node.op, ast.And) else any(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not value(node.operand)
        if isinstance(node, ast.Name) and node.id in values:
            return bool(values[node.id])
        raise ValueError(f"expression {expression!r}: unexpected {ast.dump(node)}")

    return value(ast.parse(expression, mode="eval").body)


def independent_atoms(condition: Mapping[str, Any], cases: list[Mapping[str, Any]]) -> set[str]:
    """The atoms of *condition* for which two of *cases* differ in that atom alone and in the
    condition's value (the unique-cause pairs of MC/DC)."""
    atoms = sorted(condition["atoms"])
    rows = [(c["values"], evaluate(condition["expression"], c["values"])) for c in cases]
    shown = set()
    for atom in atoms:
        for i, (first, first_value) in enumerate(rows):
            for second, second_value in rows[i + 1 :]:
                others = all(first[a] == second[a] for a in atoms if a != atom)
                if others and first[atom] != second[atom] and first_value != second_value:
                    shown.add(atom)
    return shown


def covered(condition: Mapping[str, Any], cases: list[Mapping[str, Any]]) -> bool:
    """Whether *cases* reach MC/DC for *condition*: both outcomes, and every atom shown to
    flip the condition alone."""
    outcomes = {evaluate(condition["expression"], c["values"]) for c in cases}
    return outcomes == {True, False} and independent_atoms(condition, cases) == set(
        condition["atoms"]
    )


def reads(case: Mapping[str, Any]) -> bool:
    """Whether *case* fixes a reading: a subject or grounding source, or an intent alone
    (a case that fixes ``says`` and an intent only is held by what it says)."""
    if "subject" in case or "grounding_source" in case:
        return True
    return "intent" in case and "says" not in case


def _plan(says: bool) -> Plan:
    data = catalogue()
    conditions = {c["id"]: c for c in data["conditions"]}
    wanted = [c for c in data["cases"] if ("says" in c if says else reads(c))]
    classes: list[tuple[str, str]] = []
    scenario = []
    for cid, condition in conditions.items():
        mine = [c for c in wanted if c["condition"] == cid]
        classes += [(ATOMS, f"{cid}.{a}") for a in sorted(independent_atoms(condition, mine))]
        if mine and covered(condition, mine):
            classes.append((CONDITIONS, cid))
        for case in mine:
            truth = evaluate(condition["expression"], case["values"])
            atoms = " ".join(f"{a}={int(v)}" for a, v in sorted(case["values"].items()))
            label = f"{cid} {condition['expression']} = {str(truth).lower()} ({atoms})"
            scenario.append({**case, "rules": [label, *condition["rules"]]})
    universe = (
        (CONDITIONS, len(conditions)),
        (ATOMS, sum(len(c["atoms"]) for c in conditions.values())),
    )
    return Plan((Case(scenario, tuple(classes)),), universe)


def reading_plan(ctx: SuiteContext) -> Plan:
    """Every case that fixes a reading (intent, subject, grounding source) as one scenario,
    tagged with the conditions its cases reach MC/DC for and the atoms they show."""
    del ctx
    return _plan(says=False)


def says_plan(ctx: SuiteContext) -> Plan:
    """Every case that fixes members of ``says`` as one scenario, tagged likewise."""
    del ctx
    return _plan(says=True)
