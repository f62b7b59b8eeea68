"""Teaching steps read in their direction (docs/intents.md § Answers, VERIFICATION evidence 2).

A teaching step states a VERIFICATION when it leads out of the subject to a lemma a
predicate word names, every content word of its relation and every predicate word matched
(`moon pulls tide` states `the moon pulls the tide`), or when it makes the subject a kind
of Y, every predicate word Y: `Y includes X` *into* the subject, `X is a form of Y` *out of*
it. Which steps a lexicon holds is the engine's; the direction of each is not.

COG-STEP-701 learns the steps an engine tells (the NARRATIVE of every lemma of its lexicon
tells up to three steps out of it), then asks, in a session that holds no claim, the
statement the step states (a yes by teaching) and the same statement read the other way round; every
verdict by teaching must name one step that states its checked statement.
"""

from __future__ import annotations

import re
from typing import Any

from conformance import rules
from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.folding import folded_forms
from conformance.model import SuiteContext
from conformance.requirements.cognition_says import CAPABILITIES, says_of
from conformance.requirements.registry import requirement

KIND_INTO = "includes"
"""`Y includes X` makes X a kind of Y."""
KIND_OUT = "is a form of"
"""`X is a form of Y` makes X a kind of Y."""
TELLING = "Tell me about {a}."
"""A NARRATIVE: it tells up to three teaching steps, those out of the subject first."""
PLAIN = re.compile(r"[a-z]+( [a-z]+)*")
"""Steps of plain lowercase ASCII words only are asked about (no folding or reading rule
beyond § Subjects' words is then involved)."""
Step = tuple[str, str, str]
CHUNK = 8
"""Lemmas told about per case."""


def lexicon_plan(ctx: SuiteContext) -> Plan:
    """Every lemma of plain lowercase ASCII letters, in sorted order, :data:`CHUNK` a case."""
    lemmas = sorted({e.lemma for e in ctx.lexicon if PLAIN.fullmatch(e.lemma)})
    chunks = [lemmas[i : i + CHUNK] for i in range(0, len(lemmas), CHUNK)]
    cases = tuple(Case(chunk, tuple(("lemmas told about", w) for w in chunk)) for chunk in chunks)
    return Plan(cases, (("lemmas told about", len(lemmas)),))


def same_word(one: str, other: str) -> bool:
    """Whether two words share a folded form (docs/intents.md § Subjects, Word folding)."""
    return bool(set(folded_forms(one)) & set(folded_forms(other)))


def content_words(text: str) -> list[str]:
    """The content words of plain *text*: words of two or more letters that are no
    function word."""
    closed = frozenset(rules.function_words())
    return [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 1 and w not in closed]


def states(step: Step, subject: str, predicate: list[str]) -> bool:
    """Whether *step* states a statement about *subject* whose predicate words are
    *predicate*, by evidence 2 of docs/intents.md § Answers."""
    source, relation, target = step
    if not predicate:
        return False
    if relation == KIND_INTO and target == subject:
        return all(same_word(p, source) for p in predicate)
    if relation == KIND_OUT and source == subject:
        return all(same_word(p, target) for p in predicate)
    return source == subject and _names_the_predicate(relation, target, predicate)


def _names_the_predicate(relation: str, target: str, predicate: list[str]) -> bool:
    """A step out of the subject states it when a predicate word names its target, every
    content word of its relation is a predicate word and every predicate word its target or
    a relation word."""
    relation_words = content_words(relation)

    def among(word: str, words: list[str]) -> bool:
        return any(same_word(word, other) for other in words)

    return (
        among(target, predicate)
        and all(among(r, predicate) for r in relation_words)
        and all(among(p, [target, *relation_words]) for p in predicate)
    )


