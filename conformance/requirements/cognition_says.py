"""What an answer says, judged from its ``says`` object (capability ``answers``).

docs/intents.md § Answers fixes what an answer says (a verdict and what decides it, the
teaching steps told, the user's own words for a RECALL, a correction's claim, the words not
grounded) while its words are each engine's own; an engine claiming ``answers`` states those
items in ``says`` (§ What an answer says, as data). COG-ANSWER-001 holds them to the answer
catalogue, case by case; COG-ANSWER-002 to 004 check relations that hold for any lexicon,
where the value itself is the engine's to decide.
"""

from __future__ import annotations

from typing import Any

from conformance import answer_rules, rules
from conformance import cases as cases_
from conformance.coverage import GLOSSED_SPREAD, Case, Plan, joined
from conformance.driver import run_four, run_script
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.model import SuiteContext
from conformance.requirements.cognition import catalogue_holds
from conformance.requirements.registry import requirement
from conformance.surface_items import unsaid

CAPABILITIES = ("sessions", "answers")
SEED = "docs/intents.md § Answers; § What an answer says, as data (says)"
CANDIDATES = 2
"""Words of an answer tried as predicates per lemma by COG-ANSWER-002."""
NAMINGS = ("Tell me about {a}.", "What is {a}?", "Describe {a}.")
FILLER = "What is {a}?"
RECALL = "Remind me what I said about {a}."


def says_of(result: Any) -> Any:
    """The ``says`` object of a ``session.chat`` result (a FAIL naming it when missing)."""
    return member(result, "says", "object")


def _differences(case: dict[str, Any], last: Any) -> list[str]:
    found = []
    if "intent" in case and last.get("intent") != case["intent"]:
        found.append(f"intent {last.get('intent')!r}, the docs say {case['intent']!r}")
    says = says_of(last)
    for key, expected in case["says"].items():
        value = member(says, key)
        if value != expected:
            found.append(f"says.{key} {value!r}, the docs say {expected!r}")
    return found


@requirement(
    "COG-ANSWER-001",
    "every rule of the answer catalogue (each sentence of docs/intents.md § Answers, by id) "
    "holds on its cases: the says object states the verdict and what decides it, the checked "
    "statement, the teaching steps told, the RECALL quotes and counts, the claim and the "
    "words not grounded, as the docs say",
    family="cognition",
    capabilities=CAPABILITIES,
    seed=SEED,
    cover=answer_rules.answer_plan,
)
def answers_say_what_the_docs_say(engine: EngineClient, case_ids: list[str]) -> None:
    cases = [answer_rules.case(case_id) for case_id in case_ids]
    catalogue_holds(engine, cases, _differences, "answer cases say something else")


