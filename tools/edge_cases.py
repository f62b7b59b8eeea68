"""The branch edges of the reading and grounding rules, one case per edge, from the docs' words.

A rule that acts on a position, a character class, the latest or the first of something
across turns, or that orders two checks has edges a port can get wrong while every member
of every list is honoured: an edit tried at a word's first letter, a letter-number read as
a letter, the latest subject cleared by a turn that has none, the first sentence deciding
instead of the last. Each edge below names its class, the rule id it exercises (docs/intents.md
§ Rule ids), the sentence of the docs it comes from and what it tries; its expected reading
follows from that sentence, never from an engine. The character classes are computed from
their definitions (``_words``: NFC, the full lowercase mapping, runs of category L).

``python -m tools.edge_cases`` writes them into ``conformance/data/cognition/edges.json``
(``COG-EDGE-001``); ``--check`` exits 1 when the file is not up to date; ``--list`` prints
each edge with the sentence it comes from.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

EDGES_FILE = Path(__file__).resolve().parent.parent / "conformance/data/cognition/edges.json"
KNOWN = "light"
"""A lemma every engine ships (docs/spec.md § Cognition, concrete cases)."""

STEP2 = (
    "docs/intents.md step 2: two adjacent letters swapped, or one inner letter of the target "
    "left out, never its first or last"
)
STEP9 = (
    "docs/intents.md step 9: the last question a form reads as a request; else the first "
    "sentence a form reads as a request; else the last question read by cue words"
)
REFERENT = (
    "docs/intents.md step 9: its referent is the nearest other sentence with a content word, "
    "those before it first"
)
WORD = (
    "docs/intents.md § Subjects: a word is a run of letters (Unicode general category L); every "
    "other character separates words: digits and other numbers, combining marks that NFC "
    "leaves alone, `_`, punctuation, symbols and spaces"
)
STEP1_SPACE = "docs/intents.md step 1: white space is exactly Unicode's White_Space property"
STEP1_LOWER = (
    "docs/intents.md step 1: lowercase is Unicode's full default mapping, context included"
)
LATEST = (
    "docs/intents.md § Subjects, words that refer back: the session's latest subject: the "
    "subject of the latest earlier turn that had one"
)
RECALL_RULE = (
    "docs/spec.md § Cognition, grounding rule 3: a RECALL whose subject was the subject of an "
    "earlier turn of the session; a RECALL without a subject, in a session where an earlier "
    "turn other than a RECALL had a subject the lexicon knows"
)
CLAIM_RULE = (
    "docs/intents.md § Answers, VERIFICATION 1: the user's latest claim about the subject in "
    "the session"
)
GROUNDING_ORDER = "docs/spec.md § Cognition: grounding rules (the first that applies decides)"
EVIDENCE_ORDER = "docs/intents.md § Answers, VERIFICATION: the first evidence that decides"

MENDS = (
    ("what", "What is a river?", "DEFINITION", "river"),
    ("describe", "Describe the forest.", "NARRATIVE", "forest"),
    ("compare", "Compare memory and recall.", "COMPARISON", "memory"),
)
"""Typo targets at the start of a prompt whose form reads it when the target is mended."""
UNMENDED = {
    "what": ("VERIFICATION", None),
    "describe": ("UNKNOWN", "forest"),
    "compare": ("RECALL", "memory"),
}
"""The reading when the first word stays as written (not a form word): the docs' other rules
read the rest (`A is B?` a VERIFICATION of A; no form, no cue: UNKNOWN; the RECALL cue
`recall`). A VERIFICATION's subject is the unmended word itself (filled in below)."""

CLASS_MEMBERS = (
    ("Nd", "\u0032", "an ASCII digit"),
    ("Nd", "\u0663", "an Arabic-Indic digit"),
    ("Nd", "\uff13", "a fullwidth digit (NFC keeps it)"),
    ("No", "\u00b2", "a superscript two"),
    ("No", "\u00bd", "a vulgar fraction"),
    ("No", "\u2460", "a circled digit"),
    ("Nl", "\u216b", "a Roman numeral (a letter-number, Alphabetic but not L)"),
    ("Nl", "\u3007", "the ideographic zero (a letter-number)"),
    ("Lo", "\u4e00", "an ideograph with a numeric value (a letter)"),
    ("Lm", "\u02b0", "a modifier letter"),
    ("Lt", "\u01c5", "a titlecase letter (lowercased to its small form)"),
    ("Lo", "\u00aa", "the feminine ordinal (a letter)"),
    ("Mn", "\u0301", "a combining acute NFC leaves alone after `t`"),
    ("Mn", "\u05b0", "a Hebrew point (Other_Alphabetic, a mark)"),
    ("Mc", "\u0903", "a spacing mark"),
    ("Mc", "\u093e", "a vowel sign (Other_Alphabetic, a mark)"),
    ("Me", "\u20dd", "an enclosing mark"),
    ("Pc", "_", "the low line"),
    ("Pc", "\u203f", "an undertie"),
    ("Pc", "\uff3f", "a fullwidth low line"),
    ("Cf", "\u200b", "a zero width space"),
    ("Cf", "\u00ad", "a soft hyphen"),
)
"""Members of the general categories at the boundary of "a run of letters", each put after
`light` (and inside `li…ght`): a letter joins the word, anything else ends it."""

WHOLE_WORDS = (
    ("So", "\u24db\u24d8\u24d6\u24d7\u24e3", "circled letters (symbols, Alphabetic but not L)"),
    ("Ll", "\ufb01re", "a ligature (NFKC, never applied, would make it `fire`)"),
    ("Ll", "\U0001d425\U0001d422\U0001d420\U0001d421\U0001d42d", "mathematical bold letters"),
    ("Lu", "\u039f\u0394\u039f\u03a3", "a capital word ending in sigma (final form)"),
    ("Lu", "\u0130stanbul", "a capital dotted I (two characters lowercased)"),
    ("Mn", "lighte\u0301", "a mark NFC composes with its letter (`é`)"),
)
"""Whole words whose class is decided by one of the same definitions."""

WHITE_SPACE = (
    "\t",
    "\n",
    "\u000b",
    "\u000c",
    "\r",
    "\u0085",
    "\u00a0",
    "\u1680",
    "\u2000",
    "\u200a",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
)
"""Every White_Space character but the space (ranges by their two ends)."""
NOT_WHITE_SPACE = ("\u001c", "\u001d", "\u001e", "\u001f", "\ufeff", "\u200b", "\u180e", "\u2060")
"""Characters some library calls white space that the property does not."""

FUNCTION_WORDS = frozenset({"what", "is", "a"})
"""The only function words the character-class prompts hold besides the tested word."""


def _words(text: str) -> list[str]:
    """The words of *text* as the docs define them: NFC, the full lowercase mapping, then
    runs of letters (general category L); every other character separates."""
    normal = unicodedata.normalize("NFC", text).lower()
    words, current = [], ""
    for char in normal:
        if unicodedata.category(char).startswith("L"):
            current += char
        else:
            if current:
                words.append(current)
            current = ""
    if current:
        words.append(current)
    return words


def _definition(slot: str) -> dict[str, Any]:
    """`What is <slot>?`: a DEFINITION whose subject is the first content word of the slot
    (two or more letters, no function word), grounded in the pack only for `light`."""
    content = [w for w in _words(slot) if len(w) >= 2 and w not in FUNCTION_WORDS]
    subject = content[0] if content else None
    source = "none" if subject is None else ("pack" if subject == KNOWN else "oov")
    if subject is not None and source == "pack" and len(content) > 1:
        source = "partial"
    return {"intent": "DEFINITION", "subject": subject, "grounding_source": source}


def _edge(
    kind: str, rule: str, doc: str, edge: str, turns: list[str], **expected: Any
) -> dict[str, Any]:
    return {"class": kind, "rules": [rule], "doc": doc, "edge": edge, "turns": turns, **expected}


def _swap(word: str, at: int) -> str:
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def _drop(word: str, at: int) -> str:
    return word[:at] + word[at + 1 :]


