"""Clauses of docs/intents.md that the catalogues reach only on one side.

Each requirement sends the prompts on which a port that keeps a clause's first half and
drops its second (one pass where the docs say "until neither is left", `do`/`does`/`did`
where they say "auxiliaries") answers otherwise than one that follows the whole sentence,
and compares what the engine reports with the value the docs' words give. Every case runs
in a fresh session; words no pack holds (`glow`, `zorb`) keep the cases free of which
nouns a lexicon happens to hold.
"""

from __future__ import annotations

from typing import Any

from conformance import cases as cases_
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.registry import requirement

Labeled = dict[str, Any]
"""One case: ``id``, ``turns``, ``why`` (the clause it holds), the last turn's ``intent``,
``subject`` and ``grounding_source`` it fixes, and the members of ``says`` it fixes."""

AUX = ("is are was were does do did can could will would should has have had must may am").split()
"""`AUX` of docs/intents.md § The table of forms; a grammatical subject is read past these,
`might` and `not` (§ Subjects, words that refer back)."""


def _aux_cases() -> list[Labeled]:
    cases = [
        {
            "id": f"AUX-{aux}",
            "turns": ["What is a river?", f"Why {aux} they glow?"],
            "why": f"the grammatical subject of `{aux} they glow` is `they`, past `{aux}`",
            "subject": "river",
        }
        for aux in (*AUX, "might")
    ]
    cases += [
        {
            "id": "AUX-not",
            "turns": ["What is a river?", "Why can't they glow?"],
            "why": "`can not they glow`: past `can` and `not` (AUX maybe followed by not)",
            "subject": "river",
        },
        {
            "id": "AUX-not-it",
            "turns": ["What is a river?", "Why doesn't it glow?"],
            "why": "`does not it glow`: `it` before `glow`, no noun of the lexicon",
            "subject": "river",
        },
    ]
    return cases


UNWRAP: list[Labeled] = [
    {
        "id": "UNWRAP-1",
        "turns": ["Well, can you um tell me what a cousin is?"],
        "why": "`well`, `can you`, `um`, `tell me` in turn: `what a cousin is`",
        "intent": "DEFINITION",
        "subject": "cousin",
    },
    {
        "id": "UNWRAP-3",
        "turns": ["So, would you uh explain what a tide is?"],
        "why": "`so`, `would you`, `uh`, `explain` in turn: `what a tide is`",
        "intent": "DEFINITION",
        "subject": "tide",
    },
    {
        "id": "UNWRAP-4",
        "turns": ["Okay, I want to um know what a river is."],
        "why": "`okay`, `i want to`, `um`, `know` in turn: `what a river is`",
        "intent": "DEFINITION",
        "subject": "river",
    },
]
"""Step 7: leading interjections and polite wrappers, in turn, until neither is left."""

IF_AFTER: list[Labeled] = [
    {
        "id": "IF-1",
        "turns": ["Hey, if the mind were an ocean, what would it hold?"],
        "why": "an interjection is no wrapper: `if A were B` stays (FRAME_TRANSFER)",
        "intent": "FRAME_TRANSFER",
        "subject": "mind",
    },
    {
        "id": "IF-2",
        "turns": ["Well, if a family were a forest, what would it be?"],
        "why": "an interjection is no wrapper: `if A were B` stays (FRAME_TRANSFER)",
        "intent": "FRAME_TRANSFER",
        "subject": "family",
    },
    {
        "id": "IF-3",
        "turns": ["So if time were a river, where would it flow?"],
        "why": "an interjection is no wrapper: `if A were B` stays (FRAME_TRANSFER)",
        "intent": "FRAME_TRANSFER",
        "subject": "time",
    },
    {
        "id": "IF-4",
        "turns": ["Hmm, tell me if whales are fish."],
        "why": "the wrapper `tell me` directly before `if`: `whether whales are fish`",
        "intent": "VERIFICATION",
        "subject": "whales",
    },
]
"""Step 7: a *wrapper* directly before `if` makes it `whether`."""

BELIEF: list[Labeled] = [
    {
        "id": "BELIEF-1",
        "turns": ["Well, I think the sun is a star."],
        "why": "past the interjection, `i think` puts a belief forward: a question",
        "intent": "VERIFICATION",
        "subject": "sun",
    },
    {
        "id": "BELIEF-2",
        "turns": ["Oh, I believe owls hunt at night."],
        "why": "past the interjection, `i believe` puts a belief forward: a question",
        "intent": "VERIFICATION",
        "subject": "owls",
    },
    {
        "id": "BELIEF-3",
        "turns": ["Hmm, someone told me that bees make honey."],
        "why": "past the interjection, `someone told me` puts a belief forward: a question",
        "intent": "VERIFICATION",
        "subject": "bees",
    },
    {
        "id": "BELIEF-4",
        "turns": ["Rain is wet. Well, I think the sun is a star."],
        "why": "the belief is the last question a form reads as a request (step 9)",
        "intent": "VERIFICATION",
        "subject": "sun",
    },
]
"""Step 6: a sentence that opens, past interjections, with a belief opener is a question."""

