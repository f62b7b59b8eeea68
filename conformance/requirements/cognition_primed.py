"""A turn reads the same after an earlier turn unless a slot of it refers back
(COG-PRIMED-001)."""

from __future__ import annotations

from typing import Any

from conformance import primed
from conformance.engines.base import EngineClient
from conformance.requirements.cognition import catalogue_holds
from conformance.requirements.registry import requirement


def _differences(case: dict[str, Any], last: Any) -> list[str]:
    return [
        f"{key} {last.get(key)!r}, the docs say {case[key]!r}"
        for key in ("intent", "subject")
        if key in case and last.get(key) != case[key]
    ]


@requirement(
    "COG-PRIMED-001",
    "every one-turn catalogue case read after a turn with a subject (known, or not, or "
    "written in another form than its lemma): a prompt no word of which refers back keeps its "
    "intent and subject, and a prompt without a subject takes the earlier turn's subject, as "
    "written ('rivers', not its lemma river), exactly when a slot of it refers back",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects (words that refer back: the session's latest subject; "
    "the subject as written: `trees` grounds as *tree*, the subject stays `trees`), "
    "§ How a prompt is read (step 5, a lead without content), § Cue words (a slot left with "
    "no content word is read `it`)",
    cover=primed.primed_plan,
)
def primed_cases_hold(engine: EngineClient, cases: list[dict[str, Any]]) -> None:
    catalogue_holds(engine, cases, _differences, "cases read otherwise after an earlier turn")