def positions() -> list[dict[str, Any]]:
    """Edits at a word's first position, its last, and the ones next to them; sentences
    first, last and in between; the referent before and after the deciding sentence."""
    out = []
    for target, prompt, intent, subject in MENDS:
        last = len(target) - 1
        edits = (
            ("M-TYPO-SWAP", f"swap at letters 1-2 of `{target}`", _swap(target, 0), True),
            (
                "M-TYPO-SWAP",
                f"swap at the last two letters of `{target}`",
                _swap(target, last - 1),
                True,
            ),
            ("M-TYPO-DROP", f"second letter of `{target}` left out", _drop(target, 1), True),
            (
                "M-TYPO-DROP",
                f"next-to-last letter of `{target}` left out",
                _drop(target, last - 1),
                True,
            ),
            ("M-TYPO-EDGE", f"first letter of `{target}` left out", _drop(target, 0), False),
            ("M-TYPO-EDGE", f"last letter of `{target}` left out", _drop(target, last), False),
        )
        for rule, what, typo, mends in edits:
            text = typo.capitalize() + prompt[len(target) :]
            if mends:
                expected = {"intent": intent, "subject": subject}
            else:
                unmended_intent, unmended_subject = UNMENDED[target]
                expected = {"intent": unmended_intent, "subject": unmended_subject or typo}
            out.append(_edge("position", rule, STEP2, what, [text], **expected))
    sentences = (
        ("last of two questions decides", "What is a river? What is light?", "light"),
        (
            "last of three, a statement between",
            "What is a river? Rain is water. What is light?",
            "light",
        ),
        (
            "a question request after a statement request",
            "Describe the forest. What is a river?",
            "river",
        ),
        (
            "a question request before a statement request",
            "What is a river? Describe the forest.",
            "river",
        ),
        ("first of two statement requests", "Describe the forest. Describe the river.", "forest"),
    )
    for what, text, subject in sentences:
        intent = "NARRATIVE" if subject == "forest" else "DEFINITION"
        out.append(
            _edge(
                "position", "Z-TWO-SENTENCES", STEP9, what, [text], intent=intent, subject=subject
            )
        )
    referents = (
        ("the nearer of two sentences before", "Light is warm. Rain is water. Why?"),
        ("the only sentence, after it", "Why? Rain is water."),
        ("before it first, though one follows", "Rain is water. Why? Light is warm."),
    )
    for what, text in referents:
        out.append(
            _edge(
                "position",
                "S-REFERS-SESSION",
                REFERENT,
                what,
                [text],
                intent="CAUSE",
                subject="rain",
            )
        )
    return out


def character_classes() -> list[dict[str, Any]]:
    """A member of every category at the boundary of a word, of white space and of case."""
    out = []
    for category, char, what in CLASS_MEMBERS:
        rule = "T-WORD-LETTERS"
        for slot, where in ((f"{KNOWN}{char}", "after"), (f"li{char}ght", "inside")):
            edge = f"{category}: {what} (U+{ord(char):04X}) {where} a word"
            out.append(
                _edge(
                    "character class", rule, WORD, edge, [f"What is {slot}?"], **_definition(slot)
                )
            )
    for category, word, what in WHOLE_WORDS:
        rule = (
            "N-LOWER" if category == "Lu" else ("N-NFC" if category != "Mn" else "T-WORD-LETTERS")
        )
        doc = STEP1_LOWER if category == "Lu" else WORD
        edge = f"{category}: {what}"
        out.append(
            _edge("character class", rule, doc, edge, [f"What is {word}?"], **_definition(word))
        )
    for char in WHITE_SPACE:
        edge = f"White_Space: U+{ord(char):04X} after a full stop ends the sentence"
        out.append(
            _edge(
                "character class",
                "N-SPACES",
                STEP1_SPACE,
                edge,
                [f"Rain is water.{char}what is a river?"],
                intent="DEFINITION",
                subject="river",
                grounding_source="pack",
            )
        )
    for char in NOT_WHITE_SPACE:
        edge = f"not White_Space: U+{ord(char):04X} after a full stop ends no sentence"
        out.append(
            _edge(
                "character class",
                "N-SPACES",
                STEP1_SPACE,
                edge,
                [f"Rain is water.{char}what is a river?"],
                intent="VERIFICATION",
                subject="rain",
            )
        )
    return out


def latest() -> list[dict[str, Any]]:
    """Scripts where the latest turn lacks the thing, two turns have it, or it changes."""
    q = "What is a river?"
    cases = (
        (
            "S-REFERS-SESSION",
            LATEST,
            "a greeting between",
            [q, "Hello!", "Why?"],
            {"intent": "CAUSE", "subject": "river"},
        ),
        (
            "S-REFERS-SESSION",
            LATEST,
            "two subject-less turns between",
            [q, "Thanks!", "Hmm.", "Why?"],
            {"intent": "CAUSE", "subject": "river"},
        ),
        (
            "S-REFERS-SESSION",
            LATEST,
            "a RECALL of the whole session between",
            [q, "What have I told you so far?", "Why?"],
            {"intent": "CAUSE", "subject": "river"},
        ),
        (
            "S-REFERS-SESSION",
            LATEST,
            "the subject changes",
            [q, "What is light?", "Why?"],
            {"intent": "CAUSE", "subject": "light"},
        ),
        (
            "S-REFERS-SESSION",
            LATEST,
            "the latest subject is unknown to the lexicon",
            [q, "What is blorvex?", "Why?"],
            {"intent": "CAUSE", "subject": "blorvex", "grounding_source": "oov"},
        ),
        (
            "S-REFERS-SESSION",
            LATEST,
            "a turn whose subject was itself referred back",
            [q, "Tell me more.", "Why?"],
            {"intent": "CAUSE", "subject": "river"},
        ),
        (
            "S-REFERS-SESSION",
            REFERENT,
            "another sentence of the prompt before the session",
            [q, "Light is warm. Why?"],
            {"intent": "CAUSE", "subject": "light"},
        ),
        (
            "S-REFERS-SESSION",
            LATEST,
            "a fresh session: nothing to refer to",
            ["Why?"],
            {"intent": "CAUSE", "subject": None, "grounding_source": "none"},
        ),
        (
            "G-3-RECALL",
            RECALL_RULE,
            "the subject of an earlier turn, not the latest",
            [q, "What is light?", "What did I say about the river?"],
            {"intent": "RECALL", "subject": "river", "grounding_source": "vault"},
        ),
        (
            "G-3-RECALL-NEVER-SUBJECT",
            RECALL_RULE,
            "named by an earlier turn, but not its subject",
            ["Compare light and rivers.", "What did I say about the river?"],
            {"intent": "RECALL", "subject": "river", "grounding_source": "pack"},
        ),
        (
            "G-3-RECALL-SESSION",
            RECALL_RULE,
            "a greeting between the known subject and the RECALL",
            [q, "Hello.", "What have I told you so far?"],
            {"intent": "RECALL", "subject": None, "grounding_source": "vault"},
        ),
        (
            "G-3-RECALL-SESSION",
            RECALL_RULE,
            "the only earlier subject is unknown to the lexicon",
            ["What is blorvex?", "What have I told you so far?"],
            {"intent": "RECALL", "subject": None, "grounding_source": "none"},
        ),
        (
            "G-3-RECALL-SESSION",
            RECALL_RULE,
            "the only earlier subject was a RECALL's",
            ["What did I say about the river?", "What have I told you so far?"],
            {"intent": "RECALL", "subject": None, "grounding_source": "none"},
        ),
        (
            "G-3-LATEST-CLAIM",
            CLAIM_RULE,
            "a later claim about the subject replaces it",
            ["No, a whale is a fish.", "No, a whale is a mammal.", "Is a whale a fish?"],
            {"intent": "VERIFICATION", "subject": "whale", "grounding_source": "pack"},
        ),
        (
            "G-3-LATEST-CLAIM",
            CLAIM_RULE,
            "a claim-less turn about the subject keeps it",
            ["No, a whale is a fish.", "What is a whale?", "Is a whale a fish?"],
            {"intent": "VERIFICATION", "subject": "whale", "grounding_source": "vault"},
        ),
        (
            "G-3-LATEST-CLAIM",
            CLAIM_RULE,
            "a claim about another subject keeps it",
            ["No, a whale is a fish.", "No, a river is a lake.", "Is a whale a fish?"],
            {"intent": "VERIFICATION", "subject": "whale", "grounding_source": "vault"},
        ),
        (
            "G-3-LATEST-CLAIM",
            CLAIM_RULE,
            "a greeting between keeps it",
            ["No, a whale is a fish.", "Hello.", "Is a whale a fish?"],
            {"intent": "VERIFICATION", "subject": "whale", "grounding_source": "vault"},
        ),
    )
    return [_edge("latest", rule, doc, what, turns, **exp) for rule, doc, what, turns, exp in cases]


