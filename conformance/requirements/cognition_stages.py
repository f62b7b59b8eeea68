"""Values taken from a prompt at a stage of its reading are taken at that stage.

docs/intents.md § How a prompt is read runs a prompt through numbered steps: step 1
normalises it (NFC, one kind of apostrophe, the full lowercase mapping, white space), and
"steps 2 and 3 change only the text the form is read from" (mending misspelt form words,
spelling out contractions), then quotes are cleaned (4), leads taken off (5), sentences
split (6) and unwrapped (7: trailing punctuation, `please`, interjections, wrappers). Each
value an answer reports from the prompt is fixed at one of those stages:

* a RECALL's `says.said[].text` (and the vault record it comes from) is "the turn's
  normalised input", step 1 and nothing after it, cut to its first 160 code points
  (docs/intents.md § What an answer says, as data; docs/trace-hash.md `vault_hits`;
  docs/state.md § The life);
* the `subject` is "the first of them, as written" (§ Subjects): a word of the normalised
  text, a contraction reduced to its stem, an apostrophe taken out, never folded (`trees`
  grounds as *tree*, but is reported `trees`) nor case folded beyond the lowercase of
  step 1 (`straße` is no `strasse`); the words of `says.unknown` are such subjects;
* `says.checked` is the checked statement "as it was read (normalised, cleaned)" and a
  correction's claim is read from the same text: after mending, contractions spelt out,
  quotes cleaned and the sentence unwrapped (`A whale isn't a fish.`: `is not a fish`).

Each case below sends a prompt where the stage the docs name and a neighbouring stage
give different text, so an engine that takes the value one step early or late answers
otherwise. The prompts use the words of the docs' own examples (river, sun, star, moon).
"""

from __future__ import annotations

from typing import Any

from conformance import cases as cases_
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

CAPABILITIES = ("sessions", "answers")
RECALL = "What did I say about rivers?"
"""The RECALL that quotes the turn (docs/intents.md § The table of forms: `what did/have I
<verb> (you) about A`)."""
SAID_CHARS = 160
"""docs/intents.md § What an answer says, as data: at most 160 characters (code points)."""

_LONG = "What  is  a  river? " + "\u0130" * 150
"""A long prompt whose normalised text is longer than the prompt: white space runs made one
(shorter) and each `İ` lowercased to `i` and a combining dot above (longer), so cutting at
160 before step 1, or before its lowercase, keeps another text."""

SAID: tuple[tuple[str, str, str, str | None], ...] = (
    # (stage a wrong port takes, prompt, said text (step 1 only), claim)
    ("after contractions (step 3)", "What's a river?", "what's a river?", None),
    ("after chat shorthand (step 3)", "What r rivers?", "what r rivers?", None),
    ("after mending (step 2)", "Waht is a river?", "waht is a river?", None),
    (
        "after unwrapping (step 7)",
        "Hmm, tell me what a river is, please.",
        "hmm, tell me what a river is, please.",
        None,
    ),
    (
        "after cleaning quotes (step 4)",
        "What is a \u201criver\u201d?",
        "what is a \u201criver\u201d?",
        None,
    ),
    ("after cleaning quotes (step 4)", "What is a 'river'?", "what is a 'river'?", None),
    ("before lowercasing", "WHAT IS A RIVER?", "what is a river?", None),
    (
        "simple lowercase",
        "What is a river? \u0130 \u039f\u0394\u039f\u03a3",
        "what is a river? i\u0307 \u03bf\u03b4\u03bf\u03c2",
        None,
    ),
    ("before the apostrophe mapping", "What\u2019s a river?", "what's a river?", None),
    ("before the apostrophe mapping", "What\u02bcs a river?", "what's a river?", None),
    ("before the apostrophe mapping", "What\u2018s a river?", "what's a river?", None),
    (
        "before white space",
        " \tWhat\u00a0is  a\u3000river? ",
        "what is a river?",
        None,
    ),
    ("before NFC", "What is a river? Cafe\u0301.", "what is a river? caf\u00e9.", None),
    (
        "after the correction lead and claim (step 5)",
        "No, a river isn't a road.",
        "no, a river isn't a road.",
        "is not a road",
    ),
    (
        "the cut before step 1",
        _LONG,
        ("what is a river? " + "i\u0307" * 150)[:SAID_CHARS],
        None,
    ),
)

SUBJECTS: tuple[tuple[str, str, str, list[str] | None], ...] = (
    # (stage a wrong port takes, prompt, subject as written, unknown words or None: unchecked)
    ("folded (a plural)", "What are Rivers?", "rivers", []),
    ("folded (a plural)", "What are zorbs and Rivers?", "rivers", ["zorbs"]),
    ("folded (an unknown plural)", "What are ZORBS?", "zorbs", ["zorbs"]),
    ("folded (-ing)", "What is Swimming?", "swimming", None),
    ("case folded", "What is Stra\u00dfe?", "stra\u00dfe", ["stra\u00dfe"]),
    ("case folded", "What is a \u03a3\u0391\u03a3?", "\u03c3\u03b1\u03c2", ["\u03c3\u03b1\u03c2"]),
    ("before lowercasing", "What is the RIVER?", "river", []),
    ("with its clitic", "What is the river\u2019s Mouth?", "river", ["mouth"]),
    ("with its apostrophe", "What is l\u2019ight?", "light", []),
    ("before mending", "What is an Exmaple?", "example", []),
    ("before mending (an unknown word)", "What is a Diffrence?", "difference", ["difference"]),
)

