"""The answer catalogue exercises its bounded rules where the bound bites, on each operand.

A rule that keeps "the first three domains of each" of two subjects is met by a port that
bounds one of them only, unless a case makes the bound change the answer on each side: the
first subject's fourth domain among the second's first three, and the other way round. The
shipped packs say which cases do; this lane reads them and the catalogue's COMPARISON cases.
"""

from __future__ import annotations

import re

from conformance.answer_rules import catalogue
from reference.lexicon import default_lexicon

COMPARED = 3
"""docs/intents.md § What an answer says, as data: `compared`, among the first three of each."""
ASKED = re.compile(r"Compare (?:an? |the )?(\w+) and (?:an? |the )?(\w+)\.")


def _compared_pairs() -> list[tuple[str, str]]:
    lexicon = default_lexicon()
    pairs = []
    for case in catalogue()["cases"]:
        found = ASKED.fullmatch(case["turns"][-1])
        if "A-COMPARISON" in case["rules"] and found:
            first, second = (lexicon.lookup(w.lower()) for w in found.groups())
            if first is not None and second is not None:
                pairs.append((first.lemma, second.lemma))
    return pairs


def _bites(beyond: str, within: str) -> bool:
    """Whether a domain of *beyond* past its first three is among *within*'s first three."""
    index = {e.lemma: list(e.domains) for e in default_lexicon().lemmas}
    return bool(set(index[beyond][COMPARED:]) & set(index[within][:COMPARED]))


def test_a_comparison_case_bounds_the_second_subject() -> None:
    """The first subject's first three hold a domain the second has past its third."""
    assert any(_bites(second, first) for first, second in _compared_pairs())


def test_a_comparison_case_bounds_the_first_subject() -> None:
    """The second subject's first three hold a domain the first has past its third."""
    assert any(_bites(first, second) for first, second in _compared_pairs())