LEAD_POSITION = (
    "docs/intents.md step 5: a prompt that opens with a correction lead (past leading "
    "interjections and wrappers) is a CORRECTION"
)
VERB_POSITION = (
    "docs/intents.md § Subjects, rule 1: a verb by position when the word before it, passing "
    "over `ever` `never` `always` `often` ..., is `i`, `we`, ... or a generic agent"
)
CLAIM_POSITION = "docs/intents.md step 5a: the first sentence with a content word states the claim"
APOSTROPHE = (
    "docs/intents.md § Subjects: two runs joined by one apostrophe; a contraction is its stem; "
    "any other apostrophe is taken out; one that joins no two runs is no part of a word"
)
SAID = (
    "docs/intents.md § What an answer says, said: turn counted from 1, at most three, the "
    "latest claim first, then the others, the latest first"
)
EARLIER = (
    "docs/intents.md § What an answer says, earlier: how many earlier turns named the subject "
    "(a RECALL turn names its subject too, though it is never quoted)"
)
CLAIM_MEMBER = (
    "docs/intents.md § What an answer says, claim: a RECALL with a subject, the latest claim "
    "about it (also when it is older than the turns quoted)"
)
WHOLE = (
    "docs/intents.md § What an answer says: for a RECALL without a subject, said draws on the "
    "latest three lemmas something was said about"
)
RECALL_RIVER = "What did I say about the river?"
RECALL_WHALES = "What did I say about whales?"
RECALL_ALL = "What have I told you so far?"
WHALE_FISH = "No, a whale is a fish."


def _normal(text: str) -> str:
    """Step 1 as the docs state it (the quoted `text` of `said`)."""
    nfc = unicodedata.normalize("NFC", text)
    for mark in ("\u2019", "\u2018", "\u02bc"):
        nfc = nfc.replace(mark, "'")
    return " ".join(nfc.split(" ")).strip(" ").lower()


def _quoted(turns: list[str], *picks: tuple[int, str | None]) -> list[dict[str, Any]]:
    """`said` items for the turns numbered from 1 in *picks*, each with its claim."""
    return [{"turn": n, "text": _normal(turns[n - 1]), "claim": claim} for n, claim in picks]


def more_positions() -> list[dict[str, Any]]:
    """A lead at the prompt's opening and elsewhere; the claim's sentence; an apostrophe at
    each place in a word."""
    cases = (
        (
            "L-LEAD",
            LEAD_POSITION,
            "a lead opening the second sentence is no lead",
            ["The whale is big. No, a whale is a fish."],
            {"intent": "UNKNOWN", "subject": "whale"},
        ),
        (
            "L-LEAD",
            LEAD_POSITION,
            "a lead in the middle of the sentence is no lead",
            ["A whale, no, is a fish."],
            {"intent": "UNKNOWN", "subject": "whale"},
        ),
        (
            "L-LEAD",
            LEAD_POSITION,
            "a lead past an interjection opens the prompt",
            ["Hmm, no, a whale is a fish."],
            {"intent": "CORRECTION", "subject": "whale", "grounding_source": "vault"},
        ),
        (
            "L-CLAIM-NO-COPULA",
            CLAIM_POSITION,
            "of two claim sentences the first states it",
            ["No, a whale is a fish. A whale is a mammal.", "Is a whale a fish?"],
            {"intent": "VERIFICATION", "subject": "whale", "grounding_source": "vault"},
        ),
        (
            "L-CLAIM-NO-COPULA",
            CLAIM_POSITION,
            "a first sentence with no content word is passed",
            ["No, hello. A whale is a fish.", "Is a whale a fish?"],
            {"intent": "VERIFICATION", "subject": "whale", "grounding_source": "vault"},
        ),
        (
            "S-VERB-LAST",
            VERB_POSITION,
            "the verb right after a generic agent",
            ["People love trees."],
            {"intent": "UNKNOWN", "subject": "trees"},
        ),
        (
            "S-VERB-LAST",
            VERB_POSITION,
            "one content word passed over (`often`)",
            ["People often love trees."],
            {"intent": "UNKNOWN", "subject": "trees"},
        ),
        (
            "S-VERB-LAST",
            VERB_POSITION,
            "a content word and a function word passed over",
            ["We always just love trees."],
            {"intent": "UNKNOWN", "subject": "trees"},
        ),
        (
            "S-VERB-LAST",
            VERB_POSITION,
            "two function words passed over (`never`, `really`)",
            ["They never really love trees."],
            {"intent": "UNKNOWN", "subject": "trees"},
        ),
        (
            "S-VERB-LAST",
            VERB_POSITION,
            "in a CAUSE only the generic agent moves",
            ["Why do people often love trees?"],
            {"intent": "CAUSE", "subject": "love"},
        ),
        (
            "T-WORD-APOSTROPHE",
            APOSTROPHE,
            "an apostrophe after the first letter, no clitic",
            ["What is l'ight?"],
            {"intent": "DEFINITION", "subject": "light", "grounding_source": "pack"},
        ),
        (
            "T-WORD-APOSTROPHE",
            APOSTROPHE,
            "an apostrophe at the end of a word",
            ["What is light'?"],
            {"intent": "DEFINITION", "subject": "light", "grounding_source": "pack"},
        ),
        (
            "T-WORD-APOSTROPHE",
            APOSTROPHE,
            "an apostrophe before a word's first letter",
            ["What is 'light?"],
            {"intent": "DEFINITION", "subject": "light", "grounding_source": "pack"},
        ),
        (
            "T-WORD-APOSTROPHE",
            APOSTROPHE,
            "two apostrophes: the first joins, the second separates",
            ["What is rock'n'roll?"],
            {"intent": "DEFINITION", "subject": "rockn", "grounding_source": "oov"},
        ),
    )
    return [
        _edge("position", rule, doc, what, turns, **exp) for rule, doc, what, turns, exp in cases
    ]