READ: tuple[tuple[str, str, str, str], ...] = (
    # (stage a wrong port takes, prompt, member of says, value as read)
    (
        "before contractions and mending",
        "Is it true that the sun isn't teh star?",
        "checked",
        "the sun is not the star",
    ),
    (
        "before cleaning quotes",
        "Is it true that the \u201cSun\u201d is a star?",
        "checked",
        "the sun is a star",
    ),
    ("before unwrapping", "Hmm, is the Sun a star, please?", "checked", "the sun a star"),
    (
        "before contractions and mending",
        "No, teh moon isn't a lantern.",
        "claim",
        "is not a lantern",
    ),
    ("before mending and lowercasing", "No, the moon is teh Lantern!", "claim", "is the lantern"),
    ("before contractions", "A whale isn't a fish.", "claim", "is not a fish"),
    ("before the apostrophe mapping", "A whale isn\u2019t a Fish.", "claim", "is not a fish"),
    (
        "before the apostrophe mapping",
        "Is it true that the sun isn\u2019t a star?",
        "checked",
        "the sun is not a star",
    ),
)


def _plan(table: tuple[tuple[Any, ...], ...], dimension: str) -> Plan:
    stages = sorted({row[0] for row in table})
    classes = tuple((dimension, stage) for stage in stages)
    return Plan((Case(list(range(len(table))), classes),), ((dimension, len(stages)),))


def said_plan(ctx: SuiteContext) -> Plan:
    """Every said case as one scenario; a class per wrong stage it tells apart."""
    del ctx
    return _plan(SAID, "wrong stage of said text")


def subject_plan(ctx: SuiteContext) -> Plan:
    """Every subject case as one scenario; a class per wrong stage it tells apart."""
    del ctx
    return _plan(SUBJECTS, "wrong stage of the subject")


def read_plan(ctx: SuiteContext) -> Plan:
    """Every checked or claim case as one scenario; a class per wrong stage."""
    del ctx
    return _plan(READ, "wrong stage of checked or claim")


@requirement(
    "COG-STAGE-001",
    "a RECALL quotes each turn by its normalised input (step 1: NFC, apostrophes, full "
    "lowercase, white space) cut to 160 code points, never a later reading: contractions and "
    "chat shorthand as written, misspellings unmended, quotes, interjections, wrappers and "
    "trailing punctuation kept, a correction's lead kept (its claim spelt out), the cut made "
    "after normalising (fixed sample)",
    family="cognition",
    capabilities=CAPABILITIES,
    seed="docs/intents.md § What an answer says, as data (said: text the turn's normalised "
    "input, at most 160 characters); § How a prompt is read step 1 (steps 2 and 3 change only "
    "the text the form is read from); docs/trace-hash.md (vault_hits: said text)",
    cover=said_plan,
)
def said_is_the_normalised_input(engine: EngineClient, rows: list[int]) -> None:
    found = []
    for index in rows:
        stage, prompt, text, claim = SAID[index]
        last = run_script(engine, None, [prompt, RECALL])[-1]
        said = member(member(last, "says", "object"), "said", "array")
        expected = [{"turn": 1, "text": text, "claim": claim}]
        if said != expected:
            found.append(
                f"{prompt!r} then {RECALL!r}: says.said {said!r}; the docs say {expected!r} "
                f"(the normalised input; a port taking it {stage} differs here)"
            )
    assert not found, cases_.lines(found, f"{len(found)} quotes taken at another stage:")


@requirement(
    "COG-STAGE-002",
    "the subject, and each word of says.unknown, is the word as written in the normalised "
    "input: lowercased by step 1 (never case folded: straße, final sigma), a contraction "
    "reduced to its stem and an apostrophe taken out, a misspelt typo target mended by step 2, "
    "never folded to its lemma (plural, -ing) (fixed sample)",
    family="cognition",
    capabilities=CAPABILITIES,
    seed="docs/intents.md § Subjects (the subject is the first of them, as written; the "
    "lexicon folds a plural when it grounds it); § How a prompt is read step 1 (lowercase)",
    cover=subject_plan,
)
def subject_as_written(engine: EngineClient, rows: list[int]) -> None:
    found = []
    for index in rows:
        stage, prompt, subject, unknown = SUBJECTS[index]
        result = run_script(engine, None, [prompt])[-1]
        said = member(result, "subject")
        if said != subject:
            found.append(
                f"{prompt!r}: subject {said!r}; the docs say {subject!r} (as written; a port "
                f"taking it {stage} differs here)"
            )
        if unknown is None:
            continue
        named = member(member(result, "says", "object"), "unknown", "array")
        if named != unknown:
            found.append(
                f"{prompt!r}: says.unknown {named!r}; the docs say {unknown!r} (the subjects "
                f"as written; a port taking them {stage} differs here)"
            )
    assert not found, cases_.lines(found, f"{len(found)} words taken at another stage:")


@requirement(
    "COG-STAGE-003",
    "says.checked and a correction's claim are taken from the text as read: misspelt form "
    "words mended, contractions spelt out, quotes cleaned, lowercased, the sentence unwrapped "
    "(interjections, trailing please and punctuation gone) (fixed sample)",
    family="cognition",
    capabilities=CAPABILITIES,
    seed="docs/intents.md § What an answer says, as data (checked: as it was read, "
    "normalised, cleaned); § Answers (CORRECTION: A whale isn't a fish. claims is not a "
    "fish); § How a prompt is read steps 2 to 7",
    cover=read_plan,
)
def checked_and_claim_as_read(engine: EngineClient, rows: list[int]) -> None:
    found = []
    for index in rows:
        stage, prompt, key, value = READ[index]
        result = run_script(engine, None, [prompt])[-1]
        said = member(member(result, "says", "object"), key)
        if said != value:
            found.append(
                f"{prompt!r}: says.{key} {said!r}; the docs say {value!r} (as read; a port "
                f"taking it {stage} differs here)"
            )
    assert not found, cases_.lines(found, f"{len(found)} values taken at another stage:")
