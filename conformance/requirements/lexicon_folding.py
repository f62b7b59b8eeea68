"""Word folding over the engine's own lexicon: a word grounds in the pack exactly when a form
the folding rules give for it is a lemma the engine lists.

docs/intents.md § Subjects, *Word folding*: a word the lexicon does not hold as written is
looked up as, in order, `-ies` to `-y` (word longer than 4 letters), `-ves` to `-f` then
`-fe` (longer than 4), `-es` dropped (longer than 4), `-s` dropped unless it ends in `-ss`
(longer than 3), and, each only for a word longer than 5 letters, `-ing` dropped, then
`-ing` to `-e`, then `-ing` dropped with a doubled last consonant undoubled; the first form
the lexicon holds is the lemma.
docs/spec.md § Cognition, grounding rules 5 and 6: a subject no lemma is known for is
`oov`, a known one `pack`.

The words asked about are made from the lemmas `lexicon.list` gives (lowercase ASCII
letters, two or more: a word of two letters is a content word): the inflections each rule
undoes, and near misses that end in none of the rules' endings but would fold onto the
lemma if a rule's ending test were dropped (`skyqxz`: a rule that strips three letters
from any long word would find `sky`), and `-ing` words whose last consonant is not doubled
(`skyxing` folds to no lemma).
"""

from __future__ import annotations

import re

from conformance import cases as cases_
from conformance import rules
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.folding import VOWELS, folded_forms
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

WORD = re.compile(r"[a-z]{2,}")
NEAR_MISS = ("z", "zq", "qxz")
"""Tails that end in no folding rule's ending, one per number of letters a rule strips."""
UNDOUBLED = "x"
"""A consonant put between a lemma and `-ing` that doubles nothing (`skyxing`): the `-ing`
rules give `skyx` and `skyxe`; only a doubled last consonant is undoubled."""
SPREAD = 25


def inflections(lemma: str) -> list[str]:
    """Words each folding rule would take back to *lemma*, and near misses around it."""
    words = [lemma + "s", lemma + "es", lemma + "ing"]
    if lemma.endswith("y"):
        words.append(lemma[:-1] + "ies")
    if lemma.endswith("f"):
        words.append(lemma[:-1] + "ves")
    if lemma.endswith("fe"):
        words.append(lemma[:-2] + "ves")
    if lemma.endswith("e"):
        words.append(lemma[:-1] + "ing")
    if lemma[-1] not in VOWELS:
        words.append(lemma + lemma[-1] + "ing")
    stems = {lemma, lemma[:-1]} | ({lemma[:-2]} if lemma.endswith("fe") else set())
    words += [stem + tail for stem in sorted(stems) for tail in NEAR_MISS]
    words.append(lemma + UNDOUBLED + "ing")
    return words


def expected_grounding(word: str, held: frozenset[str]) -> str:
    return "pack" if any(form in held for form in folded_forms(word)) else "oov"


def sample(lemmas: list[str]) -> list[str]:
    """The lemmas words are made from: every one of lowercase ASCII letters that ends in a
    letter a rule puts back (`y`, `f`, `fe`) or has two or three letters (its inflections are
    the words at the rules' length bounds), and every :data:`SPREAD` th of the others."""
    usable = sorted(lemma for lemma in lemmas if WORD.fullmatch(lemma))
    chosen = [w for w in usable if w.endswith(("y", "f", "fe")) or len(w) <= 3]
    others = [w for w in usable if w not in chosen]
    return sorted(chosen + others[::SPREAD])


def folding_cases(lemmas: list[str], function_words: frozenset[str]) -> list[tuple[str, str]]:
    """(word, expected grounding source) for every word made from the :func:`sample` of
    *lemmas*, each once."""
    held = frozenset(lemmas)
    seen: dict[str, str] = {}
    for lemma in sample(lemmas):
        for word in inflections(lemma):
            if word in held or word in function_words or word in seen:
                continue
            seen[word] = expected_grounding(word, held)
    return sorted(seen.items())


@requirement(
    "LEX-FOLD-001",
    "a word grounds in the pack exactly when a form the folding rules give for it is a "
    "listed lemma: the inflections of every lemma, and near misses that end in no rule's "
    "ending (`-ies`, `-ves`, `-es`, `-s` but not `-ss`, `-ing`, with their length bounds)",
    family="lexicon",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects, Word folding (each rule, its length bound, the first "
    "form the lexicon holds); docs/spec.md § Cognition, grounding rules 5 and 6",
)
def folding_over_the_lexicon(engine: EngineClient, _: object) -> None:
    lexicon = SuiteContext.from_engine(engine).lexicon
    assert lexicon, "the engine lists no lemma"
    function_words = frozenset(rules.catalogue()["function_words"])
    cases = folding_cases([entry.lemma for entry in lexicon], function_words)
    found = []
    for word, expected in cases:
        (response,) = run_script(engine, None, [f"What is {word}?"])
        said = response.get("grounding_source")
        if said != expected:
            forms = ", ".join(folded_forms(word)[1:]) or "none"
            found.append(f"{word!r} grounds as {said}, not {expected} (folded forms: {forms})")
    assert not found, cases_.lines(found, f"{len(found)} of {len(cases)} words fold wrongly:")
