"""Every conditional sentence of the truth path has a row in the condition table.

A sentence of docs/intents.md or docs/spec.md § Cognition (the ledger's sentences,
``tools/normative.py``) that holds one of the table's keywords (if, when, unless, except,
otherwise, until, else, either, only, ...) is either the sentence of a row of
``conformance/data/cognition/conditions.json`` (COG-COND-251, COG-COND-252) or named in its
``not_conditions`` with the reason it states no condition of its own. A new or reworded
conditional sentence without a row fails here, and so does a row whose sentence is gone or
whose quote no longer matches it.
"""

from __future__ import annotations

import re

from conformance import conditions
from tools import normative

SECTION = ("spec.md", "cognition")
"""docs/spec.md's section of the truth path; every section of docs/intents.md is in scope."""


def _in_scope() -> dict[str, str]:
    found = normative.sentences(("spec.md", "intents.md"))
    return {
        s.key: s.text
        for s in found
        if s.doc == "intents.md" or (s.doc, s.key.split("#")[1]) == SECTION
    }


def _conditional(text: str, keywords: list[str]) -> bool:
    pattern = r"\b(?:" + "|".join(re.escape(k) for k in keywords) + r")\b"
    return re.search(pattern, text, re.IGNORECASE) is not None


def test_every_conditional_sentence_has_a_row() -> None:
    data = conditions.catalogue()
    rowed = {s["key"] for c in data["conditions"] for s in c["sentences"]}
    scope = _in_scope()
    missing = [
        f"{key}: {text[:100]}"
        for key, text in scope.items()
        if _conditional(text, data["keywords"])
        and key not in rowed
        and key not in data["not_conditions"]
    ]
    assert not missing, "conditional sentences without a row in conditions.json:\n" + "\n".join(
        missing
    )


def test_every_row_quotes_a_current_sentence() -> None:
    data = conditions.catalogue()
    scope = _in_scope()
    stale = [
        f"{c['id']}: {s['key']}"
        for c in data["conditions"]
        for s in c["sentences"]
        if scope.get(s["key"]) != s["quote"]
    ]
    stale += [f"not_conditions: {key}" for key in data["not_conditions"] if key not in scope]
    assert not stale, "rows whose sentence is gone or reworded:\n" + "\n".join(stale)


def test_a_sentence_is_a_row_or_no_condition_never_both() -> None:
    data = conditions.catalogue()
    rowed = {s["key"] for c in data["conditions"] for s in c["sentences"]}
    both = sorted(rowed & set(data["not_conditions"]))
    assert not both, both