def steps_told(engine: EngineClient, lemmas: list[str]) -> list[Step]:
    """The plain steps out of each of *lemmas* their NARRATIVE answers tell, in one session."""
    session = engine.call("session.open", {"register_id": None})["session"]
    found: list[Step] = []
    try:
        for lemma in lemmas:
            said = engine.call(
                "session.chat", {"session": session, "text": TELLING.format(a=lemma)}
            )
            for item in member(says_of(said), "steps", "array"):
                step = (
                    member(item, "from", "string"),
                    member(item, "relation", "string"),
                    member(item, "to", "string"),
                )
                plain = all(PLAIN.fullmatch(part) for part in step)
                if plain and step[0] == lemma and step not in found:
                    found.append(step)
    finally:
        engine.call("session.close", {"session": session})
    return found


def _questions(step: Step) -> list[tuple[str, str, bool]]:
    """(prompt, its subject, whether *step* states it) for the statement *step* states and
    the same read the other way round."""
    source, relation, target = step
    if relation == KIND_INTO:
        return [
            (f"Is {target} a {source}?", target, True),
            (f"Is {source} a {target}?", source, False),
        ]
    if relation == KIND_OUT:
        return [
            (f"Is {source} a {target}?", source, True),
            (f"Is {target} a {source}?", target, False),
        ]
    return [
        (f"Is it true that {source} {relation} {target}?", source, True),
        (f"Is it true that {target} {relation} {source}?", target, False),
    ]


def answers_in_one_session(engine: EngineClient, prompts: list[str]) -> list[Any]:
    """The answers to *prompts*, in one fresh session: a question states no claim, so each
    is asked as in a fresh session."""
    session = engine.call("session.open", {"register_id": None})["session"]
    try:
        return [engine.call("session.chat", {"session": session, "text": p}) for p in prompts]
    finally:
        engine.call("session.close", {"session": session})


def _judged(step: Step, prompt: str, subject: str, stated: bool, result: Any) -> str | None:
    """What is wrong with the answer to *prompt*, or None (also when it was read as another
    intent or about another subject: the reading is other requirements' to judge)."""
    if result.get("intent") != "VERIFICATION" or result.get("subject") != subject:
        return None
    says = says_of(result)
    verdict, by = member(says, "verdict"), member(says, "by")
    checked = member(says, "checked")
    if not isinstance(checked, str):
        return f"{prompt!r} has a verdict {verdict!r} but no checked statement"
    predicate = [w for w in content_words(checked) if not same_word(w, subject)]
    if not predicate:
        return None
    told: list[Step] = [
        (member(s, "from", "string"), member(s, "relation", "string"), member(s, "to", "string"))
        for s in member(says, "steps", "array")
    ]
    if by == "teaching" and (len(told) != 1 or not states(told[0], subject, predicate)):
        return (
            f"{prompt!r} is {verdict!r} by teaching, deciding by {told}, which does not "
            f"state {checked!r} about {subject!r} (evidence 2 reads a step in its direction)"
        )
    if stated and (verdict, by) != ("yes", "teaching"):
        return (
            f"{prompt!r} is {verdict!r} by {by!r}; the step {' '.join(step)!r} states "
            f"{checked!r} (evidence 2), so it is yes by teaching"
        )
    return None


@requirement(
    "COG-STEP-701",
    "for every teaching step out of a lemma its NARRATIVE tells, the statement it "
    "states is yes by teaching (a step out of the subject naming the predicate, `Y includes X` "
    "into the subject, `X is a form of Y` out of it), and a verdict by teaching always names "
    "one step that states its checked statement: the same statement read the other way round "
    "is never decided by that step",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/intents.md § Answers (VERIFICATION, evidence 2: a teaching step that states it)",
    cover=lexicon_plan,
)
def steps_read_in_their_direction(engine: EngineClient, lemmas: list[str]) -> None:
    asked = [
        (step, *question)
        for step in steps_told(engine, lemmas)
        if not same_word(step[0], step[2])
        for question in _questions(step)
    ]
    answers = answers_in_one_session(engine, [prompt for _, prompt, _, _ in asked])
    found = [
        wrong
        for (step, prompt, subject, stated), result in zip(asked, answers, strict=True)
        if (wrong := _judged(step, prompt, subject, stated, result))
    ]
    assert not found, "\n".join(found)