def answer_edges() -> list[dict[str, Any]]:
    """What a RECALL or a VERIFICATION says at the edges of turns (capability answers)."""
    river = ["What is a river?", RECALL_RIVER]
    hello = ["Hello.", "What is a river?", RECALL_RIVER]
    twice = ["What is a river?", "What is a river?", RECALL_RIVER]
    four = [
        "What is a river?",
        "Tell me about the river.",
        "Describe the river.",
        "What is the river like?",
        RECALL_RIVER,
    ]
    recalls = ["What is a river?", RECALL_RIVER, RECALL_RIVER]
    older = [
        WHALE_FISH,
        "Tell me about whales.",
        "Tell me about whales.",
        "Tell me about whales.",
        RECALL_WHALES,
    ]
    middle = ["Tell me about whales.", WHALE_FISH, "Tell me about whales.", RECALL_WHALES]
    claims = [WHALE_FISH, "No, a whale is a mammal.", RECALL_WHALES]
    lemmas = [
        "What is a river?",
        "What is light?",
        "What is memory?",
        "What is the sun?",
        RECALL_ALL,
    ]
    again = ["What is a river?", "What is light?", "What is a river?", RECALL_ALL]
    negated = [WHALE_FISH, "No, a whale is not a fish.", "Is a whale a fish?"]
    kept = [WHALE_FISH, "What is a whale?", "Is a whale a fish?"]
    cases = (
        (
            "A-RECALL-QUOTES",
            SAID,
            "the first turn is turn 1",
            river,
            {"said": _quoted(river, (1, None)), "earlier": 1},
        ),
        (
            "A-RECALL-QUOTES",
            SAID,
            "a greeting first: the subject's turn is 2",
            hello,
            {"said": _quoted(hello, (2, None)), "earlier": 1},
        ),
        (
            "A-RECALL-QUOTES",
            SAID,
            "two turns alike: both quoted, the latest first",
            twice,
            {"said": _quoted(twice, (2, None), (1, None)), "earlier": 2},
        ),
        (
            "A-RECALL-QUOTES",
            SAID,
            "four turns: the latest three, the latest first",
            four,
            {"said": _quoted(four, (4, None), (3, None), (2, None)), "earlier": 4},
        ),
        (
            "A-RECALL-NOT-ITSELF",
            EARLIER,
            "an earlier RECALL is counted, never quoted",
            recalls,
            {"said": _quoted(recalls, (1, None)), "earlier": 2},
        ),
        (
            "A-RECALL-CLAIM-FIRST",
            CLAIM_MEMBER,
            "the claim older than the turns quoted",
            older,
            {
                "said": _quoted(older, (4, None), (3, None), (2, None)),
                "claim": "is a fish",
                "earlier": 4,
            },
        ),
        (
            "A-RECALL-CLAIM-FIRST",
            SAID,
            "the claim in the middle is quoted first",
            middle,
            {
                "said": _quoted(middle, (2, "is a fish"), (3, None), (1, None)),
                "claim": "is a fish",
                "earlier": 3,
            },
        ),
        (
            "A-RECALL-CLAIM-FIRST",
            SAID,
            "two claims: the latest first",
            claims,
            {
                "said": _quoted(claims, (2, "is a mammal"), (1, "is a fish")),
                "claim": "is a mammal",
                "earlier": 2,
            },
        ),
        (
            "A-RECALL-NO-SUBJECT",
            WHOLE,
            "four lemmas: the latest three",
            lemmas,
            {
                "said": _quoted(lemmas, (4, None), (3, None), (2, None)),
                "claim": None,
                "earlier": None,
            },
        ),
        (
            "A-RECALL-NO-SUBJECT",
            WHOLE,
            "a lemma said twice, another between",
            again,
            {
                "said": _quoted(again, (3, None), (2, None), (1, None)),
                "claim": None,
                "earlier": None,
            },
        ),
        (
            "A-VERDICT-LATEST-CLAIM",
            CLAIM_RULE,
            "the latest claim negates the first",
            negated,
            {"verdict": "no", "by": "vault", "claim": "is not a fish"},
        ),
        (
            "A-VERDICT-LATEST-CLAIM",
            CLAIM_RULE,
            "a claim-less turn about the subject between",
            kept,
            {"verdict": "yes", "by": "vault", "claim": "is a fish"},
        ),
        (
            "A-CORRECTION-CLAIM",
            CLAIM_POSITION,
            "of two claim sentences the first is the claim",
            ["No, a whale is a fish. A whale is a mammal."],
            {"claim": "is a fish"},
        ),
    )
    return [
        {
            "class": "latest" if rule != "A-CORRECTION-CLAIM" else "position",
            "rules": [rule],
            "doc": doc,
            "edge": what,
            "turns": turns,
            "says": says,
        }
        for rule, doc, what, turns, says in cases
    ]


CUE_ROWS = (
    ("RECALL", "remember"),
    ("FRAME_TRANSFER", "metaphor"),
    ("COMPARISON", "difference"),
    ("TRANSITIVE_QUERY", "connection"),
    ("PROCEDURE", "tips"),
    ("EXAMPLE", "examples"),
    ("CAUSE", "reason"),
    ("VERIFICATION", "false"),
    ("NARRATIVE", "history"),
    ("DEFINITION", "defined"),
)
"""One cue of each row of docs/intents.md § Cue words, in the order of the rows (none of them
makes a form cover `The river <cue> <cue>.`)."""
CUE_ORDER = (
    "docs/intents.md § Cue words: the first row below with a cue in the sentence decides; a "
    "VERIFICATION cue counts only in a question"
)


def cue_orders() -> list[dict[str, Any]]:
    """Two cues of adjacent rows in one sentence, in both word orders: the earlier row decides,
    wherever its cue stands; a VERIFICATION cue in a statement does not count."""
    out = []
    for (first, cue), (_, later) in zip(CUE_ROWS, CUE_ROWS[1:], strict=False):
        mark = "?" if "VERIFICATION" in (first, _) else "."
        for words, where in (((cue, later), "first"), ((later, cue), "second")):
            text = f"The river {words[0]} {words[1]}{mark}"
            edge = f"`{cue}` ({first}) and `{later}`, the earlier row's cue {where}"
            out.append(
                _edge(
                    "order",
                    f"C-{CUE_ROWS.index((first, cue)) + 1:02d}",
                    CUE_ORDER,
                    edge,
                    [text],
                    intent=first,
                    subject="river",
                )
            )
    out.append(
        _edge(
            "order",
            "C-08",
            CUE_ORDER,
            "a VERIFICATION cue in a statement does not count",
            ["The river false history."],
            intent="NARRATIVE",
            subject="river",
        )
    )
    return out


def orders() -> list[dict[str, Any]]:
    """Two conditions true at once, where the docs order the checks."""
    cases = (
        (
            "Z-TWO-SENTENCES",
            STEP9,
            "a cue-read question after a request: the request decides",
            ["Describe the forest. Rivers and their history?"],
            {"intent": "NARRATIVE", "subject": "forest"},
        ),
        (
            "Z-TWO-SENTENCES",
            STEP9,
            "a request question after a statement request: the question decides",
            ["Describe the forest. What is a river?"],
            {"intent": "DEFINITION", "subject": "river"},
        ),
        (
            "G-2",
            GROUNDING_ORDER,
            "a correction's claim names an unknown word: rule 2 before rule 6",
            ["No, a whale is a blorvex."],
            {"intent": "CORRECTION", "subject": "whale", "grounding_source": "vault"},
        ),
        (
            "G-3-CLAIM",
            EVIDENCE_ORDER,
            "the claim and a teaching step both decide: the claim first",
            ["No, the moon pulls the tide.", "Does the moon pull the tide?"],
            {"intent": "VERIFICATION", "subject": "moon", "grounding_source": "vault"},
        ),
        (
            "G-5",
            GROUNDING_ORDER,
            "several subjects, none known: oov before partial",
            ["What is blorvex and quintaran?"],
            {"intent": "DEFINITION", "subject": "blorvex", "grounding_source": "oov"},
        ),
        (
            "G-6-PARTIAL",
            GROUNDING_ORDER,
            "the first subject known, the second not: partial",
            ["How is light connected to blorvex?"],
            {"intent": "TRANSITIVE_QUERY", "subject": "light", "grounding_source": "partial"},
        ),
    )
    return [_edge("order", rule, doc, what, turns, **exp) for rule, doc, what, turns, exp in cases]


STEP1_STRIP = (
    "docs/intents.md step 1: the text is stripped of white space at both ends, nothing else: "
    "not U+001C to U+001F (they stay), and lowercase comes after"
)
WHOLE_CHECKED = (
    "docs/intents.md § Answers, VERIFICATION: of a form that splits a statement into slots "
    "(`A is/are B` asked) the checked statement is the whole statement, A, its verb and B"
)
NEGATED = (
    "docs/intents.md § Subjects: a negated auxiliary (a word ending in `'t`) is a function word"
)


def text_edges() -> list[dict[str, Any]]:
    """The ends of the text step 1 strips, and a word ending in `'t` that is no `n't`."""
    end = "a `?` followed by U+001C at the end of the text ends no sentence: no question"
    return [
        _edge(
            "position",
            "N-SPACES",
            STEP1_STRIP,
            end,
            ["So bees make honey?\u001c"],
            intent="UNKNOWN",
            subject="bees",
        ),
        _edge(
            "position",
            "N-LOWER",
            STEP1_STRIP,
            "a capital letter (`X`) last in the text stays",
            ["Tell me about the BOX"],
            intent="NARRATIVE",
            subject="box",
        ),
        _edge(
            "position",
            "N-LOWER",
            STEP1_STRIP,
            "a capital letter (`X`) first in the text stays",
            ["XYLEM, what is it?"],
            subject="xylem",
        ),
        _edge(
            "character class",
            "T-WORD-APOSTROPHE",
            NEGATED,
            "a word ending in `'t` whose stem is no auxiliary is a function word",
            ["What is river't?"],
            subject=None,
        ),
        _edge(
            "character class",
            "T-WORD-APOSTROPHE",
            NEGATED,
            "a word ending in `'t` is no subject beside a content word",
            ["Compare river't and light."],
            subject=KNOWN,
        ),
        _edge(
            "position",
            "A-CHECKED",
            WHOLE_CHECKED,
            "an `A is B` asked decides after another sentence: the whole sentence is checked",
            ["Hello there. The sun is a star?"],
            intent="VERIFICATION",
            says={"checked": "the sun is a star"},
        ),
    ]


