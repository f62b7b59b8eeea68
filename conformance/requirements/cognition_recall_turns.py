"""A RECALL turn is never something said: asking again changes nothing a later RECALL quotes.

docs/intents.md § What an answer says, as data: `said` quotes the user's words about a
subject, and "a RECALL turn names its subject too, though it is never quoted"; a RECALL
without a subject draws on "the latest three lemmas something was said about". So a RECALL
put in just before the last turn of a conversation that ends in a RECALL leaves that last
RECALL's `said` and `claim` as they were, whatever subject it asks about; `earlier` grows by
one when it asks about the last RECALL's own subject, and stays when it asks about a word
no turn named. The subjects are
the engine's own readings: the relation holds whatever its lexicon.
"""

from __future__ import annotations

from typing import Any

from conformance import answer_rules
from conformance import cases as cases_
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

ASK = "What did I say about {a}?"
"""The RECALL put in (docs/intents.md § The table of forms: `what did/have I <verb> (you)
about A`)."""
NEVER_SAID = "zorbs"
"""A subject no turn of a catalogue conversation names."""
DIMENSION = "recall turns"


def recall_conversations() -> list[dict[str, Any]]:
    """The answer catalogue's cases of two or more turns whose last turn is a RECALL."""
    cases = answer_rules.catalogue()["cases"]
    return [c for c in cases if c.get("intent") == "RECALL" and len(c["turns"]) >= 2]


def recall_plan(ctx: SuiteContext) -> Plan:
    """Every such case, by id, as one scenario; a class per kind of subject put in."""
    del ctx
    ids = [c["id"] for c in recall_conversations()]
    kinds = ("an earlier subject", "a subject never named", "the RECALL's own subject")
    classes = tuple((DIMENSION, kind) for kind in kinds)
    return Plan((Case(ids, classes),), ((DIMENSION, len(kinds)),))


def _asked(responses: list[Any]) -> list[tuple[str, bool]]:
    """The subjects to ask about, each with whether `earlier` is compared: an earlier turn's
    subject other than the last turn's (not compared: it may be a form of the same lemma,
    `river` for `rivers`), a word never named, and the last turn's own subject."""
    last = responses[-1].get("subject")
    earlier = [r.get("subject") for r in responses[:-1]]
    others = [s for s in earlier if isinstance(s, str) and s != last]
    asked = [*((s, False) for s in others[:1]), (NEVER_SAID, True)]
    if isinstance(last, str):
        asked.append((last, True))
    return asked


def _quoted(says: Any) -> dict[str, Any]:
    return {key: member(says, key) for key in ("said", "claim", "earlier")}


def _one_case(engine: EngineClient, case: dict[str, Any]) -> list[str]:
    turns = list(case["turns"])
    plain = run_script(engine, None, turns)
    last = plain[-1]
    if last.get("intent") != "RECALL":
        return []
    before = _quoted(member(last, "says", "object"))
    found = []
    for subject, counted in _asked(plain):
        ask = ASK.format(a=subject)
        varied = run_script(engine, None, [*turns[:-1], ask, turns[-1]])
        inserted, after = varied[-2], varied[-1]
        if inserted.get("intent") != "RECALL" or inserted.get("subject") != subject:
            continue
        if after.get("intent") != "RECALL" or after.get("subject") != last.get("subject"):
            continue
        expected = dict(before)
        if subject == last.get("subject") and isinstance(before["earlier"], int):
            expected["earlier"] = before["earlier"] + 1
        now = _quoted(member(after, "says", "object"))
        if not counted:
            now["earlier"] = expected["earlier"]
        if now != expected:
            found.append(
                f"{case['id']} with {ask!r} before its last turn: {now!r}; asking again "
                f"quotes nothing new, so {expected!r}"
            )
    return found


@requirement(
    "COG-META-702",
    "a RECALL put in before a conversation's closing RECALL changes nothing that RECALL "
    "quotes (said, claim): a RECALL turn is never something said; only earlier counts it, "
    "when it asks about the same subject",
    family="cognition",
    capabilities=("sessions", "answers"),
    seed="docs/intents.md § What an answer says, as data (said, earlier: a RECALL turn names "
    "its subject too, though it is never quoted; the latest three lemmas something was said "
    "about)",
    cover=recall_plan,
)
def recall_turns_are_not_said(engine: EngineClient, ids: list[str]) -> None:
    by_id = {c["id"]: c for c in recall_conversations()}
    found = [line for case_id in ids for line in _one_case(engine, by_id[case_id])]
    assert not found, cases_.lines(found, f"{len(found)} RECALLs quote a RECALL turn:")
