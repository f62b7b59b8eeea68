"""What the pack says of a subject, in the surface of every answer that must say it.

docs/intents.md § Answers: every answer about a subject the lexicon knows says what the pack
says of it, its gloss or, for a lemma without one, its first domains, as many as the
disclosure depth of the turn's intent, and discloses no further domain of it except as
another item of the answer. Each intent's paragraph says of which subjects. The gloss and
domains come from the shipped language packs (``conformance/data/cognition/packs.json``,
written by ``python -m tools.pack_digest``); the depth from the register (the shipped packs'
values, docs/registers.md § Shipped packs).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from conformance import cases as cases_
from conformance.coverage import Case, Plan
from conformance.driver import run_four
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.model import SuiteContext
from conformance.oracle import FOUR_REGISTERS, TERSE
from conformance.requirements.registry import requirement
from conformance.requirements.shipped import SHIPPED

DEFAULT_DEPTH = 3
SPREAD = 8
"""Glossed and gloss-less subjects each, evenly spread over the sorted lexicon."""
VERB = "grow"
"""The request's verb of the PROCEDURE asked: a verb of the shipped packs."""
SCRIPT = (
    ("What did I say about {a}?", "RECALL"),
    ("What is {a}?", "DEFINITION"),
    ("What did I say about {a}?", "RECALL"),
    ("Why is there {a}?", "CAUSE"),
    ("How is {a} related to {b}?", "TRANSITIVE_QUERY"),
    ("Is the {a} a {b}?", "VERIFICATION"),
    ("Tell me about {a}.", "NARRATIVE"),
    ("Give me an example of {a}.", "EXAMPLE"),
    ("How do I " + VERB + " {a}?", "PROCEDURE"),
    ("Compare {a} and {b}.", "COMPARISON"),
    ("What if the {a} were a {b}?", "FRAME_TRANSFER"),
    ("No, the {a} is a lantern.", "CORRECTION"),
    ("Is the {a} a lantern?", "VERIFICATION"),
)
"""One prompt per intent whose answer says what the pack says of its subject, in an order
that makes each say it: the first RECALL comes before anything was said about the subject;
the second quotes a turn that named it without a claim, where what the pack says is the
engine's choice but, if said, is said to the depth."""
DOC_PAIRS = (("sun", "star"), ("wolf", "animal"), ("spider", "insect"))
"""Subjects of the docs' own examples whose VERIFICATION (``Is the sun a star?``, ``Is the
wolf a animal?``) a gloss or a teaching step decides."""
FURTHER_DOMAINS_FREE = ("COMPARISON", "FRAME_TRANSFER")
"""Answers free to name further domains of their subjects (docs/spec.md, FREE-020)."""


@functools.cache
def packs() -> dict[str, Any]:
    """Per lemma of the shipped packs: ``pack``, ``pos``, ``gloss`` (or null), ``domains``."""
    text = resources.files("conformance.data.cognition").joinpath("packs.json")
    lemmas: dict[str, Any] = json.loads(text.read_text("utf-8"))["lemmas"]
    return lemmas