AGENTS: list[Labeled] = [
    {
        "id": "AGENTS-1",
        "turns": ["Tell me about people we love."],
        "why": "the agent `people`, then the verb by position `love`: their own order",
        "intent": "NARRATIVE",
        "subject": "people",
    },
    {
        "id": "AGENTS-2",
        "turns": ["Tell me about what we love, and people."],
        "why": "the verb by position `love`, then the agent `people`: their own order",
        "intent": "NARRATIVE",
        "subject": "love",
    },
    {
        "id": "AGENTS-3",
        "turns": ["Tell me about what we love and what people fear."],
        "why": "`love`, the agent `people`, `fear` (after an agent): their own order",
        "intent": "NARRATIVE",
        "subject": "love",
    },
]
"""§ Subjects rule 1: verbs by position and generic agents keep their order among
themselves, after the other words."""

COMPOSED: list[Labeled] = [
    {
        "id": "COMPOSED-1",
        "turns": ["How do I grow a blorvex?"],
        "why": "`grow` goes last (rule 1), then the known `grow` comes before the unknown "
        "`blorvex` (rule 2)",
        "intent": "PROCEDURE",
        "subject": "grow",
    },
    {
        "id": "COMPOSED-2",
        "turns": ["I love blorvexes!"],
        "why": "the verb by position `love` is known, `blorvexes` is not: rule 2 comes second",
        "subject": "love",
    },
    {
        "id": "COMPOSED-3",
        "turns": ["We often fear blorvexes."],
        "why": "`fear` after `we` (past `often`) goes last, then first as the only known word",
        "subject": "fear",
    },
    {
        "id": "COMPOSED-4",
        "turns": ["How to grow a blorvex?"],
        "why": "the action slot's first word `grow` goes last, then first as the known word",
        "intent": "PROCEDURE",
        "subject": "grow",
    },
    {
        "id": "COMPOSED-5",
        "turns": ["How do I grow a garden?"],
        "why": "both known: rule 1 alone decides, `garden` before `grow`",
        "intent": "PROCEDURE",
        "subject": "garden",
    },
]
"""§ Subjects: rule 1 (verbs by position go last), then rule 2 (known lemmas first, a stable
reordering): applied the other way round, a known verb by position falls behind an unknown
noun."""

NAMED: list[Labeled] = [
    {
        "id": "NAMED-1",
        "turns": ["Compare a river and a lake.", "What did I say about lakes?"],
        "why": "the comparison's subject is `river`: it does not name `lake`",
        "intent": "RECALL",
        "grounding_source": "pack",
        "says": {"said": [], "earlier": 0},
    },
    {
        "id": "NAMED-2",
        "turns": ["Compare a river and a lake.", "What did I say about rivers?"],
        "why": "the comparison's subject `river` is named",
        "intent": "RECALL",
        "grounding_source": "vault",
        "says": {
            "said": [{"turn": 1, "text": "compare a river and a lake.", "claim": None}],
            "earlier": 1,
        },
    },
    {
        "id": "NAMED-3",
        "turns": ["Compare a zorb and a river.", "What did I say about rivers?"],
        "why": "`zorb` is no lemma: the first known subject `river` is named",
        "intent": "RECALL",
        "grounding_source": "vault",
        "says": {
            "said": [{"turn": 1, "text": "compare a zorb and a river.", "claim": None}],
            "earlier": 1,
        },
    },
    {
        "id": "NAMED-4",
        "turns": [
            "How is light connected to memory?",
            "Tell me about the moon and light.",
            "What did I say about memory?",
        ],
        "why": "neither turn's first known subject is `memory`",
        "intent": "RECALL",
        "grounding_source": "pack",
        "says": {"said": [], "earlier": 0},
    },
    {
        "id": "NAMED-5",
        "turns": [
            "Tell me about blorvex.",
            "What is a blorvex?",
            "What did I say about blorvex?",
        ],
        "why": "`blorvex` is no lemma: a turn with no subject the lexicon knows names nothing, "
        "so no earlier turn named it (`earlier` 0, nothing quoted) and no subject is known "
        "(spec.md grounding rule 5: `oov`)",
        "intent": "RECALL",
        "subject": "blorvex",
        "grounding_source": "oov",
        "says": {"said": [], "earlier": 0, "claim": None},
    },
]
"""§ Answers, RECALL: a turn names a subject when the first of its subjects the lexicon
knows is the same word as it; a turn none of whose subjects the lexicon knows names
nothing, so a RECALL of a word no pack knows finds no earlier turn however often it was
used."""


