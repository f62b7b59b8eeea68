"""Cognition conformance: the engine reads each corpus prompt as what the prompt IS.

Each requirement chats every case of the labeled corpus in a fresh unregistered session
and compares one field of the last turn with the case's label, listing every
disagreement by case id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance import cases as cases_
from conformance import corpus, rules
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.oracle import GROUNDING_SOURCES, INTENT_NAMES
from conformance.requirements.registry import SuiteContext, requirement

INTENTS = "docs/intents.md § The table of forms"
MADE_UP = "blorvex"
"""A word no lexicon holds (the corpus's first made-up word), beside a function word."""
GROUNDING = "docs/spec.md § Cognition (grounding rules); docs/protocol.md (grounding_source)"


def corpus_plan(ctx: SuiteContext) -> Plan:
    """The whole instantiated corpus as one case, tagged with the labels it covers."""
    cases = corpus.instantiate(ctx)
    classes = tuple(
        [("intents", c["intent"]) for c in cases]
        + [("grounding sources", c["grounding_source"]) for c in cases]
        + [("multi-turn cases", c["id"]) for c in cases if len(c["turns"]) > 1]
    )
    multi = sum(len(c["turns"]) > 1 for c in cases)
    universe = (
        ("intents", len(INTENT_NAMES)),
        ("grounding sources", len(GROUNDING_SOURCES)),
        ("multi-turn cases", multi),
    )
    return Plan((Case(cases, classes),), universe)


def _disagreements(
    engine: EngineClient, cases: list[dict[str, Any]], key: str
) -> list[cases_.Disagreement]:
    found = []
    for case in cases:
        said = run_script(engine, None, case["turns"])[-1].get(key)
        if said != case[key]:
            found.append(
                cases_.Disagreement(
                    case["id"],
                    f"{key} {said!r}, labeled {case[key]!r}",
                    f"{' / '.join(case['turns'])!r}, form {case['form']!r}",
                    rank=len(case["turns"]),
                )
            )
    return found


def _agree(engine: EngineClient, cases: list[dict[str, Any]], key: str) -> None:
    found = _disagreements(engine, cases, key)
    assert not found, cases_.listing(
        f"{len(found)} of {len(cases)} cases disagree on {key}:", found
    )


@requirement(
    "COG-INTENT-001",
    "every corpus prompt is classified as the intent its form labels (all 12 intents, "
    "multi-turn context included)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed=INTENTS,
    cover=corpus_plan,
)
def intents_agree(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    _agree(engine, cases, "intent")


@requirement(
    "COG-GROUND-001",
    "every corpus prompt grounds as labeled (vault, pack, teaching, partial, oov, none)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed=GROUNDING,
    cover=corpus_plan,
)
def grounding_agrees(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    _agree(engine, cases, "grounding_source")


@requirement(
    "COG-SUBJECT-001",
    "every corpus prompt reports the subject its form labels (the first content word of "
    "its slots, as written; none when there is none)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects",
    cover=corpus_plan,
)
def subjects_agree(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    _agree(engine, cases, "subject")


def _rule_differences(case: dict[str, Any], last: Any) -> list[str]:
    keys = ("intent", "subject", "grounding_source")
    return [
        f"{key} {last.get(key)!r}, the docs say {case[key]!r}"
        for key in keys
        if key in case and last.get(key) != case[key]
    ]


def catalogue_holds(
    engine: EngineClient,
    cases: list[dict[str, Any]],
    differences: Callable[[dict[str, Any], Any], list[str]],
    breaks: str,
) -> None:
    """Chat each catalogue case (id, rules, turns) in a fresh session and fail, one line
    per case, on every case whose last turn *differences* finds fault with."""
    found = []
    for case in cases:
        wrong = differences(case, run_script(engine, None, case["turns"])[-1])
        if wrong:
            found.append(
                cases_.Disagreement(
                    case["id"],
                    "; ".join(wrong),
                    f"rules {', '.join(case['rules'])}; {' / '.join(case['turns'])!r}",
                    rank=len(case["turns"]),
                )
            )
    assert not found, cases_.listing(f"{len(found)} of {len(cases)} {breaks}:", found)


@requirement(
    "COG-RULE-001",
    "every rule of the rule catalogue (each form, cue row, reading step, subject, folding "
    "and grounding rule, by id) holds on its cases: intent, subject and grounding source",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Rule ids; docs/spec.md § Cognition (grounding rules)",
    cover=rules.rule_plan,
)
def rules_hold(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    catalogue_holds(engine, cases, _rule_differences, "cases break their rules")


@requirement(
    "COG-RULE-002",
    "no function word of the closed list is ever a subject: 'What is <word>?' has no subject "
    "and grounds as none, and 'Tell me about <word> blorvex.' is about blorvex, for every word",
    family="cognition",
    capabilities=("sessions",),
    seed="docs/intents.md § Subjects (function words: the complete list, normative); "
    "docs/spec.md § Cognition (grounding rule 1)",
    cover=rules.function_word_plan,
)
def function_words_never_subjects(engine: EngineClient, words: list[str]) -> None:
    found = []
    for word in words:
        alone = run_script(engine, None, [f"What is {word}?"])[-1]
        said = (alone.get("subject"), alone.get("grounding_source"))
        if said != (None, "none"):
            found.append(f"'What is {word}?': subject {said[0]!r}, grounding {said[1]}")
        beside = run_script(engine, None, [f"Tell me about {word} {MADE_UP}."])[-1]
        if beside.get("subject") != MADE_UP:
            found.append(f"'Tell me about {word} {MADE_UP}.': subject {beside.get('subject')!r}")
    assert not found, cases_.lines(found, f"{len(found)} function words read as subjects:")
