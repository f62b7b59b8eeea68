"""The branch edges of each reading and grounding rule (COG-EDGE-001) and of what an answer
says at the edges of turns (COG-EDGE-002).

Every rule that acts on a position, a character class, the latest of something across turns,
or that orders two checks is held at its edges: the first and the last position and the
ones next to them, a member of every general category at a class's boundary, scripts whose
latest turn lacks the thing, and two conditions true at once (``conformance/edges.py``).
"""

from __future__ import annotations

from typing import Any

from conformance import edges
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.cognition import catalogue_holds
from conformance.requirements.registry import requirement

KEYS = ("intent", "subject", "grounding_source")


def _differences(case: dict[str, Any], last: Any) -> list[str]:
    """What the last turn of *case* says against the docs, led by the edge it tries."""
    found = [
        f"{key} {last.get(key)!r}, the docs say {case[key]!r}"
        for key in KEYS
        if key in case and last.get(key) != case[key]
    ]
    if "says" in case:
        says = member(last, "says", "object")
        for key, expected in case["says"].items():
            value = member(says, key)
            if value != expected:
                found.append(f"says.{key} {value!r}, the docs say {expected!r}")
    if found:
        found[0] = f"{case['class']} edge ({case['edge']}): {found[0]}"
    return found


BREAKS = "edges break their rules"


@requirement(
    "COG-EDGE-001",
    "every branch edge of the reading and grounding rules holds: edits and sentences at the "
    "first and last positions and next to them, members of every general category at the "
    "boundary of a word, of white space and of lowercase, the latest subject and claim across "
    "turns that lack one and as set by a turn of every intent, and two conditions true at once "
    "where the docs order the checks",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § How a prompt is read (steps 1, 2, 9), § Subjects (words, words "
    "that refer back), § Answers (VERIFICATION 1), § Rule ids (edges); docs/spec.md § "
    "Cognition (grounding rules, in order)",
    cover=edges.edge_plan,
)
def edges_hold(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    catalogue_holds(engine, cases, _differences, BREAKS)


@requirement(
    "COG-EDGE-002",
    "what an answer says holds at the edges of turns: RECALL turns counted from 1 from the "
    "first turn on, the latest three quoted latest first, two turns alike, an earlier RECALL "
    "counted but never quoted, the latest claim first and also when older than the turns "
    "quoted, the latest three lemmas of a whole-session RECALL, the latest claim deciding a "
    "VERIFICATION across claim-less turns, the first claim sentence",
    family="cognition",
    capabilities=("sessions", "answers"),
    seed="docs/intents.md § Answers (RECALL, VERIFICATION 1), § What an answer says (said, "
    "earlier, claim), § Rule ids (edges)",
    cover=edges.says_plan,
)
def says_edges_hold(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    catalogue_holds(engine, cases, _differences, BREAKS)