ASKED = (
    "docs/intents.md step 8: a question of three or more words, none of them `and`/`or`, not "
    "opening with a question word, with two or more content words, is a statement asked; "
    "§ Subjects: a word is a run of letters, every other character separates words"
)


def asked_edges() -> list[dict[str, Any]]:
    """The statement asked over words as § Subjects defines them: letters of any script,
    digits and leading punctuation separate words."""
    cases = (
        (
            "an accented letter is a letter",
            ["So café owners drink coffee?"],
            "VERIFICATION",
            "café",
        ),
        ("a leading `¿` separates words", ["¿So bees make honey?"], "VERIFICATION", "bees"),
        ("a digit between words separates them", ["Bees make 2 honeys?"], "VERIFICATION", "bees"),
        (
            "letters of another script make a word (unknown, it orders after honey)",
            ["So пчёлы make honey?"],
            "VERIFICATION",
            "honey",
        ),
        ("a digit inside a run ends the word", ["Bees make honey2 daily?"], "VERIFICATION", "bees"),
        ("a comma between words separates them", ["Bees, make honey?"], "VERIFICATION", "bees"),
        ("a digit is no word: two words are too few", ["Bees 2 honey?"], "UNKNOWN", None),
        ("`and` among words split by a digit", ["Bees and 2 honeys?"], "UNKNOWN", None),
    )
    out = []
    for what, turns, intent, subject in cases:
        expected: dict[str, Any] = {"intent": intent}
        if subject is not None:
            expected["subject"] = subject
        out.append(_edge("character class", "F-ASK", ASKED, what, turns, **expected))
    forms = (
        (
            "F-056",
            "docs/intents.md § The table of forms: `which <verb> ..., A or B` (`...`: any words)",
            "an accented letter in the words between the verb and the comma",
            ["Which lasts longer in the café, stone or wood?"],
            "COMPARISON",
            "stone",
        ),
        (
            "F-056",
            "docs/intents.md § The table of forms: `which <verb> ..., A or B` (`...`: any words)",
            "a digit in the words between the verb and the comma",
            ["Which lasts 2 times longer, stone or wood?"],
            "COMPARISON",
            "stone",
        ),
        (
            "F-061",
            "docs/intents.md § The table of forms: `which/what ...: A or B`",
            "an accented letter in the words before the colon",
            ["What in the café: stone or wood?"],
            "COMPARISON",
            "stone",
        ),
        (
            "F-056",
            "docs/intents.md § The table of forms: `which <verb> ..., A or B`; § Subjects: a word "
            "is a run of letters",
            "a verb with letters beyond a to z",
            ["Which größt longer, stone or wood?"],
            "COMPARISON",
            "stone",
        ),
        (
            "F-002",
            "docs/intents.md § The table of forms: `what did/have I <verb> (you) about A`; "
            "§ Subjects: a word is a run of letters",
            "a verb with letters beyond a to z",
            ["What did I erwähnen about bees?"],
            "RECALL",
            "bees",
        ),
    )
    for rule, doc, what, turns, intent, subject in forms:
        out.append(_edge("character class", rule, doc, what, turns, intent=intent, subject=subject))
    return out


LEAD_FORM = (
    "docs/intents.md step 5a: if a CORRECTION form of the table (a plain statement) covers the "
    "deciding sentence of what follows the leads, that reading stands, with its subject and "
    "the claim § Answers gives it"
)
CUE_SLOT = (
    "docs/intents.md § Cue words: each cue replaced by ` , `, the runs of spaces (U+0020 only) "
    "made one; a slot left with no content word stays when it holds a word that refers back, "
    "else it is `it`; § Answers: a sentence its cue words read checks its one slot"
)


REFERENT_SLOT = (
    "docs/intents.md § Subjects: the referent takes the slot's place, another sentence read as "
    "that slot (in a CAUSE only its generic agents move); rule 1: a verb by position goes last "
    "(`I love rainbows!` is about *rainbows*)"
)


def lead_and_cue_edges() -> list[dict[str, Any]]:
    """A CORRECTION form after a lead (its own claim, the deciding sentence, not the first),
    the one slot of a VERIFICATION read by cue words, as its checked statement, and a
    referent read as the slot it stands for (its verbs by position last)."""
    cases = (
        (
            "position",
            "L-LEAD",
            LEAD_FORM,
            "`A is B, not C` after a lead: the claim is the part before `, not C`",
            ["No, whales are mammals, not fish."],
            {"intent": "CORRECTION", "subject": "whales", "says": {"claim": "are mammals"}},
        ),
        (
            "position",
            "L-LEAD",
            LEAD_FORM,
            "a denial after a lead, behind a sentence that denies nothing: the denial decides",
            ["No. The sky is blue. A whale isn't a fish."],
            {"intent": "CORRECTION", "subject": "whale", "says": {"claim": "is not a fish"}},
        ),
        (
            "character class",
            "C-08",
            CUE_SLOT,
            "U+001C is no space: the cue slot keeps it",
            ["The sun\u001cis really a star?"],
            {
                "intent": "VERIFICATION",
                "subject": "sun",
                "says": {"checked": "the sun\u001cis , a star"},
            },
        ),
        (
            "position",
            "C-08",
            CUE_SLOT,
            "a cue inside the sentence: ` , ` in its place",
            ["The sun really a star?"],
            {"intent": "VERIFICATION", "subject": "sun", "says": {"checked": "the sun , a star"}},
        ),
        (
            "position",
            "C-08",
            CUE_SLOT,
            "a cue first: no space left at the start",
            ["Really, the sun a star?"],
            {"intent": "VERIFICATION", "subject": "sun", "says": {"checked": ", , the sun a star"}},
        ),
        (
            "character class",
            "C-08",
            CUE_SLOT,
            "a slot holding only a word that refers back stays as it is",
            ["What is the sun?", "That, really?"],
            {"intent": "VERIFICATION", "subject": "sun", "says": {"checked": "that, ,"}},
        ),
        (
            "character class",
            "C-08",
            CUE_SLOT,
            "a slot holding no content word and no word that refers back is `it`",
            ["What is the sun?", "Very true?"],
            {"intent": "VERIFICATION", "subject": "sun", "says": {"checked": "it"}},
        ),
        (
            "position",
            "S-REFERENT-AS-SLOT",
            REFERENT_SLOT,
            "a referent whose verb follows `i`: the verb goes last there too",
            ["I love rainbows. Tell me more."],
            {"intent": "NARRATIVE", "subject": "rainbows"},
        ),
        (
            "position",
            "S-REFERENT-AS-SLOT",
            REFERENT_SLOT,
            "a referent whose verb follows `you`, in a slot left out",
            ["You build a bridge. Give me an example."],
            {"intent": "EXAMPLE", "subject": "bridge"},
        ),
        (
            "order",
            "Z-TWO-SENTENCES",
            STEP9,
            "no request: a question read by cue words beats a later statement read by cue words",
            ["Lake and pond, similar? I love the history."],
            {"intent": "COMPARISON", "subject": "lake"},
        ),
        (
            "order",
            "Z-TWO-SENTENCES",
            STEP9,
            "no request: a question read by cue words beats a later question read as nothing",
            ["Lake and pond, similar? Seeds and soil?"],
            {"intent": "COMPARISON", "subject": "lake"},
        ),
    )
    return [
        _edge(kind, rule, doc, what, turns, **exp) for kind, rule, doc, what, turns, exp in cases
    ]


APOSTROPHES = (
    "docs/intents.md step 1: one kind of apostrophe (`’` U+2019, `‘` U+2018 and `ʼ` U+02BC "
    "each become `'`); § Subjects: a contraction is reduced to its stem, any other apostrophe "
    "is taken out"
)


def apostrophe_edges() -> list[dict[str, Any]]:
    """Each apostrophe step 1 folds, where leaving it unfolded reads another subject: `ʼ` is a
    letter (Lm), so unfolded it joins `lightʼs` into one word; `‘` is punctuation, so
    unfolded it splits `l‘ight` into `l` and `ight`."""
    cases = (
        ("U+02BC before a clitic: the stem is the subject", "What is lightʼs memory?"),
        ("U+02BC inside a word: taken out", "What is lʼight?"),
        ("U+2018 before a clitic: the stem is the subject", "What is light‘s memory?"),
        ("U+2018 inside a word: taken out, not a separator", "What is l‘ight?"),
        ("U+2019 inside a word: taken out, not a separator", "What is l’ight?"),
    )
    return [
        _edge("character class", "N-APOSTROPHE", APOSTROPHES, what, [turn], **_definition(KNOWN))
        for what, turn in cases
    ]


