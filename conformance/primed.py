"""The primed catalogue: every one-turn case of the rule and condition catalogues, read
again after a turn with a subject: one the lexicon knows, one it does not, and one written in
another form than its lemma (`rivers`, whose subject stays as written: docs/intents.md
§ Subjects), so the latest subject a case takes is the word as written (COG-PRIMED-001).

A turn takes the session's latest subject only through a slot that refers back
(docs/intents.md § Subjects). So a case with a subject whose prompt holds no word that could
refer back reads the same after the primer, and a case without a subject reads either
nothing (``null``) or the primer's subject (``primer``), as ``primed.json`` labels it from
the docs' words.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any

from conformance import conditions, rules
from conformance.coverage import Case, Plan
from conformance.model import SuiteContext

DIMENSION = "primed cases"
_WORD = re.compile(r"[^\W\d_]+")


@functools.cache
def labels() -> dict[str, Any]:
    """The shipped ``primed.json``: the primer, the words that could refer back, and the
    label of each one-turn case without a subject."""
    folder = resources.files(rules.PACKAGE)
    data: dict[str, Any] = json.loads(folder.joinpath("primed.json").read_text("utf-8"))
    return data


def _one_edit(word: str, target: str) -> bool:
    """Whether step 2 could mend *word* into *target*: two adjacent letters swapped, or one
    inner letter left out."""
    if len(word) == len(target):
        return any(
            word == target[:i] + target[i + 1] + target[i] + target[i + 2 :]
            for i in range(len(target) - 1)
        )
    return len(word) + 1 == len(target) and any(
        word == target[:i] + target[i + 1 :] for i in range(1, len(target) - 1)
    )


def could_refer(prompt: str) -> bool:
    """Whether a word of *prompt* refers back, or is spelt or mended into one that does."""
    data = labels()
    spelt = set(data["refer_words"]) | set(data["refer_spellings"])
    for word in _WORD.findall(prompt.lower()):
        if word in spelt or any(_one_edit(word, t) for t in data["mended_to_refer"]):
            return True
    return False


def one_turn_cases() -> list[dict[str, Any]]:
    """Every one-turn case of the rule catalogue and every one-turn reading case of the
    condition catalogue, in that order."""
    found = [c for c in rules.catalogue()["cases"] if len(c["turns"]) == 1]
    found += [
        c for c in conditions.catalogue()["cases"] if conditions.reads(c) and len(c["turns"]) == 1
    ]
    return [c for c in found if "subject" in c]


def primed_cases() -> list[dict[str, Any]]:
    """Each case COG-PRIMED-001 reads after each primer: the primer's turn first, with the
    ``subject`` the case must then have: its own (a case that could not refer back), else
    its label's, and the label's reason last among its ``rules``."""
    data = labels()
    found = []
    for primer, primer_subject in data["primers"]:
        for case in one_turn_cases():
            turns = [primer, *case["turns"]]
            tags = case.get("rules", [case.get("condition", "")])
            label = data["cases"].get(case["id"])
            if label is not None:
                subject = primer_subject if label[0] == "primer" else None
                rules = [*tags, f"after a subject: {label[1]}"]
                found.append({**case, "turns": turns, "subject": subject, "rules": rules})
            elif case["subject"] is not None and not could_refer(case["turns"][0]):
                rules = [*tags, "after a subject: no word of it refers back"]
                found.append({**case, "turns": turns, "rules": rules})
    return found


def primed_plan(ctx: SuiteContext) -> Plan:
    """The primed cases as one scenario, tagged with the case ids they read."""
    del ctx
    cases = primed_cases()
    classes = tuple((DIMENSION, f"{c['id']} after {c['turns'][0]!r}") for c in cases)
    return Plan((Case(cases, classes),), ((DIMENSION, len(cases)),))