KINDS: list[Labeled] = [
    {
        "id": "KIND-1",
        "turns": ["Tell me about type of zorb."],
        "why": "`type of X`, no article, names X: `type` is no subject",
        "intent": "NARRATIVE",
        "subject": "zorb",
    },
    {
        "id": "KIND-2",
        "turns": ["What is kind of zorb?"],
        "why": "`kind of X`, no article, names X: `kind` is no subject",
        "intent": "DEFINITION",
        "subject": "zorb",
    },
    {
        "id": "KIND-3",
        "turns": ["Tell me about an kind of zorb."],
        "why": "`an kind of X` names X",
        "intent": "NARRATIVE",
        "subject": "zorb",
    },
    {
        "id": "KIND-4",
        "turns": ["Is a spider sort of insect?"],
        "why": "`sort of X` names X: the checked statement `a spider insect`, stated by a "
        "teaching step (`insect includes spider`)",
        "intent": "VERIFICATION",
        "subject": "spider",
        "grounding_source": "teaching",
    },
]
"""§ Subjects: `a kind of X` names X, as do `an kind of X`, `kind of X` and the same with
`sort` or `type` for `kind`."""

TERMS: list[Labeled] = [
    {
        "id": f"TERM-{word}",
        "turns": [prompt],
        "why": f"`the {noun} {word}` names no `{word}`: `{noun}` stays a subject",
        "subject": noun,
    }
    for word, noun, prompt in (
        ("and", "term", "Tell me about the term and a river."),
        ("or", "word", "Tell me about the word or a river."),
        ("with", "word", "Tell me about the word with a river."),
        ("to", "word", "Explain the word to a child."),
        ("is", "word", "Is the word is a verb?"),
    )
]
"""§ Subjects: `the word X` and `the term X` name X, X any word but `and` `or` `with` `to`
`is`."""

AUX_FORM: list[Labeled] = [
    {
        "id": f"ASKED-{aux}",
        "turns": [f"{aux.capitalize()} the sun and the moon bright?"],
        "why": f"`AUX A` with `{aux}`: no statement asked (it holds `and`) covers it",
        "intent": "VERIFICATION",
        "subject": "sun",
    }
    for aux in AUX
]
"""§ The table of forms: `AUX A` (a yes/no question), for every auxiliary of `AUX`."""


def _plan(cases: list[Labeled], dimension: str) -> Plan:
    """The cases' ids as one scenario (ids, not prompts: a shrunk failure drops whole cases
    and never cuts a prompt's words away from its label)."""
    classes = tuple((dimension, case["id"]) for case in cases)
    return Plan((Case([case["id"] for case in cases], classes),), ((dimension, len(cases)),))


def _differences(case: Labeled, last: Any) -> list[str]:
    wrong = [
        f"{key} {last.get(key)!r}, the docs say {case[key]!r}"
        for key in ("intent", "subject", "grounding_source")
        if key in case and last.get(key) != case[key]
    ]
    if "says" in case:
        says = member(last, "says", "object")
        for key, value in case["says"].items():
            said = member(says, key)
            if said != value:
                wrong.append(f"says.{key} {said!r}, the docs say {value!r}")
    return wrong


def _hold(engine: EngineClient, ids: list[str], table: list[Labeled], breaks: str) -> None:
    by_id = {case["id"]: case for case in table}
    found = []
    for case in (by_id[case_id] for case_id in ids):
        wrong = _differences(case, run_script(engine, None, case["turns"])[-1])
        if wrong:
            found.append(
                cases_.Disagreement(
                    case["id"],
                    "; ".join(wrong),
                    f"{' / '.join(case['turns'])!r}: {case['why']}",
                    rank=len(case["turns"]),
                )
            )
    assert not found, cases_.listing(f"{len(found)} of {len(ids)} {breaks}:", found)