def pooled_edges() -> list[dict[str, Any]]:
    """A RECALL without a subject whose lemmas hold more than three things said together:
    `said` still quotes at most three, the latest first."""
    pooled = [
        "What is a river?",
        "Tell me about the river.",
        "What is light?",
        "Describe light.",
        RECALL_ALL,
    ]
    said = _quoted(pooled, (4, None), (3, None), (2, None))
    return [
        _edge(
            "latest",
            "A-RECALL-NO-SUBJECT",
            f"{SAID}; {WHOLE}",
            "two lemmas said twice each: four things said, the latest three quoted",
            pooled,
            says={"said": said, "claim": None, "earlier": None},
        )
    ]


CLITIC_SPELT = (
    "docs/intents.md § Subjects: content words are all words of two or more letters except "
    "function words; a contraction is reduced to its stem first (the clitics `'s`, `'re`, `'d`, "
    "`'ll`, `'ve`, `'m`)"
)


def clitic_word_edges() -> list[dict[str, Any]]:
    """A word of its own spelt like a clitic of two letters (`re`, `ll`, `ve`): only what follows
    an apostrophe is a clitic, so the word is a content word, the subject of its slot (ids
    ``EC-0350`` on)."""
    return [
        {
            "id": f"EC-{350 + i:04d}",
            **_edge(
                "character class",
                "T-WORD-APOSTROPHE",
                CLITIC_SPELT,
                f"`{word}` alone, no apostrophe before it: a content word, not a clitic",
                [f"What is {word}?"],
                **_definition(word),
            ),
        }
        for i, word in enumerate(("re", "ll", "ve"))
    ]


FOLD_BOUNDS = (
    "docs/intents.md § Subjects, word folding: `-ies` to `-y`, `-ves` to `-f`, `-es` dropped "
    "(each longer than 4 letters), `-s` dropped (longer than 3), `-ing` dropped (longer than "
    "5); two words are the same word when their folded forms share one; § Answers, "
    "VERIFICATION 1: yes when every predicate word is the same word as a word of the claim"
)
FOLD_PAIRS = (
    ("-ies", ("ties", "ty"), ("flies", "fly")),
    ("-ves", ("aves", "af"), ("elves", "elf")),
    ("-es", ("axes", "ax"), ("boxes", "box")),
    ("-s", ("abs", "ab"), ("cabs", "cab")),
    ("-ing", ("owing", "ow"), ("rowing", "row")),
)
"""Per folding rule: a word at its length bound with the form the rule would give it, and a
word one letter longer with its folded form. None of them is a lemma, so only the same-word
test of a claim decides."""


def fold_bound_edges() -> list[dict[str, Any]]:
    """Each folding rule's length bound, both sides, through the same-word test of a claim
    (ids ``EC-0353`` on): the user claims the whale is the inflected word, then asks whether it
    is the folded one; below the bound they are two words (no claim covers it: unknown), above
    it one (the claim decides: yes)."""
    out: list[dict[str, Any]] = []
    for ending, short, long in FOLD_PAIRS:
        for (word, form), same in ((short, False), (long, True)):
            bound = "one letter over" if same else "at"
            says = (
                {"verdict": "yes", "by": "vault", "claim": f"is {word}"}
                if same
                else {"verdict": "unknown", "by": None}
            )
            out.append(
                {
                    "id": f"EC-{353 + len(out):04d}",
                    **_edge(
                        "bound",
                        "A-VERDICT-CLAIM",
                        FOLD_BOUNDS,
                        f"`{word}` {bound} the `{ending}` rule's bound, asked as `{form}`",
                        [f"No, a whale is {word}.", f"Is a whale {form}?"],
                        says=says,
                    ),
                }
            )
    return out


ABBREVIATION_STOP = (
    "docs/intents.md step 6: the full stop of `vs`, `e.g`, ... is one written right after it, the "
    "word running back to the space before it or to the start of the sentence; any other full "
    "stop followed by a space ends a sentence; " + STEP9
)
ABBREVIATION_CASES = (
    (
        "position",
        "a sentence after `vs.` and another after it: the last one asks",
        "Tell me about rain vs. snow. What is light?",
    ),
    (
        "position",
        "a sentence after `vs.` and another after it, no request before",
        "Rain vs. snow. What is light?",
    ),
    (
        "character class",
        "a space between `vs` and its full stop: the full stop ends a sentence",
        "Tell me about rain vs . What is light?",
    ),
    (
        "character class",
        "U+001C before `vs`, not a space: the word is `rain\u001cvs`, its full stop ends one",
        "Tell me about rain\u001cvs. What is light?",
    ),
    (
        "character class",
        "`vs` at the end of a longer word: its full stop ends a sentence",
        "Tell me about canvs. What is light?",
    ),
)
"""Per case: its class, the edge it tries, and the prompt, whose last sentence is the one
question (`What is light?`), read as a request: a DEFINITION of *light*, in one sentence of
its own only when the full stop before it ends the sentence before it (its grounding is
not what the case tries, so it is left out)."""


def abbreviation_edges() -> list[dict[str, Any]]:
    """Where an abbreviation's full stop is, and that the sentences after it are still split
    (ids ``EC-0370`` on)."""
    return [
        {
            "id": f"EC-{370 + i:04d}",
            **_edge(
                kind,
                "Z-ABBREVIATION",
                ABBREVIATION_STOP,
                edge,
                [turn],
                intent="DEFINITION",
                subject=KNOWN,
            ),
        }
        for i, (kind, edge, turn) in enumerate(ABBREVIATION_CASES)
    ]


FIXED_WORDS = (
    "docs/intents.md § How a prompt is read: the fixed words the steps and tables name are "
    "whole words: a letter of any script, a number or `_` directly before or after one makes "
    "it part of another word, an apostrophe does not; step 4: quoting single quotes are those "
    "not between two word characters"
)
FIXED_WORD_EDGES = (
    (
        "Q-QUOTES",
        "an apostrophe after a letter outside ASCII joins two runs: it stays",
        "What is café's?",
        "DEFINITION",
        "café",
    ),
    (
        "S-KIND-OF",
        "`sort of` after a letter outside ASCII is part of a longer word",
        "What is ésort of zorb?",
        "DEFINITION",
        "ésort",
    ),
    (
        "S-REFERS-PHRASE",
        "`the one` after a letter outside ASCII is part of a longer word",
        "What does éthe one mean?",
        "DEFINITION",
        "éthe",
    ),
    (
        "L-LEAD",
        "the lead `no` before a letter outside ASCII is part of a longer word",
        "Noé, zorbs are glims.",
        "UNKNOWN",
        "noé",
    ),
    (
        "L-LEAD",
        "the lead `wrong` before a letter outside ASCII is part of a longer word",
        "Wrongé, zorbs are glims.",
        "UNKNOWN",
        "wrongé",
    ),
    (
        "Z-BELIEF",
        "`think` before a letter outside ASCII puts no belief forward",
        "I thinké zorbs are glims.",
        "UNKNOWN",
        "zorbs",
    ),
    (
        "U-INTERJECTION",
        "the interjection `oh` before a letter outside ASCII is no interjection",
        "Ohé, what is zorb?",
        "VERIFICATION",
        "ohé",
    ),
    (
        "S-TERM-NAMES",
        "`the word` after an apostrophe: still a phrase of its own, which names what follows",
        "What is l'the word zorb?",
        "DEFINITION",
        "zorb",
    ),
)
"""Per rule: a fixed word with a letter outside ASCII next to it, which makes it part of
another word (no subject of these is a lemma, so the order of known lemmas plays no part)."""


def fixed_word_edges() -> list[dict[str, Any]]:
    """The fixed words of the reading at a letter outside ASCII (ids ``EC-0390`` on): a
    reader whose word boundary is ASCII's reads the fixed word out of the longer one."""
    return [
        {
            "id": f"EC-{390 + i:04d}",
            **_edge(
                "character class",
                rule,
                FIXED_WORDS,
                edge,
                [prompt],
                intent=intent,
                subject=subject,
            ),
        }
        for i, (rule, edge, prompt, intent, subject) in enumerate(FIXED_WORD_EDGES)
    ]