def _spread(items: list[str], count: int) -> list[str]:
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def pack_plan(ctx: SuiteContext) -> Plan:
    """Glossed and gloss-less subjects, each paired with a subject of the other kind, among
    the lemmas the engine lists as the shipped packs do."""
    shipped = packs()
    listed = [
        e.lemma
        for e in ctx.lexicon
        if e.lemma in shipped
        and shipped[e.lemma]["pack"] == e.pack
        and (shipped[e.lemma]["gloss"] is not None) == e.has_gloss
    ]
    glossed = sorted(w for w in listed if shipped[w]["gloss"] is not None)
    glossless = sorted(w for w in listed if shipped[w]["gloss"] is None)
    cases = []
    for kind, chosen, others in (
        ("glossed subjects", _spread(glossed, SPREAD), glossless),
        ("gloss-less subjects", _spread(glossless, SPREAD), glossed),
    ):
        for index, lemma in enumerate(chosen):
            if others:
                other = others[(index * len(others) // max(len(chosen), 1) + 1) % len(others)]
                cases.append(Case([lemma, other], ((kind, lemma),)))
    examples = [p for p in DOC_PAIRS if set(p) <= set(listed)]
    cases += [Case(list(p), (("doc examples", p[0]),)) for p in examples]
    universe = (
        ("glossed subjects", min(len(glossed), SPREAD)),
        ("gloss-less subjects", min(len(glossless), SPREAD)),
        ("doc examples", len(examples)),
    )
    return Plan(tuple(cases), universe)


def depth_of(register_id: str | None) -> int:
    """The disclosure depth of a shipped register (none of them sets a per-intent one)."""
    if register_id is None:
        return DEFAULT_DEPTH
    overrides = SHIPPED[register_id]["realizer_overrides"]
    return int(overrides.get("disclosure_domain_count", DEFAULT_DEPTH))


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<![\w-]){re.escape(_plain(word))}(?![\w-])", text))


@dataclass(frozen=True)
class Duty:
    """What one answer must say of the pack: the subjects it describes, and whether a
    NARRATIVE's domains or an EXAMPLE's domains come with them."""

    subjects: tuple[str, ...]
    domains_too: bool = False
    example_domains: bool = False


def duty(intent: str, result: Any, lemma: str, other: str | None) -> Duty:
    """The subjects whose pack description the answer of *intent* about *lemma* must say
    (§ Answers); *other* is the prompt's second known subject, if any."""
    both = (lemma, other) if other is not None else (lemma,)
    says = member(result, "says", "object")
    source = result.get("grounding_source")
    if intent in ("DEFINITION", "PROCEDURE"):
        return Duty((lemma,))
    if intent == "CAUSE":
        return Duty(() if source == "teaching" else (lemma,))
    if intent == "TRANSITIVE_QUERY":
        return Duty(() if source == "teaching" else both)
    if intent == "VERIFICATION":
        return Duty(both if member(says, "verdict") == "unknown" else (lemma,))
    if intent == "RECALL":
        silent = not member(says, "said", "array") and member(says, "claim") is None
        return Duty((lemma,) if silent else ())
    if intent == "CORRECTION":
        return Duty((lemma,) if member(says, "claim") is not None else ())
    if intent == "NARRATIVE":
        return Duty((lemma,), domains_too=True)
    if intent == "EXAMPLE":
        return Duty((lemma,), example_domains=not member(says, "steps", "array"))
    if intent in FURTHER_DOMAINS_FREE:
        return Duty(both)
    return Duty(())


def unsaid(intent: str, result: Any, subjects: list[str], depth: int) -> list[str]:
    """What the answer does not say of the pack; *subjects* are the prompt's known subjects,
    in order."""
    task = duty(intent, result, subjects[0], subjects[1] if len(subjects) > 1 else None)
    text = _plain(str(member(result, "pre_decoration_surface", "string")))
    missing: list[str] = []
    for name in task.subjects:
        entry = packs()[name]
        owed = list(entry["domains"][:depth]) if entry["gloss"] is None or task.domains_too else []
        if task.example_domains:
            owed += [d for d in entry["domains"][:2] if d not in owed]
        if entry["gloss"] is not None and not _count(entry["gloss"], text):
            missing.append(f"the gloss of {name} {entry['gloss']!r}")
        missing += [f"{name}'s domain {d!r}" for d in owed if not _count(d, text)]
    if intent == "PROCEDURE" and packs().get(VERB, {}).get("pos") == "verb":
        missing += [] if _count(VERB, text) else [f"the request's verb {VERB!r}"]
    return missing


def overdisclosed(
    intent: str, shallow: Any, deep: Any, subjects: list[str], depths: tuple[int, int]
) -> list[str]:
    """The domains a shallower disclosure names as often as a deeper one does.

    The same turn under two depths differs only in how many domains it discloses, so a
    domain the deeper one discloses and the shallower one must not appears fewer times in
    the shallower surface, whatever other words of the answer happen to be that domain. A
    subject the answer need not describe is held to the same where the shallower surface
    names such a domain at all and no item of the answer accounts for it."""
    if intent in FURTHER_DOMAINS_FREE:
        return []
    task = duty(intent, deep, subjects[0], subjects[1] if len(subjects) > 1 else None)
    low = _plain(str(member(shallow, "pre_decoration_surface", "string")))
    high = _plain(str(member(deep, "pre_decoration_surface", "string")))
    found = []
    for name in subjects:
        entry = packs()[name]
        owed = name in task.subjects
        if entry["gloss"] is not None and not (owed and task.domains_too):
            continue
        for hidden in entry["domains"][depths[0] : depths[1]]:
            shallow_count, deep_count = _count(hidden, low), _count(hidden, high)
            if shallow_count < deep_count:
                continue
            if owed:
                found.append(f"{name}'s domain {hidden!r}")
            elif shallow_count and not _count(hidden, _background(shallow, subjects)):
                found.append(f"{name}'s domain {hidden!r} (said of it unasked)")
    return found


def _background(result: Any, subjects: list[str]) -> str:
    """The words an answer may hold whatever it says of a subject's domains: its ``says``
    (the items that name domains, the quoted turns, the claim) and the subjects' glosses."""
    glosses = [str(packs()[name]["gloss"] or "") for name in subjects]
    return _plain(" ".join([json.dumps(member(result, "says", "object")), *glosses]))


@requirement(
    "COG-ANSWER-006",
    "every answer that says what the pack says of a subject says its gloss (as whole words, "
    "letter case and white space aside), or for a gloss-less lemma its first domains as "
    "many as the disclosure depth, under every "
    "register, and names a domain beyond the depth fewer times than a deeper register does "
    "(comparisons and frame transfers aside; also of a subject it need not describe, where "
    "it names such a domain no item accounts for): DEFINITION, CAUSE and TRANSITIVE_QUERY "
    "without teaching, VERIFICATION "
    "(and the next subject when not known), RECALL of nothing said (and of a turn without a "
    "claim), CORRECTION, NARRATIVE "
    "(gloss and domains), EXAMPLE, PROCEDURE (and its verb the lexicon holds), COMPARISON, "
    "FRAME_TRANSFER",
    family="cognition",
    capabilities=("sessions", "answers", "lexicon"),
    seed="docs/intents.md § Answers (what the pack says of it: its gloss; for a lemma without "
    "one, its first domains, as many as the disclosure depth)",
    cover=pack_plan,
)
def surface_says_the_pack(engine: EngineClient, pair: list[str]) -> None:
    lemma, other = pair
    script = [prompt.format(a=lemma, b=other) for prompt, _ in SCRIPT]
    runs = run_four(engine, script)
    found = []
    for run in runs:
        register = run[0].get("register_id") if run else None
        for index, result in enumerate(run):
            wrong = _turn_wrong(index, result, lemma, other, depth_of(register))
            if wrong:
                found.append(_disagreement(index, result, script, wrong, register))
    shallow, deep = runs[FOUR_REGISTERS.index(TERSE)], runs[FOUR_REGISTERS.index(None)]
    depths = (depth_of(TERSE), depth_of(None))
    for index, (low, high) in enumerate(zip(shallow, deep, strict=True)):
        intent = SCRIPT[index][1]
        if not _asked(index, low, lemma) or not _asked(index, high, lemma):
            continue
        over = overdisclosed(intent, low, high, _subjects(index, lemma, other), depths)
        if over:
            wrong = [f"fewer times than at depth {depths[1]}: " + ", ".join(over)]
            found.append(_disagreement(index, low, script, wrong, TERSE, "names"))
    assert not found, cases_.listing(
        f"{len(found)} answers do not say what the pack says of their subjects:", found
    )


def _subjects(index: int, lemma: str, other: str) -> list[str]:
    return [lemma, other] if "{b}" in SCRIPT[index][0] else [lemma]


def _asked(index: int, result: Any, lemma: str) -> bool:
    """Whether the engine read the prompt as the script means it (other requirements judge
    the reading itself)."""
    return bool(result.get("intent") == SCRIPT[index][1] and result.get("subject") == lemma)


def _turn_wrong(index: int, result: Any, lemma: str, other: str, depth: int) -> list[str]:
    if not _asked(index, result, lemma):
        return []
    return unsaid(SCRIPT[index][1], result, _subjects(index, lemma, other), depth)


def _disagreement(
    index: int,
    result: Any,
    script: list[str],
    wrong: list[str],
    register: str | None,
    verb: str = "does not say",
) -> cases_.Disagreement:
    return cases_.Disagreement(
        f"turn {index + 1} ({SCRIPT[index][1]}) under {register!r}",
        f"the surface {verb} " + ", ".join(wrong),
        f"{script[index]!r}: {result.get('pre_decoration_surface')!r}",
        rank=index,
    )