def _spread(items: list[str], count: int) -> list[str]:
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def lemma_plan(ctx: SuiteContext) -> Plan:
    """A spread of glossed lemmas and of gloss-less ones, each asked about once."""
    glossed = sorted({e.lemma for e in ctx.lexicon if e.has_gloss})
    glossless = sorted({e.lemma for e in ctx.lexicon if not e.has_gloss})
    chosen = [
        *(("glossed lemmas", w) for w in _spread(glossed, GLOSSED_SPREAD)),
        *(("gloss-less lemmas", w) for w in _spread(glossless, GLOSSED_SPREAD // 2)),
    ]
    universe = (
        ("glossed lemmas", min(len(glossed), GLOSSED_SPREAD)),
        ("gloss-less lemmas", min(len(glossless), GLOSSED_SPREAD // 2)),
    )
    lemmas = sorted({e.lemma for e in ctx.lexicon})
    cases = []
    for kind, lemma in chosen:
        other = lemmas[(lemmas.index(lemma) + 1) % len(lemmas)]
        cases.append(Case([lemma, other], ((kind, lemma),)))
    return Plan(tuple(cases), universe)


def _predicates(engine: EngineClient, session: str, lemma: str) -> list[str]:
    """Candidate predicate words: the first content-looking words the engine's own answer
    about *lemma* uses (any word does: the relations hold whatever the predicate)."""
    said = engine.call("session.chat", {"session": session, "text": f"What is {lemma}?"})
    words = member(said, "pre_decoration_surface", "string").lower().replace("'", " ").split()
    closed = set(rules.function_words())
    found: list[str] = []
    for raw in words:
        word = raw.strip('.,;:!?()"')
        fresh = word not in closed and word != lemma and word not in found
        if len(word) > 3 and word.isalpha() and fresh:
            found.append(word)
    return found[:CANDIDATES]


def _verdict(engine: EngineClient, session: str, text: str, lemma: str) -> tuple[Any, Any] | None:
    result = engine.call("session.chat", {"session": session, "text": text})
    if result.get("intent") != "VERIFICATION" or result.get("subject") != lemma:
        return None
    says = says_of(result)
    return member(says, "verdict"), member(says, "by")


@requirement(
    "COG-ANSWER-002",
    "verdicts obey the negation rules for any predicate: 'Isn't X a W?' and 'Is it true that "
    "X is a W?' say the verdict and evidence of 'Is X a W?'; when that is yes by a teaching "
    "step or the gloss, 'Is it true that X is not a W?' and '... is no W?' are no by the same "
    "evidence, and a not known stays not known",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/intents.md § Answers (VERIFICATION: a statement that says not, never or no "
    "after its first word is negated; a first not only makes a negative question)",
    cover=lemma_plan,
)
def negation_relations(engine: EngineClient, pair: list[str]) -> None:
    lemma = pair[0]
    session = engine.call("session.open", {"register_id": None})["session"]
    try:
        found = []
        for word in _predicates(engine, session, lemma):
            asked = f"Is {lemma} a {word}?"
            plain = _verdict(engine, session, asked, lemma)
            if plain is None:
                continue
            negative = _verdict(engine, session, f"Isn't {lemma} a {word}?", lemma)
            if negative is not None and negative != plain:
                found.append(f"{asked!r} says {plain}, 'Isn't {lemma} a {word}?' says {negative}")
            wrapped = f"Is it true that {lemma} is a {word}?"
            same = _verdict(engine, session, wrapped, lemma)
            if same is not None and same != plain:
                found.append(f"{asked!r} says {plain}, {wrapped!r} says {same}")
            if plain[0] == "yes" and plain[1] in ("teaching", "gloss"):
                expected: tuple[Any, Any] = ("no", plain[1])
            elif plain[0] == "unknown":
                expected = ("unknown", None)
            else:
                continue
            for negation in ("not a", "no"):
                denied = f"Is it true that {lemma} is {negation} {word}?"
                flipped = _verdict(engine, session, denied, lemma)
                if flipped is not None and flipped != expected:
                    found.append(
                        f"{asked!r} says {plain}, {denied!r} says {flipped}, not {expected}"
                    )
        assert not found, "; ".join(found)
    finally:
        engine.call("session.close", {"session": session})


def _positions(lemma: str) -> tuple[int, ...]:
    """Where *lemma* is named in a six-turn script (a pattern drawn from its letters)."""
    code = sum(map(ord, lemma))
    picked = tuple(i for i in range(6) if (code >> i) & 1)
    return picked or (code % 6,)


MANY_NAMINGS = 300
"""Namings before the RECALL of COG-ANSWER-003's long case: past 255, so a count held in eight
bits, or read off a list of the latest turns kept up to 256 long, shows."""


def _many_namings_plan(ctx: SuiteContext) -> Plan:
    """One case: the first glossed lemma of the spread named :data:`MANY_NAMINGS` times."""
    first = lemma_plan(ctx).cases[0].scenario
    case = Case([*first, str(MANY_NAMINGS)], (("namings", str(MANY_NAMINGS)),))
    return Plan((case,), (("namings", 1),))


@requirement(
    "COG-ANSWER-003",
    "a RECALL quotes the turns that named its subject, the latest claim first and then the "
    "latest first, each as the turn counted from 1 (position + 1) with its normalised words, "
    "states the latest claim and says how many earlier turns named it, wherever in the "
    "session they were, also after 300 of them (past any count of 8 bits or list of the "
    "latest turns)",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/intents.md § Answers (RECALL: the turn of each, counted from 1 for people; "
    "how many earlier turns named the subject); § What an answer says, as data (`earlier`: "
    "how many earlier turns named the subject)",
    cover=joined(lemma_plan, _many_namings_plan),
)
def recall_turns_relation(engine: EngineClient, pair: list[str]) -> None:
    """Six-turn scripts name the subject where its letters say; the long case names it
    :data:`MANY_NAMINGS` times in a row: "how many earlier turns named the subject" is a
    count of every one of them: of what a subject's tally keeps, only the things said are
    cut to "the latest three" (docs/state.md § What is bounded, and how)."""
    lemma, filler = pair[:2]
    if len(pair) > 2:
        namings = int(pair[2]) if pair[2].isdecimal() else 0
        script = [NAMINGS[i % len(NAMINGS)].format(a=lemma) for i in range(namings)]
        every = tuple(range(namings))
        _recall_quotes(engine, lemma, script, every, sorted(every, reverse=True)[:3], {})
        return
    named = _positions(lemma)
    script = [
        NAMINGS[i % len(NAMINGS)].format(a=lemma) if i in named else FILLER.format(a=filler)
        for i in range(6)
    ]
    latest = sorted(named, reverse=True)[:3]
    _recall_quotes(engine, lemma, script, named, latest, {})
    if len(latest) >= 2:
        claimed = latest[-1]
        script[claimed] = CLAIM.format(a=lemma)
        order = [claimed, *latest[:-1]]
        _recall_quotes(engine, lemma, script, named, order, {claimed: "is a lantern"})
    if len(latest) == 3:
        newest, middle, oldest = latest
        script[middle] = LATER_CLAIM.format(a=lemma)
        claims = {middle: "is a lamp", oldest: "is a lantern"}
        _recall_quotes(engine, lemma, script, named, [middle, newest, oldest], claims)


CLAIM = "No, the {a} is a lantern."
LATER_CLAIM = "No, the {a} is a lamp."


def _recall_quotes(
    engine: EngineClient,
    lemma: str,
    script: list[str],
    named: tuple[int, ...],
    order: list[int],
    claims: dict[int, str],
) -> None:
    """The RECALL after *script* quotes the turns *order* (positions; the corrections of
    *claims*, by position, each with its claim: the latest first, the others in their
    place) and counts every turn of *named*."""
    responses = run_script(engine, None, [*script, RECALL.format(a=lemma)])
    if any(responses[i].get("subject") != lemma for i in named):
        return
    if any(responses[i].get("intent") != "CORRECTION" for i in claims):
        return
    recalled = responses[-1]
    if recalled.get("intent") != "RECALL" or recalled.get("subject") != lemma:
        return
    says = says_of(recalled)
    claim = claims[max(claims)] if claims else None
    expected = [{"turn": i + 1, "text": script[i].lower(), "claim": claims.get(i)} for i in order]
    assert member(says, "said") == expected, (
        f"after {script!r}, {RECALL.format(a=lemma)!r} quotes {member(says, 'said')!r}; "
        f"the docs quote turns {[i + 1 for i in order]} counted from 1 (the latest claim "
        f"first, then the others, the latest first): {expected!r}"
    )
    assert member(says, "claim") == claim, (
        f"after {script!r}, {RECALL.format(a=lemma)!r} states the claim "
        f"{member(says, 'claim')!r}; the user's latest claim about {lemma} is {claim!r}"
    )
    assert member(says, "earlier") == len(named), (
        f"{RECALL.format(a=lemma)!r} says {member(says, 'earlier')!r} earlier turns named "
        f"{lemma}; {len(named)} did"
    )


@requirement(
    "COG-ANSWER-004",
    "what an answer says does not depend on the register: every turn's says is the same "
    "under UNREGISTERED and the three shipped registers",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/intents.md § Answers (a register changes only its markers and the disclosure "
    "depth, never what it says)",
    cover=lemma_plan,
)
def says_is_register_free(engine: EngineClient, pair: list[str]) -> None:
    lemma = pair[0]
    script = [
        f"No, the {lemma} is a lantern.",
        f"Is the {lemma} a lantern?",
        f"Tell me about {lemma}.",
        f"Give me an example of {lemma}.",
        f"Why is there {lemma}?",
        f"Remind me what I said about {lemma}.",
        "What did I say?",
    ]
    runs = run_four(engine, script)
    for index, prompt in enumerate(script):
        first = says_of(runs[0][index])
        for run in runs[1:]:
            other = says_of(run[index])
            assert other == first, (
                f"{prompt!r} (turn {index + 1}) says {dict(other)!r} under register "
                f"{run[index].get('register_id')!r} but {dict(first)!r} unregistered"
            )


DOC_PAIRS = (("moon", "tide"), ("animal", "wolf"), ("insect", "spider"), ("wolf", "fox"))
"""Pairs from the examples of docs/intents.md § Answers (`moon pulls tide`, `animal
includes wolf`, `insect includes spider`), whose answers tell teaching steps."""
SPOKEN = (
    "No, the {a} is a lantern.",
    "Is the {a} a lantern?",
    "Tell me about {a}.",
    "Give me an example of {a}.",
    "Why is there {a}?",
    "How do I grow {a}?",
    "Compare {a} and {b}.",
    "What if the {a} were a {b}?",
    "How is {a} related to {b}?",
    "What is {a} blorvex?",
    "Remind me what I said about {a}.",
    "What did I say?",
)
"""A script that has an engine say every kind of item ``says`` holds."""
SPOKEN_AGAIN = (
    "What did I say about {a}?",
    "No, the {a} is a lantern.",
    "Is the {a} not a lantern?",
    "Is the {b} a {a}?",
    "What is a blorvex?",
    "No, the {b} glows.",
    "Remind me what I said about {a}.",
    "Remind me what I said about {b}.",
    "What did I say?",
)
"""A second session where a RECALL quotes a claim among its turns (one of a single word), a
VERIFICATION of a negated statement is decided no by the claim, one of the second subject
may be decided by a teaching step, and a subject is in no pack."""
SPOKEN_CLAIMS = (
    "No, the {a} is a lantern.",
    "No, the {a} glows.",
    "What is {a}?",
    "Remind me what I said about {a}.",
    "What did I say?",
)
"""A third session where both RECALLs quote two claims about one subject, the latest first,
with a turn without a claim between them."""
SPOKEN_OLD_CLAIM = (
    "No, the {a} is a lantern.",
    "What is {a}?",
    "Tell me about {a}.",
    "Describe {b}.",
    "What did I say?",
)
"""A fourth session whose RECALL of the whole session quotes a claim older than the three
latest turns, first."""


def spoken_plan(ctx: SuiteContext) -> Plan:
    """The lemma spread of :func:`lemma_plan` and the pairs of the docs' own examples."""
    spread = lemma_plan(ctx)
    known = {e.lemma for e in ctx.lexicon}
    pairs = [p for p in DOC_PAIRS if set(p) <= known]
    cases = (*spread.cases, *(Case(list(p), (("doc examples", p[0]),)) for p in pairs))
    return Plan(cases, (*spread.universe, ("doc examples", len(pairs))))


@requirement(
    "COG-ANSWER-005",
    "an answer's surface says what its says object states, under every register: each step "
    "as 'from relation to' in the order told, the claim, the unknown words, each quoted "
    "text and the domains of start, spans and compared (letter case aside, each as whole "
    "words), the turns quoted and the count of earlier turns as decimal numerals, and the "
    "verdict by its word (yes, no, not known); the suite's client holds every answer any "
    "requirement meets to the same, a FAIL of that requirement",
    family="cognition",
    capabilities=(*CAPABILITIES, "lexicon"),
    seed="docs/intents.md § What an answer says, as data (the surface says every item)",
    cover=spoken_plan,
)
def surface_says_the_says(engine: EngineClient, pair: list[str]) -> None:
    lemma, other = pair
    found = []
    for lines in (SPOKEN, SPOKEN_AGAIN, SPOKEN_CLAIMS, SPOKEN_OLD_CLAIM):
        script = [line.format(a=lemma, b=other) for line in lines]
        found += _unspoken(engine, script)
    assert not found, cases_.listing(
        f"{len(found)} answers do not say what their says states:", found
    )


def _unspoken(engine: EngineClient, script: list[str]) -> list[cases_.Disagreement]:
    found = []
    for run in run_four(engine, script):
        for index, result in enumerate(run):
            missing = unsaid(str(member(result, "surface", "string")), says_of(result))
            if missing:
                found.append(
                    cases_.Disagreement(
                        f"turn {index + 1} under {result.get('register_id')!r}",
                        f"the surface does not say {', '.join(missing)}",
                        f"{script[index]!r}: {result.get('surface')!r}",
                        rank=index,
                    )
                )
    return found