DECIDING_POSITIONS = (("river", "water"), ("forest", "soil"), ("moon", "sky"))
"""The words of the sentence at each position of a prompt: each position its own subject,
so the subject an engine reports names the sentence that decided."""

DECIDING_KINDS = {
    "question request": ("What is a {x}?", "DEFINITION", 1),
    "statement asked": ("So the {x} makes {y}?", "VERIFICATION", 1),
    "question A is B": ("The {x} is a {y}?", "VERIFICATION", 1),
    "belief put forward": ("I think the {x} is a {y}.", "VERIFICATION", 1),
    "statement request": ("Describe the {x}.", "NARRATIVE", 2),
    "question by cue words": ("{x} and {y}, similar?", "COMPARISON", 3),
    "statement by cue words": ("The {x} false history.", "NARRATIVE", 4),
    "denial": ("The {x} is not a {y}.", "CORRECTION", 4),
    "question read as nothing": ("{x} and {y}?", "UNKNOWN", 0),
    "statement read as nothing": ("The {x} is beautiful tonight.", "UNKNOWN", 0),
}
"""Sentences by how step 9 ranks them: 1, a question a form reads as a request (a belief
put forward is a question, step 6; the statement asked counts as a form); 2, a sentence
that is not a question read as a request; 3, a question read by cue words; 4, a sentence
read as anything else; 0, read as nothing."""

DECIDING_TRIPLE_KINDS = (
    "question request",
    "statement request",
    "question by cue words",
    "denial",
    "question read as nothing",
)
"""One kind of each rank, for the prompts of three sentences."""


def _deciding_index(kinds: tuple[str, ...]) -> int | None:
    """The sentence step 9 picks among *kinds*: the last of rank 1, else the first of rank 1
    or 2, else the last of rank 3, else the first of any rank; None when none is read."""
    ranks = [DECIDING_KINDS[kind][2] for kind in kinds]
    last = range(len(kinds) - 1, -1, -1)
    picks = (
        next((i for i in last if ranks[i] == 1), None),
        next((i for i, rank in enumerate(ranks) if rank in (1, 2)), None),
        next((i for i in last if ranks[i] == 3), None),
        next((i for i, rank in enumerate(ranks) if rank), None),
    )
    return next((pick for pick in picks if pick is not None), None)


def _deciding_prompt(kinds: tuple[str, ...]) -> str:
    sentences = []
    for (x, y), kind in zip(DECIDING_POSITIONS, kinds, strict=False):
        sentence = DECIDING_KINDS[kind][0].format(x=x, y=y)
        sentences.append(sentence[0].upper() + sentence[1:])
    return " ".join(sentences)


def deciding_sentence_edges() -> list[dict[str, Any]]:
    """Which sentence decides, in small scope (ids ``EC-0400`` on): every pair of the kinds
    of :data:`DECIDING_KINDS` in both orders, and every triple of one kind of each rank, so
    that every rank meets every other before and after it and two of one rank meet with a
    third sentence between or after them. The expected sentence follows from step 9's
    words (:func:`_deciding_index`), its intent from its kind."""
    prompts = [*itertools.product(DECIDING_KINDS, repeat=2)]
    prompts += itertools.product(DECIDING_TRIPLE_KINDS, repeat=3)
    out = []
    for i, kinds in enumerate(prompts):
        chosen = _deciding_index(kinds)
        if chosen is None:
            intent, subject = "UNKNOWN", DECIDING_POSITIONS[0][0]
        else:
            intent, subject = DECIDING_KINDS[kinds[chosen]][1], DECIDING_POSITIONS[chosen][0]
        edge = "; ".join(kinds)
        case = _edge(
            "choice",
            "Z-TWO-SENTENCES",
            STEP9,
            edge,
            [_deciding_prompt(kinds)],
            intent=intent,
            subject=subject,
        )
        out.append({"id": f"EC-{400 + i:04d}", **case})
    return out


REFERENT_WORDS = ("river", "forest", "moon", "rain")
"""The subject of the sentence at each position of a referent prompt."""

REFERENT_KINDS = {
    "content": ("The {x} is wide.", None),
    "no content word": ("You and I.", None),
    "request": ("Describe the {x}.", "NARRATIVE"),
    "cue words": ("The {x} false history.", "NARRATIVE"),
}
"""The sentences around `Why?` (a question request whose one slot refers back): the
intent is the one of a sentence that decides instead of `Why?` when it is the referent
(a request or a reading by cue words), else None."""


def _referent_expected(kinds: tuple[str, ...]) -> tuple[str, str | None]:
    """Step 9's referent of `Why?` among *kinds*: the nearest other sentence with a content
    word, those before it first; a referent read as a request or by cue words decides."""
    why = kinds.index("why")
    order = [*range(why - 1, -1, -1), *range(why + 1, len(kinds))]
    for i in order:
        if kinds[i] != "no content word":
            return REFERENT_KINDS[kinds[i]][1] or "CAUSE", REFERENT_WORDS[i]
    return "CAUSE", None


def referent_edges() -> list[dict[str, Any]]:
    """The referent in small scope (ids ``EC-0700`` on): `Why?` at every position of two
    and three sentences of every kind of :data:`REFERENT_KINDS`, and of four sentences with
    and without a content word."""
    prompts = []
    for length, kinds in (
        (2, tuple(REFERENT_KINDS)),
        (3, tuple(REFERENT_KINDS)),
        (4, ("content", "no content word")),
    ):
        for at in range(length):
            for others in itertools.product(kinds, repeat=length - 1):
                prompts.append((*others[:at], "why", *others[at:]))
    out = []
    for i, kinds in enumerate(prompts):
        sentences = [
            "Why?" if kind == "why" else REFERENT_KINDS[kind][0].format(x=REFERENT_WORDS[n])
            for n, kind in enumerate(kinds)
        ]
        intent, subject = _referent_expected(kinds)
        case = _edge(
            "choice",
            "Z-REFERENT",
            REFERENT,
            "; ".join(kinds),
            [" ".join(sentences)],
            intent=intent,
            subject=subject,
        )
        out.append({"id": f"EC-{700 + i:04d}", **case})
    return out


NOT_SPACE_STAYS = (
    "docs/intents.md step 1: after step 1 the only white space is the space; nothing else is "
    "white space: not U+001C to U+001F (they stay, and separate words as any non-letter does)"
)


def kept_control_edges() -> list[dict[str, Any]]:
    """U+001C, which Python's ``str.strip`` takes for white space, and U+FEFF, which
    JavaScript's ``trim`` takes, kept at the ends of a sentence and of a claim (ids
    ``EC-0800`` on; found by ``python -m tools.differential``)."""
    cases = [
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+001C first in the text stays: no auxiliary opens the sentence (a statement asked)",
            ["\u001cIs bark a picture?"],
            intent="VERIFICATION",
            says={"checked": "\u001cis bark a picture"},
        ),
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+001C after a `?` last in the text stays: the checked statement keeps both",
            ["Is bark a picture?\u001c"],
            intent="VERIFICATION",
            says={"checked": "bark a picture?\u001c"},
        ),
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+001C first in the text stays: no auxiliary opens the sentence, which is no question",
            ["\u001cis bark a picture?x"],
            intent="UNKNOWN",
            subject="bark",
        ),
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+001C last in a correction's claim stays in the claim",
            ["No, a parent is a guide\u001c."],
            intent="CORRECTION",
            says={"claim": "is a guide\u001c"},
        ),
    ]
    cases += [
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+FEFF first in the text stays: no form opens the sentence",
            ["\ufeffWhat did I blah about wolf?"],
            intent="UNKNOWN",
            subject="wolf",
        ),
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+FEFF first in the text stays: no auxiliary opens the sentence (a statement asked)",
            ["\ufeffIs bark a picture?"],
            intent="VERIFICATION",
            says={"checked": "\ufeffis bark a picture"},
        ),
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+FEFF after a `?` last in the text stays: the checked statement keeps both",
            ["Is bark a picture?\ufeff"],
            intent="VERIFICATION",
            says={"checked": "bark a picture?\ufeff"},
        ),
        _edge(
            "character class",
            "N-SPACES",
            NOT_SPACE_STAYS,
            "U+FEFF last in a correction's claim stays in the claim",
            ["No, a parent is a guide\ufeff."],
            intent="CORRECTION",
            says={"claim": "is a guide\ufeff"},
        ),
    ]
    return [{"id": f"EC-{800 + i:04d}", **case} for i, case in enumerate(cases)]


