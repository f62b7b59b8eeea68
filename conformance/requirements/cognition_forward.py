"""A forward path wins, whatever its length (docs/spec.md § Cognition, grounding rule 4;
docs/intents.md § What an answer says, as data: `way`, `steps`).

A TRANSITIVE_QUERY's path is tried from the first known subject to the second, *else* from
the second to the first, and a path is the shortest one. Which steps a lexicon holds is the
engine's, but every step its NARRATIVEs tell is one it holds, so the steps told over the
whole lexicon are part of its teaching graph: a path through them from A to B is a path the
engine has. So for every A and B that told steps join both ways, with the path from A to B
of two steps or more, ``How is A connected to B?`` must run forward (a port that takes the
shorter of the two ways, or the backward one first, answers backward) in at most as many
steps as the told path.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.model import SuiteContext
from conformance.requirements.cognition_paths import ASKED, path_of
from conformance.requirements.cognition_says import CAPABILITIES, says_of
from conformance.requirements.cognition_steps import (
    PLAIN,
    Step,
    answers_in_one_session,
    same_word,
    steps_told,
)
from conformance.requirements.registry import requirement

Graph = dict[str, set[str]]


def told_graph(steps: list[Step]) -> Graph:
    """The teaching graph the told *steps* make: each lemma's set of lemmas one step out."""
    graph: Graph = {}
    for source, _relation, target in steps:
        graph.setdefault(source, set()).add(target)
    return graph


def distances(graph: Graph, start: str) -> dict[str, int]:
    """The fewest told steps from *start* to each lemma it reaches (itself at 0)."""
    found = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(graph.get(here, ())):
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


def both_ways(graph: Graph) -> list[tuple[str, str, int]]:
    """``(a, b, n)`` for each pair of one-word lemmas that told steps join both ways, the
    path from *a* to *b* of ``n >= 2`` steps, in sorted order."""
    reach = {lemma: distances(graph, lemma) for lemma in sorted(graph)}
    pairs = []
    for a in sorted(reach):
        for b, steps in sorted(reach[a].items()):
            joined_back = a in reach.get(b, {})
            plain = " " not in a + b and not same_word(a, b)
            if steps >= 2 and joined_back and plain:
                pairs.append((a, b, steps))
    return pairs


def _judged(a: str, b: str, told: int, result: Any) -> str | None:
    """What is wrong with the answer to ``How is a connected to b?`` (None also when it was
    read as another intent or about another subject: other requirements judge the reading)."""
    if result.get("intent") != "TRANSITIVE_QUERY" or result.get("subject") != a:
        return None
    prompt = ASKED.format(a=a, b=b)
    says = says_of(result)
    way, path = member(says, "way"), path_of(says)
    if way != "forward":
        return (
            f"{prompt!r} has way {way!r}; the steps the engine's NARRATIVEs tell join {a} to "
            f"{b} in {told} steps, and the path from the first subject is tried first"
        )
    chained = all(path[i][2] == path[i + 1][0] for i in range(len(path) - 1))
    if not path or path[0][0] != a or path[-1][2] != b or not chained:
        return f"{prompt!r} says way forward but its steps {path} are no path from {a} to {b}"
    if len(path) > told:
        return f"{prompt!r} tells {len(path)} steps; told steps join {a} to {b} in {told}"
    return None


def whole_lexicon(ctx: SuiteContext) -> Plan:
    """One case: every lemma of plain lowercase ASCII letters, in sorted order."""
    lemmas = sorted({e.lemma for e in ctx.lexicon if PLAIN.fullmatch(e.lemma)})
    return Plan((Case(lemmas, (("lexicon", "whole"),)),), (("lexicon", 1),))


@requirement(
    "COG-STEP-704",
    "for every two lemmas the steps its NARRATIVEs tell join both ways, the path from the "
    "first of two steps or more, `How is A connected to B?` runs forward (the path from the "
    "first known subject is tried first, however long, before a shorter one back) along a "
    "chain of steps from A to B no longer than the told path (whole lexicon)",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/spec.md § Cognition (grounding rule 4: from the first to the second, else from "
    "the second to the first); docs/intents.md § What an answer says, as data (way, steps: "
    "a path is the shortest one)",
    cover=whole_lexicon,
)
def forward_path_first(engine: EngineClient, lemmas: list[str]) -> None:
    pairs = both_ways(told_graph(steps_told(engine, lemmas)))
    answers = answers_in_one_session(engine, [ASKED.format(a=a, b=b) for a, b, _ in pairs])
    found = [
        wrong
        for (a, b, told), result in zip(pairs, answers, strict=True)
        if (wrong := _judged(a, b, told, result))
    ]
    assert not found, "\n".join(found)
