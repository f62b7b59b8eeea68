"""Cases for every member of the closed lists of docs/intents.md § How a prompt is read.

Each list below is copied from the sentence of the docs that states it, and each member gets
one case whose reading (intent, subject) differs when that member is not honoured: an end
mark or a dash that ends no sentence, an abbreviation whose full stop ends one, a colon
before a listed word that ends none, a belief opener that does not make a question, a
correction lead that is not read as one. The expected values follow from the docs' words
(the last question a form reads decides, step 9; a belief put forward is a question,
step 6; a lead then a claim is a CORRECTION, step 5), never from an engine.

``python -m tools.enum_cases`` writes them into ``conformance/data/cognition/rules.json``
(ids ``RC-1200`` on, replaced on each run); ``--check`` exits 1 when the file is not up to
date.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

CATALOGUE = Path(__file__).resolve().parent.parent / "conformance/data/cognition/rules.json"
FIRST_ID = 1200
"""The first case id this tool owns; every case at or above it is rewritten."""

END_MARKS = (".", "!", "?", ";", "\u2026")
"""Step 6: a sentence ends at `.`, `!`, `?`, `;` or `…` followed by a space."""
DASHES = (" \u2014 ", "\u2014", " \u2013 ", " - ")
"""Step 6: at a dash (`—`, or `–`/`-` between spaces)."""
ABBREVIATIONS = ("vs", "e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "st")
"""Step 6: not the full stop of these. Read as one sentence, `what is light vs. what is memory`
is the form `what is A vs B` (F-065), a COMPARISON; the others the form `what is A`."""
COLON_QUESTIONS = (
    ("what is a river", "DEFINITION", "river"),
    ("why does a river flow", "CAUSE", "river"),
    ("how does a river flow", "CAUSE", "river"),
    ("who is a king", "DEFINITION", "king"),
    ("which is older, a river or a lake", "COMPARISON", "river"),
    ("where does a river come from", "CAUSE", "river"),
    ("when does a river come from a lake", "CAUSE", "river"),
    ("is a river water", "VERIFICATION", "river"),
    ("was a river water", "VERIFICATION", "river"),
    ("were rivers water", "VERIFICATION", "rivers"),
    ("are rivers water", "VERIFICATION", "rivers"),
    ("do rivers flow", "VERIFICATION", "rivers"),
    ("does a river flow", "VERIFICATION", "river"),
    ("did a river flow", "VERIFICATION", "river"),
    ("can a river flow", "VERIFICATION", "river"),
    ("could a river flow", "VERIFICATION", "river"),
    ("would a river flow", "VERIFICATION", "river"),
    ("should a river flow", "VERIFICATION", "river"),
    ("will a river flow", "VERIFICATION", "river"),
    ("has a river water", "VERIFICATION", "river"),
    ("have rivers water", "VERIFICATION", "rivers"),
    ("had a river water", "VERIFICATION", "river"),
    ("must a river flow", "VERIFICATION", "river"),
    ("may a river flow", "VERIFICATION", "river"),
    ("am i a river", "VERIFICATION", "river"),
)
"""Step 6: a colon followed by a question word or an auxiliary (each `AUX` of § The table of
forms), one question per word."""
BELIEF_OPENERS = (
    "I think",
    "We think",
    "I believe",
    "I guess",
    "I suppose",
    "I reckon",
    "I bet",
    "I feel like",
    "I heard",
    "I have heard",
    "I read",
    "I was told",
    "We were told",
    "I am sure",
    "I am pretty sure",
    "I am fairly sure",
    "Someone told me",
    "Somebody tell me",
    "People say",
    "They said",
    "Correct me if",
)
"""Step 6: each opener of a belief put forward, each `i`/`we` verb and each reporter."""
NOT_BELIEFS = (
    "I am sure of the sun.",
    "I am sure about the sun.",
    "I think so, the sun is a star.",
)
"""Step 6: an opener followed by `of`, `about` or `so` puts no belief forward."""
LEADS = (
    "No way",
    "No",
    "Nope",
    "Nah",
    "Wrong",
    "Incorrect",
    "Not quite",
    "Not really",
    "Not so",
    "Not true",
    "Not exactly",
    "False",
    "Untrue",
    "Actually",
    "Correction",
    "In fact",
    "I disagree",
    "I beg to differ",
    "Nonsense",
    "Rubbish",
    "That is wrong",
    "This is incorrect",
    "It was not right",
    "You were not correct",
    "That answer is mistaken",
    "You are not true",
    "This was false",
    "It is not it",
    "That was a myth",
    "This is not so",
    "That is nonsense",
    "You got it wrong",
    "I think you have got that all backwards",
    "You had this mixed up",
    "You are getting it wrong",
    "You have it wrong",
    "I think you are wrong",
    "I think you were mistaken",
    "I do not think so",
    "I do not think that is right",
    "I do not think that is true",
    "I do not think that is correct",
    "I do not think you are right",
    "I do not agree",
    "Let me correct you",
    "I have to correct you",
    "I must correct you",
    "Allow me to correct you",
)
"""Step 5: every correction lead, each member of each group at least once. `No way` is told
from `no` by a claim without a copula (step 5a): its subject runs to the first content word,
which is *way* when only `no` is read as the lead."""

INTERJECTIONS = (
    "hmm", "um", "uh", "oh", "ok", "okay", "so", "well", "now", "hey", "hi", "hello", "alright",
    "and", "but", "then", "also", "cool", "great", "nice", "wow", "sure", "yes", "yeah", "lol",
    "haha", "hehe", "sorry", "wait", "listen", "look", "please",
)  # fmt: skip
"""Step 7: the interjections dropped before a sentence is read (and before a lead, step 5)."""


def _case(rules: list[str], prompt: str, intent: str, subject: str | None) -> dict[str, Any]:
    return {"rules": rules, "turns": [prompt], "intent": intent, "subject": subject}


def cases() -> list[dict[str, Any]]:
    """Every case, in list order, without ids."""
    out = [
        _case(
            ["Z-END-MARKS", "Z-TWO-SENTENCES"],
            f"Rain is water{m} what is a river?",
            "DEFINITION",
            "river",
        )
        for m in END_MARKS
    ]
    out += [
        _case(
            ["Z-DASH", "Z-TWO-SENTENCES"],
            f"Rain is water{d}what is a river?",
            "DEFINITION",
            "river",
        )
        for d in DASHES
    ]
    out += [
        _case(
            ["Z-ABBREVIATION"],
            f"What is light {a}. what is memory?",
            "COMPARISON" if a == "vs" else "DEFINITION",
            "light",
        )
        for a in ABBREVIATIONS
    ]
    out += [
        _case(["Z-COLON"], f"Quick question: {q}?", intent, subject)
        for q, intent, subject in COLON_QUESTIONS
    ]
    out += [
        _case(["Z-BELIEF"], f"{o} the sun is a star.", "VERIFICATION", "sun")
        for o in BELIEF_OPENERS
    ]
    out += [_case(["Z-BELIEF"], p, "UNKNOWN", "sun") for p in NOT_BELIEFS]
    out += [
        _case(["L-LEAD"], f"{lead}, a whale is a fish.", "CORRECTION", "whale") for lead in LEADS
    ]
    out.append(
        _case(["L-LEAD", "L-CLAIM-NO-COPULA"], "No way, whales eat fish.", "CORRECTION", "whales")
    )
    out += [
        _case(
            ["U-INTERJECTION", "L-LEAD"],
            f"{i.capitalize()}, no, a whale is a fish.",
            "CORRECTION",
            "whale",
        )
        for i in INTERJECTIONS
    ]
    return out


def updated(catalogue: dict[str, Any]) -> dict[str, Any]:
    """*catalogue* with this tool's cases (ids from ``RC-1200``) in place of the earlier ones."""
    kept = [c for c in catalogue["cases"] if int(c["id"].split("-")[1]) < FIRST_ID]
    ours = [{"id": f"RC-{FIRST_ID + i:04d}", **case} for i, case in enumerate(cases())]
    return {**catalogue, "cases": kept + ours}


def render(catalogue: dict[str, Any]) -> str:
    """The catalogue as the file writes it: one rule or case a line."""
    lines = ["{"]
    keys = list(catalogue)
    for i, key in enumerate(keys):
        value = catalogue[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f" {json.dumps(key)}: [")
            lines += [
                "  " + json.dumps(item, ensure_ascii=False) + ("," if j < len(value) - 1 else "")
                for j, item in enumerate(value)
            ]
            lines.append(" ]" + comma)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the cases into the catalogue, or with ``--check`` say whether it is up to date."""
    parser = argparse.ArgumentParser(prog="python -m tools.enum_cases", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    text = CATALOGUE.read_text(encoding="utf-8")
    fresh = render(updated(json.loads(text)))
    if args.check:
        if fresh != text:
            print(f"{CATALOGUE} is stale: run python -m tools.enum_cases", file=sys.stderr)
            return 1
        return 0
    CATALOGUE.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