EVERY_CUE = (
    "docs/intents.md § Cue words: the sentence with every cue of that row taken out is its one "
    "slot, each cue replaced by ` , `"
)


EVERY_CUE_CASES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "a second cue of the row, the same word: both taken out",
        "The sun really a star, really?",
        {"intent": "VERIFICATION", "subject": "sun", "says": {"checked": "the sun , a star, ,"}},
    ),
    (
        "two cues of the row, different words: no cue left as a word to ground",
        "Rivers similar, lakes different.",
        {"intent": "COMPARISON", "subject": "rivers", "grounding_source": "pack"},
    ),
    (
        "three cues of the row, one word twice: all taken out",
        "Rivers similar and lakes similar and ponds alike.",
        {"intent": "COMPARISON", "subject": "rivers", "grounding_source": "pack"},
    ),
    (
        "two cues of the row, a phrase first: the later one is no unknown word",
        "A river as if a road, like a metaphor?",
        {"intent": "FRAME_TRANSFER", "subject": "river", "says": {"unknown": ["road"]}},
    ),
    (
        "two cues of the row, the second a word to ground: both taken out",
        "Rain linked to rivers, connected?",
        {"intent": "TRANSITIVE_QUERY", "subject": "rain", "grounding_source": "teaching"},
    ),
]
"""(edge, prompt, expected) of each case of :func:`every_cue_edges`."""


def every_cue_edges() -> list[dict[str, Any]]:
    """Every cue of the deciding row taken out of the slot, not only the first: the same cue
    twice, two and three cues of one row (ids ``EC-0810`` on)."""
    return [
        {"id": f"EC-{810 + i:04d}", **_edge("count", "C-08", EVERY_CUE, edge, [prompt], **want)}
        for i, (edge, prompt, want) in enumerate(EVERY_CUE_CASES)
    ]


NO_REPEATS = (
    "docs/intents.md § Subjects: the subjects are the content words of the slots, slot by slot, "
    "without repeats"
)
NO_REPEAT_CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    (
        "the same word in two slots: one subject",
        ["Compare a blorvex and a blorvex."],
        {"intent": "COMPARISON", "subject": "blorvex", "says": {"unknown": ["blorvex"]}},
    ),
    (
        "the same word twice in one slot: one subject",
        ["Compare a blorvex blorvex and a zimble."],
        {"intent": "COMPARISON", "subject": "blorvex", "says": {"unknown": ["blorvex", "zimble"]}},
    ),
    (
        "the first slot's first word again in the last slot, another word between",
        ["Compare a blorvex, a zimble and a blorvex."],
        {"intent": "COMPARISON", "subject": "blorvex", "says": {"unknown": ["blorvex", "zimble"]}},
    ),
    (
        "a word that refers back and the word it points to, in two slots: one subject",
        ["What is a blorvex?", "Compare it and a blorvex."],
        {"intent": "COMPARISON", "subject": "blorvex", "says": {"unknown": ["blorvex"]}},
    ),
]
"""(edge, turns, expected) of each case of :func:`no_repeat_edges`."""


def no_repeat_edges() -> list[dict[str, Any]]:
    """A word named twice is one subject, wherever the second naming stands: in the same
    slot, in another slot, or pointed to by a word that refers back (ids ``EC-0820`` on)."""
    return [
        {
            "id": f"EC-{820 + i:04d}",
            **_edge("count", "S-NO-REPEATS", NO_REPEATS, edge, turns, **want),
        }
        for i, (edge, turns, want) in enumerate(NO_REPEAT_CASES)
    ]


LATEST_OF_EVERY_INTENT = (
    ("DEFINITION", "What is a lake?"),
    ("CAUSE", "Why does a lake freeze?"),
    ("VERIFICATION", "Is a lake a river?"),
    ("CORRECTION", "No, a lake is a pond."),
    ("RECALL", "What did I say about the lake?"),
    ("EXAMPLE", "Can you give an example of a lake?"),
    ("NARRATIVE", "Tell me about a lake."),
    ("COMPARISON", "Compare a lake and light."),
    ("FRAME_TRANSFER", "How is a lake like light?"),
    ("UNKNOWN", "A lake is calm."),
)
"""A turn of each intent whose subject is *lake*: "the latest earlier turn that had one",
whatever its intent."""


def latest_of_every_intent_edges() -> list[dict[str, Any]]:
    """The session's latest subject set by a turn of every intent, read back by two words
    that refer back (ids ``EC-0824`` on)."""
    found = [
        _edge(
            "latest",
            "S-REFERS-SESSION",
            LATEST,
            f"the latest turn with a subject is a {intent}",
            ["What is a river?", turn, refers],
            intent=reads_as,
            subject="lake",
        )
        for intent, turn in LATEST_OF_EVERY_INTENT
        for refers, reads_as in (("Why?", "CAUSE"), ("Tell me more.", "NARRATIVE"))
    ]
    return [{"id": f"EC-{824 + i:04d}", **case} for i, case in enumerate(found)]


CLASSES = {
    "position": "a rule acting on a position: the first, the last and the ones next to them",
    "character class": "a class the docs define, with members of every category at its boundary",
    "latest": "the latest or earliest across turns: a latest turn without it, a tie, a change",
    "order": "two conditions true at once, where the docs order the checks",
    "bound": "a length bound the docs give: a word at it and a word one letter over it",
    "choice": "a choice among candidates the docs state (the last of one kind, else the first of "
    "another): every kind of candidate in every position, in small scope",
    "count": "a rule acting on every member of something: two and three members, the same one "
    "twice, never only the first",
}


def edges() -> dict[str, Any]:
    """The edges file: the classes and every edge, with ids ``EC-0001`` on, in order, then the
    edges written with their own ids."""
    found = positions() + more_positions() + character_classes() + latest() + orders()
    found += cue_orders()
    found += answer_edges()
    found += text_edges()
    found += asked_edges()
    found += lead_and_cue_edges()
    found += apostrophe_edges()
    found += pooled_edges()
    cases = [{"id": f"EC-{i + 1:04d}", **case} for i, case in enumerate(found)]
    cases += clitic_word_edges()
    cases += fold_bound_edges()
    cases += abbreviation_edges()
    cases += fixed_word_edges()
    cases += deciding_sentence_edges()
    cases += referent_edges()
    cases += kept_control_edges()
    cases += every_cue_edges()
    cases += no_repeat_edges()
    cases += latest_of_every_intent_edges()
    return {
        "about": (
            "The branch edges of the rules of docs/intents.md and docs/spec.md § Cognition "
            "(COG-EDGE-001), written by python -m tools.edge_cases: each case names its edge "
            "class, the rule it exercises, the docs' sentence it comes from and the edge it "
            "tries; its turns run in one fresh unregistered session and its labels are those of "
            "the last turn."
        ),
        "classes": CLASSES,
        "cases": cases,
    }


def render(data: dict[str, Any]) -> str:
    """The file as written: one case a line."""
    head = {k: v for k, v in data.items() if k != "cases"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=True)},")
    lines.append(' "cases": [')
    cases = data["cases"]
    lines += [
        "  " + json.dumps(c, ensure_ascii=True) + ("," if i < len(cases) - 1 else "")
        for i, c in enumerate(cases)
    ]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the edges file, check it, or list the edges."""
    parser = argparse.ArgumentParser(prog="python -m tools.edge_cases", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--list", action="store_true", help="print every edge and its source")
    args = parser.parse_args(argv)
    data = edges()
    if args.list:
        for case in data["cases"]:
            print(f"{case['id']} [{case['class']}] {case['rules'][0]}: {case['edge']}")
            print(f"    {case['doc']}")
        counts = {k: sum(c["class"] == k for c in data["cases"]) for k in CLASSES}
        print(", ".join(f"{k}: {n}" for k, n in counts.items()))
        return 0
    fresh = render(data)
    if args.check:
        if not EDGES_FILE.exists() or EDGES_FILE.read_text(encoding="utf-8") != fresh:
            print(f"{EDGES_FILE} is stale: run python -m tools.edge_cases", file=sys.stderr)
            return 1
        return 0
    EDGES_FILE.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
