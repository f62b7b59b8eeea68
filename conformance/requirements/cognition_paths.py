"""Teaching paths read in their direction (docs/spec.md § Cognition, grounding rule 4;
docs/intents.md § What an answer says, as data: `way`, `steps`).

A TRANSITIVE_QUERY whose first two known subjects a teaching path joins is grounded by
teaching, the path tried from the first to the second, *else* from the second to the first;
`way` says which (`forward`, `backward`) and `steps` tells the path, shortest first. Which
steps a lexicon holds is the engine's; what a step implies is not: a step `X relation Y`
that the NARRATIVE of X tells is a path of one step from X to Y. So `How is X connected to
Y?` runs forward along one step out of X into Y, whatever path Y has back to X; and `How is
Y connected to X?` either runs forward from Y or, backward, along one step from X to Y.
"""

from __future__ import annotations

from typing import Any

from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.cognition_says import CAPABILITIES, says_of
from conformance.requirements.cognition_steps import (
    Step,
    answers_in_one_session,
    lexicon_plan,
    same_word,
    steps_told,
)
from conformance.requirements.registry import requirement

ASKED = "How is {a} connected to {b}?"
"""docs/intents.md § The table of forms: `how/why is A connected/related/linked to B`."""


def path_of(says: Any) -> list[Step]:
    return [
        (member(s, "from", "string"), member(s, "relation", "string"), member(s, "to", "string"))
        for s in member(says, "steps", "array")
    ]


def _judged(step: Step, first: str, second: str, result: Any) -> str | None:
    """What is wrong with the answer to ``How is first connected to second?`` (None also
    when it was read another way: the reading is other requirements' to judge)."""
    source, _, target = step
    prompt = ASKED.format(a=first, b=second)
    if result.get("intent") != "TRANSITIVE_QUERY" or result.get("subject") != first:
        return None
    says = says_of(result)
    way, path = member(says, "way"), path_of(says)
    source_first = first == source
    if source_first and way != "forward":
        return (
            f"{prompt!r} has way {way!r}; the step {' '.join(step)!r} joins {first} to "
            f"{second}, so the path runs forward (first to second, tried before second to first)"
        )
    if way not in ("forward", "backward"):
        return f"{prompt!r} has way {way!r}; the step {' '.join(step)!r} joins its subjects"
    if result.get("grounding_source") != "teaching":
        return f"{prompt!r} is grounded by {result.get('grounding_source')!r}, not by teaching"
    start, end = (first, second) if way == "forward" else (second, first)
    if not path or path[0][0] != start or path[-1][2] != end:
        return f"{prompt!r} says way {way!r} but its steps {path} do not run from {start} to {end}"
    if (start, end) == (source, target) and len(path) != 1:
        return f"{prompt!r} tells {len(path)} steps; the step {' '.join(step)!r} is a shorter path"
    return None


@requirement(
    "COG-STEP-703",
    "for every teaching step X to Y that a lemma's NARRATIVE tells, `How is X connected to "
    "Y?` is grounded by teaching with way forward along one step, and `How is Y connected to "
    "X?` with steps that run the way its way says: the path from the first known subject to "
    "the second is tried first, and a path is the shortest",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/spec.md § Cognition (grounding rule 4: from the first to the second, else from "
    "the second to the first); docs/intents.md § What an answer says, as data (way, steps)",
    cover=lexicon_plan,
)
def paths_read_in_their_direction(engine: EngineClient, lemmas: list[str]) -> None:
    asked = [
        (step, first, second)
        for step in steps_told(engine, lemmas)
        if " " not in step[0] + step[2] and not same_word(step[0], step[2])
        for first, second in ((step[0], step[2]), (step[2], step[0]))
    ]
    answers = answers_in_one_session(engine, [ASKED.format(a=a, b=b) for _, a, b in asked])
    found = [
        wrong
        for (step, first, second), result in zip(asked, answers, strict=True)
        if (wrong := _judged(step, first, second, result))
    ]
    assert not found, "\n".join(found)