@requirement(
    "COG-READ-461",
    "a slot whose first word past every auxiliary (AUX, might, not) is it/they refers back: "
    "'What is a river?' then 'Why can they glow?' (or is, had, may, ..., can't) is about river",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects (words that refer back: a slot whose grammatical subject, "
    "its first word past auxiliaries, the words of AUX, might and not, is it, they, he or she "
    "refers back too)",
    cover=lambda ctx: _plan(_aux_cases(), "auxiliaries"),
)
def grammatical_subject_past_auxiliaries(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, _aux_cases(), "slots read no grammatical subject past their auxiliary")


@requirement(
    "COG-READ-462",
    "step 7 strips leading interjections and polite wrappers in turn until neither is left: "
    "an interjection after a wrapper goes too ('Well, can you um tell me what a cousin is?')",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § How a prompt is read, step 7 (leading interjections and polite "
    "wrappers, in turn, until neither is left)",
    cover=lambda ctx: _plan(UNWRAP, "wrapped prompts"),
)
def unwrapped_until_neither_left(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, UNWRAP, "prompts keep an interjection or a wrapper")


@requirement(
    "COG-READ-463",
    "only a wrapper directly before if makes it whether: after an interjection alone 'if A "
    "were B' stays a FRAME_TRANSFER ('Hey, if the mind were an ocean, ...')",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § How a prompt is read, step 7 (a wrapper directly before if makes "
    "it whether)",
    cover=lambda ctx: _plan(IF_AFTER, "if after"),
)
def whether_only_after_a_wrapper(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, IF_AFTER, "prompts read if as whether where no wrapper stands before it")


@requirement(
    "COG-READ-464",
    "a sentence opening past interjections with a belief opener puts a belief forward, a "
    "question: 'Well, I think the sun is a star.' is a VERIFICATION, also as a later sentence",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § How a prompt is read, step 6 (a question when it puts a belief "
    "forward: it opens, past interjections, with i/we + think, ...)",
    cover=lambda ctx: _plan(BELIEF, "beliefs after interjections"),
)
def belief_past_interjections(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, BELIEF, "beliefs after an interjection are not read as questions")


@requirement(
    "COG-READ-465",
    "verbs by position and generic agents keep their order among themselves after the other "
    "words: 'people we love' is about people, 'what we love, and people' about love",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects, rule 1 (verbs by position and generic agents keep their "
    "order among themselves, after the other words)",
    cover=lambda ctx: _plan(AGENTS, "agents and verbs"),
)
def agents_and_verbs_in_their_order(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, AGENTS, "slots reorder verbs by position and generic agents")


@requirement(
    "COG-READ-469",
    "the slot orderings apply in their order, verbs by position last and then known lemmas "
    "first: 'How do I grow a blorvex?' and 'I love blorvexes!' are about grow and love",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects (within one slot: 1. verbs by position go last; 2. then "
    "the words the lexicon holds come before those it does not)",
    cover=lambda ctx: _plan(COMPOSED, "orderings composed"),
)
def orderings_in_their_order(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, COMPOSED, "slots order their words in the wrong sequence of rules")


@requirement(
    "COG-RECALL-461",
    "a turn names only the first of its subjects the lexicon knows: after 'Compare a river "
    "and a lake.' a RECALL of lakes quotes nothing (earlier 0, pack), one of rivers quotes it; "
    "a RECALL of a word no pack knows, after turns that used it, quotes nothing (earlier 0, "
    "oov)",
    family="cognition",
    capabilities=("sessions", "answers", "lexicon"),
    seed="docs/intents.md § Answers (RECALL: a turn names a subject when the first of its "
    "subjects the lexicon knows is the same word as it); docs/spec.md § Cognition, grounding "
    "rule 5 (no subject is known — oov)",
    cover=lambda ctx: _plan(NAMED, "named subjects"),
)
def turns_name_their_first_known_subject(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, NAMED, "RECALLs count turns that did not name their subject")


@requirement(
    "COG-READ-466",
    "kind of X, sort of X and type of X name X without an article too, and so does an kind "
    "of X: 'Tell me about type of zorb.' is about zorb",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects (a kind of X names X, as do an kind of X, kind of X and "
    "the same with sort or type for kind)",
    cover=lambda ctx: _plan(KINDS, "kinds"),
)
def kind_of_without_article(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, KINDS, "prompts keep kind, sort or type as a subject")


@requirement(
    "COG-READ-467",
    "the word X and the term X name no X that is and, or, with, to or is: 'Explain the word "
    "to a child.' is about word",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § Subjects (the word X and the term X name X, X any word but and or "
    "with to is)",
    cover=lambda ctx: _plan(TERMS, "words after the word"),
)
def the_word_names_no_connector(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, TERMS, "prompts read the word X as naming a connector")


@requirement(
    "COG-READ-468",
    "the yes/no form AUX A covers a question opening with every auxiliary of AUX: "
    "'May the sun and the moon bright?' is a VERIFICATION (no statement asked holds and)",
    family="cognition",
    capabilities=("sessions", "lexicon"),
    seed="docs/intents.md § The table of forms (AUX: is, are, was, were, does, do, did, can, "
    "could, will, would, should, has, have, had, must, may, am; VERIFICATION AUX A)",
    cover=lambda ctx: _plan(AUX_FORM, "auxiliaries asked"),
)
def yes_no_question_of_every_auxiliary(engine: EngineClient, ids: list[str]) -> None:
    _hold(engine, ids, AUX_FORM, "yes/no questions are not read by AUX A")
