"""Cases for every member of the closed lists of docs/intents.md § How a prompt is read and
§ Cue words.

Each list below is copied from the sentence of the docs that states it, and each member gets
one case whose reading (intent, subject, and where it tells them apart the grounding source)
differs when that member is not honoured: an end mark or a dash that ends no sentence, an
abbreviation whose full stop ends one, a colon before a listed word that ends none, a belief
opener that does not make a question, a correction lead that is not read as one; a typo
target a misspelling is not mended into, a contraction not spelt out, a wrapper not dropped,
a cue not read; an end mark not followed by a space, or a hyphen or en dash not between
spaces, that ends a sentence. The expected values follow from the docs' words (the last
question a form reads decides, step 9; a belief put forward is a question, step 6; a lead
then a claim is a CORRECTION, step 5; the first row with a cue decides, § Cue words), never
from an engine. Made-up words (`zorb`, `glim`) are subjects no pack knows, so the first of
them as written is the subject (§ Subjects, rule 2) and a word left unmended or unspelt shows.

``python -m tools.enum_cases`` writes them into ``conformance/data/cognition/rules.json``
(ids ``RC-1200`` to ``RC-1347`` and ``RC-2000`` on, replaced on each run; other ids are left
alone); ``--check`` exits 1 when the file is not up to date.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

CATALOGUE = Path(__file__).resolve().parent.parent / "conformance/data/cognition/rules.json"
FIRST_ID = 1200
"""The first case id of the closed lists of steps 5 to 7 (up to ``RC-1347``)."""
SECOND_ID = 2000
"""The first case id of the typo targets, contractions, wrappers, cues and the places where
no sentence ends (up to ``RC-2999``)."""
OWNED = ((FIRST_ID, 1348), (SECOND_ID, 3000))
"""The id ranges this tool rewrites; cases with other ids are kept as they are."""

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


TYPO_TARGETS = tuple(
    """what when where which why how who does the are can could would should about between
    and for this that with tell give please because there your you example explain describe
    define definition meaning remember remind compare connected related difference different
    similar through without""".split()
)
"""Step 2: the typo targets (closed list)."""
TYPOS = (
    ("what", "waht", "Waht is a zorb?", "DEFINITION", "zorb"),
    ("when", "wehn", "Quick question: wehn does a zorb come from a glim?", "CAUSE", "zorb"),
    ("where", "wehre", "Quick question: wehre does a zorb come from?", "CAUSE", "zorb"),
    ("which", "wihch", "Wihch lasts longer, zorbs or glims?", "COMPARISON", "zorbs"),
    ("why", "wyh", "Wyh do zorbs glow?", "CAUSE", "zorbs"),
    ("how", "ohw", "Ohw do I grow a garden?", "PROCEDURE", "garden"),
    ("who", "woh", "Woh is a zorb?", "DEFINITION", "zorb"),
    ("does", "deos", "What deos zorb mean?", "DEFINITION", "zorb"),
    ("the", "teh", "Define teh word zorb.", "DEFINITION", "zorb"),
    ("are", "aer", "Aer zorbs glims?", "VERIFICATION", "zorbs"),
    ("can", "cna", "Cna zorbs glow?", "VERIFICATION", "zorbs"),
    ("could", "cuold", "Cuold zorbs glow?", "VERIFICATION", "zorbs"),
    ("would", "wuold", "Wuold zorbs glow?", "VERIFICATION", "zorbs"),
    ("should", "shuold", "Shuold zorbs glow?", "VERIFICATION", "zorbs"),
    ("about", "abuot", "Tell me abuot zorbs.", "NARRATIVE", "zorbs"),
    ("between", "betwen", "What is the link betwen zorbs and glims?", "TRANSITIVE_QUERY",
     "zorbs"),
    ("and", "adn", "Are zorbs adn glims the same?", "COMPARISON", "zorbs"),
    ("for", "fro", "Give me a metaphor fro zorbs.", "FRAME_TRANSFER", "zorbs"),
    ("this", "tihs", "What is tihs zorb?", "DEFINITION", "zorb"),
    ("that", "taht", "What is taht zorb?", "DEFINITION", "zorb"),
    ("with", "wtih", "What is wtih zorbs?", "DEFINITION", "zorbs"),
    ("tell", "tlel", "Tlel me about zorbs.", "NARRATIVE", "zorbs"),
    ("give", "gvie", "Gvie me an example of zorbs.", "EXAMPLE", "zorbs"),
    ("please", "plaese", "Plaese, what is a zorb?", "DEFINITION", "zorb"),
    ("because", "becuase", "Zorbs glow becuase of glims.", "CAUSE", "zorbs"),
    ("there", "tehre", "Is tehre a path from zorbs to glims?", "TRANSITIVE_QUERY", "zorbs"),
    ("your", "yuor", "What is yuor name?", "UNKNOWN", None),
    ("you", "yuo", "Who are yuo?", "UNKNOWN", None),
    ("example", "exmaple", "Give me an exmaple of zorbs.", "EXAMPLE", "zorbs"),
    ("explain", "expalin", "Expalin zorbs.", "DEFINITION", "zorbs"),
    ("describe", "decsribe", "Decsribe zorbs.", "NARRATIVE", "zorbs"),
    ("define", "defnie", "Defnie zorbs.", "DEFINITION", "zorbs"),
    ("definition", "defintion", "Zorb defintion?", "DEFINITION", "zorb"),
    ("meaning", "meanign", "Zorb meanign?", "DEFINITION", "zorb"),
    ("remember", "rememebr", "Do you rememebr zorbs?", "RECALL", "zorbs"),
    ("remind", "remnid", "Remnid me about zorbs.", "RECALL", "zorbs"),
    ("compare", "comapre", "Comapre zorbs and glims.", "COMPARISON", "zorbs"),
    ("connected", "conencted", "How is zorb conencted to glim?", "TRANSITIVE_QUERY", "zorb"),
    ("related", "realted", "Is zorb realted to glim?", "TRANSITIVE_QUERY", "zorb"),
    ("difference", "diffrence", "What is the diffrence between zorbs and glims?", "COMPARISON",
     "zorbs"),
    ("different", "diffrent", "Is zorb diffrent from glim?", "COMPARISON", "zorb"),
    ("similar", "simlar", "Is zorb simlar to glim?", "COMPARISON", "zorb"),
    ("through", "thorugh", "Walk me thorugh zorbs.", "PROCEDURE", "zorbs"),
    ("without", "withuot", "What is withuot zorbs?", "DEFINITION", "zorbs"),
)  # fmt: skip
"""Step 2: each target, a misspelling one edit from it alone, and a prompt whose reading needs
the mended word (a form word; for a target that is a function word, a word that is then no
subject)."""

CONTRACTIONS = (
    ("K-CLOSED", "A zorb can't glow.", "CORRECTION", "zorb"),
    ("K-CLOSED", "Won't zorbs glow?", "VERIFICATION", "zorbs"),
    ("K-CLOSED", "Shan't zorbs glow?", "VERIFICATION", "zorbs"),
    ("K-CLOSED", "Ain't zorbs glims?", "VERIFICATION", "zorbs"),
    ("K-CLOSED", "Let's say a zorb is a glim.", "FRAME_TRANSFER", "zorb"),
    ("K-NOT", "Zorbs aren't glims.", "CORRECTION", "zorbs"),
    ("K-CONTRACTION", "It's wrong, a zorb is a glim.", "CORRECTION", "zorb"),
    ("K-CONTRACTION", "That's wrong, a zorb is a glim.", "CORRECTION", "zorb"),
    ("K-CONTRACTION", "What's a zorb?", "DEFINITION", "zorb"),
    ("K-CONTRACTION", "Who's a zorb?", "DEFINITION", "zorb"),
    ("K-CONTRACTION", "How's a zorb made?", "CAUSE", "zorb"),
    ("K-CONTRACTION", "Why's a zorb like a glim?", "FRAME_TRANSFER", "zorb"),
    ("K-CONTRACTION", "He's like a zorb.", "FRAME_TRANSFER", "zorb"),
    ("K-CONTRACTION", "She's like a zorb.", "FRAME_TRANSFER", "zorb"),
    ("K-CONTRACTION", "This's wrong, a zorb is a glim.", "CORRECTION", "zorb"),
    ("K-CONTRACTION", "Zorbs or glims, which's older?", "COMPARISON", "zorbs"),
    ("K-CLITIC", "You're wrong, a zorb is a glim.", "CORRECTION", "zorb"),
    ("K-CLITIC", "Zorbs're glims?", "VERIFICATION", "zorbs"),
    ("K-CLITIC", "I'm curious about zorbs.", "NARRATIVE", "zorbs"),
    ("K-CLITIC", "I've no idea what a zorb is.", "DEFINITION", "zorb"),
    ("K-CLITIC", "Zorb'll glow?", "VERIFICATION", "zorb"),
    ("K-CLITIC", "Zorb'd glow?", "VERIFICATION", "zorb"),
    ("K-BARE", "Whats a zorb?", "DEFINITION", "zorb"),
    ("K-BARE", "Thats wrong, a zorb is a glim.", "CORRECTION", "zorb"),
    ("K-BARE", "Wheres the zorb?", "UNKNOWN", "zorb"),
    ("K-BARE", "Whos a zorb?", "DEFINITION", "zorb"),
    ("K-BARE", "Hows a zorb made?", "CAUSE", "zorb"),
    ("K-BARE", "Whys a zorb like a glim?", "FRAME_TRANSFER", "zorb"),
    ("K-BARE", "Theres zorbs in glims?", "VERIFICATION", "zorbs"),
    *(
        ("K-BARE", f"{word} {subject} {rest}?", "VERIFICATION", subject)
        for word, subject, rest in (
            ("Dont", "zorbs", "glow"),
            ("Doesnt", "zorb", "glow"),
            ("Didnt", "zorbs", "glow"),
            ("Isnt", "zorb", "a glim"),
            ("Arent", "zorbs", "glims"),
            ("Wasnt", "zorb", "a glim"),
            ("Werent", "zorbs", "glims"),
            ("Cant", "zorbs", "glow"),
            ("Couldnt", "zorbs", "glow"),
            ("Wouldnt", "zorbs", "glow"),
            ("Shouldnt", "zorbs", "glow"),
            ("Hasnt", "zorb", "glims"),
            ("Havent", "zorbs", "glims"),
        )
    ),
    ("K-BARE", "Im curious about zorbs.", "NARRATIVE", "zorbs"),
    ("K-BARE", "Ive always wondered why zorbs glow.", "CAUSE", "zorbs"),
    ("K-BARE", "Youre wrong, a zorb is a glim.", "CORRECTION", "zorb"),
    ("K-BARE", "Theyre zorbs?", "UNKNOWN", "zorbs"),
    ("K-CHAT", "What are u?", "UNKNOWN", None),
    ("K-CHAT", "R zorbs and glims the same?", "COMPARISON", "zorbs"),
    ("K-CHAT", "What is ur name?", "UNKNOWN", None),
    ("K-CHAT", "Pls zorb.", "UNKNOWN", "zorb"),
    ("K-CHAT", "Plz zorb.", "UNKNOWN", "zorb"),
    ("K-CHAT", "Thx.", "UNKNOWN", None),
    ("K-CHAT", "Zorbs glow cuz glims.", "CAUSE", "zorbs"),
    ("K-CHAT", "Zorbs glow coz glims.", "CAUSE", "zorbs"),
)
"""Step 3: every contraction of the closed lists (the apostrophe list, `'s` after each listed
word, each clitic, every word without the apostrophe, chat shorthand, any other `n't`), in a
prompt that the spelt-out words read otherwise. `'s` after `where`, `when`, `here` and
`there` has none: no form reads `where is`, `when is`, `here is` or `there is`, and a
contraction's stem is a function word either way (selftest/test_enumerations.py)."""

_WHAT = "what a zorb is."
WRAPPED = (
    ("Kindly how does a zorb glow?", "CAUSE", "zorb"),
    *(
        (f"{w} you tell me {_WHAT[:-1]}?", "DEFINITION", "zorb")
        for w in ("Can", "Could", "Would", "Will")
    ),
    *(
        (f"{w} {who} tell me {_WHAT[:-1]}?", "DEFINITION", "zorb")
        for w, who in (
            ("Can", "someone"), ("Could", "someone"), ("Would", "someone"), ("Will", "someone"),
            ("Can", "somebody"), ("Can", "anyone"), ("Can", "anybody"),
        )
    ),
    *(
        (f"{who} {verb} you to tell me {_WHAT}", "DEFINITION", "zorb")
        for who, verb in (
            ("I", "need"), ("We", "need"), ("I", "want"), ("I", "would like"), ("I", "would love"),
            ("I", "wish"),
        )
    ),
    (f"I want to know {_WHAT}", "DEFINITION", "zorb"),
    *(
        (f"{opening} {_WHAT}", "DEFINITION", "zorb")
        for opening in (
            "I wonder", "We wonder", "I have been wondering", "I had wondered", "I did not know",
            "I really wonder", "I always forget", "I still wonder", "I just wonder",
            "I often wonder", "I sometimes forget", "I am curious", "I was wondering",
            "We were wondering", "I can not remember", "I know", "I understand", "I get", "I see",
            "I wondered", "I am wondering", "I am not sure", "I am unsure", "I forget", "I forgot",
            "I do not remember", "I am curious about", "No idea", "I have no idea", "See",
            "Ask you", "Find out", "Learn", "Tell me", "Show me", "Teach me", "Remind me",
            "Let us know", "Tell us", "Describe", "Sum up", "Summarize", "Break down",
            "Spell out", "Do you know", "Any idea", "Have you any idea", "Do you have any idea",
        )
    ),
    *((f"{opening} {_WHAT[:-1]}?", "DEFINITION", "zorb") for opening in ("Know", "Understand")),
    *(
        (f"{opening} why zorbs glow.", "CAUSE", "zorbs")
        for opening in (
            "I do not see", "I never see", "Explain", "Clarify", "Define", "Clarify to me",
            "Help me understand", "Tell me",
        )
    ),
    *(
        (f"How {aux} {who} {verb} a zorb?", intent, "zorb")
        for aux, who, verb, intent in (
            ("would", "you", "describe", "NARRATIVE"), ("do", "you", "describe", "NARRATIVE"),
            ("can", "you", "describe", "NARRATIVE"), ("could", "you", "describe", "NARRATIVE"),
            ("should", "you", "describe", "NARRATIVE"), ("might", "you", "describe", "NARRATIVE"),
            ("would", "we", "describe", "NARRATIVE"), ("would", "one", "describe", "NARRATIVE"),
            ("would", "I", "describe", "NARRATIVE"), ("would", "you", "define", "DEFINITION"),
            ("would", "you", "explain", "DEFINITION"),
            ("would", "you", "characterize", "NARRATIVE"),
            ("would", "you", "summarize", "NARRATIVE"),
        )
    ),
    ("Let me know, does a zorb glow?", "VERIFICATION", "zorb"),
    ("Correct me if I'm wrong, how does a zorb glow?", "CAUSE", "zorb"),
    *(
        (f"{opening} zorbs glow?", "UNKNOWN", "zorbs")
        for opening in (
            "Do you think", "Did you think", "Do you think that", "Would you say",
            "Would you say that",
        )
    ),
    ("Tell me how a zorb becomes a glim.", "TRANSITIVE_QUERY", "zorb"),
    ("Tell me who a zorb is.", "DEFINITION", "zorb"),
    ("Tell me whether zorbs glow.", "VERIFICATION", "zorbs"),
    ("Tell me if zorbs glow.", "VERIFICATION", "zorbs"),
    ("Tell me which lasts longer, zorbs or glims.", "COMPARISON", "zorbs"),
    ("Tell me where zorbs come from.", "CAUSE", "zorbs"),
    ("Tell me when zorbs glow.", "UNKNOWN", "zorbs"),
    ("I read zorbs are glims.", "VERIFICATION", "zorbs"),
)  # fmt: skip
"""Step 7: every wrapper of the closed list (each word of each group, each optional part the
docs write, each question word a wrapper may stand before), dropped from a prompt whose
reading then changes. What is left is read by the table of forms: `what A is` (unwrapped) a
DEFINITION, `why A` a CAUSE, `describe A` a NARRATIVE, a question of two words no form
reads is UNKNOWN (step 8)."""
BELIEF_WRAPPERS = (
    *(
        f"{who} {verb}"
        for who, verb in (
            ("I", "think"), ("We", "think"), ("I", "believe"), ("I", "guess"), ("I", "suppose"),
            ("I", "reckon"), ("I", "bet"), ("I", "feel like"), ("I", "heard"), ("I", "have heard"),
            ("I", "was told"), ("We", "were told"), ("I", "am sure"), ("I", "am pretty sure"),
            ("I", "am fairly sure"),
        )
    ),
    "Someone said", "Somebody said", "People said", "They said", "People told me",
    "People tell me", "People say",
)  # fmt: skip
"""Step 7: a belief put forward is a wrapper too. Dropped, `the sun is a star` checks *sun*
alone, which the pack knows (grounding `pack`); kept, its slot would hold the opener's verb,
a word no pack grounds (`partial`). `I read` is held by `I read zorbs are glims.` in WRAPPED:
*read* is a lemma, which would come first (§ Subjects, rule 2)."""
NOT_WRAPPERS = (
    (f"I knew {_WHAT}", "UNKNOWN", "zorb"),
    (f"I understood {_WHAT}", "UNKNOWN", "zorb"),
    (f"I got {_WHAT}", "UNKNOWN", "zorb"),
    (f"I had no idea {_WHAT}", "UNKNOWN", "idea"),
    (f"Summarise {_WHAT}", "NARRATIVE", "zorb"),
    ("Help us understand why zorbs glow.", "DEFINITION", "zorbs"),
    ("Clarify to us why zorbs glow.", "DEFINITION", "zorbs"),
)
"""Step 7: the list is closed: a word it does not name is no wrapper (`knew`, `got`, `had no
idea`, `summarise`, `help us`, `to us`), and the sentence is read by the forms as it stands
(`summarise A` a NARRATIVE, `help us understand A` and `clarify A` a DEFINITION)."""

CUE_ROWS = (
    ("C-01", "RECALL", ("remember", "recall")),
    ("C-02", "FRAME_TRANSFER", (
        "metaphor", "metaphors", "analogy", "analogies", "simile", "similes", "as if", "as though",
        "pretend", "imagine", "in terms of", "through the eyes of",
    )),
    ("C-03", "COMPARISON", (
        "difference", "differences", "differ", "differs", "different", "similar", "similarity",
        "similarities", "alike", "versus", "vs", "compare", "compared", "comparing", "comparison",
        "contrast", "distinguish", "distinction", "the same as", "in common", "apart",
    )),
    ("C-04", "TRANSITIVE_QUERY", (
        "connect", "connects", "connected", "connecting", "connection", "connections", "link",
        "links", "linked", "linking", "relate", "relates", "related", "relation", "relationship",
        "relationships", "to do with", "lead to", "leads to", "led to", "lead into", "leads into",
        "path", "chain",
    )),
    ("C-05", "PROCEDURE", (
        "how to", "step", "steps", "tip", "tips", "advice", "instruction", "instructions", "guide",
        "guidance", "way to", "ways to", "method", "methods", "process", "procedure", "recipe",
        "tutorial", "technique", "techniques",
    )),
    ("C-06", "EXAMPLE", (
        "example", "examples", "instance", "instances", "such as", "illustrate", "illustration",
        "sample", "samples",
    )),
    ("C-07", "CAUSE", (
        "why", "cause", "causes", "caused", "causing", "reason", "reasons", "how come", "origin",
        "origins", "come from", "comes from", "came from", "because", "trigger", "triggers",
        "responsible for",
    )),
    ("C-08", "VERIFICATION", (
        "true", "false", "correct", "incorrect", "right", "verify", "confirm", "fact check",
        "really",
    )),
    ("C-09", "NARRATIVE", (
        "story", "stories", "tale", "tales", "history", "describe", "description", "overview",
        "account", "narrate", "tell me about", "talk about", "tell me more",
    )),
    ("C-10", "DEFINITION", (
        "mean", "means", "meaning", "meant", "define", "defined", "definition", "what is",
        "what are", "who is",
    )),
)  # fmt: skip
"""§ Cue words, row by row, each `x(s)` as its two spellings. `for instance` is left out: the
EXAMPLE form `for instance` (refers) reads every sentence that holds it."""
RECALL_CUES = (
    "I said", "We said", "I have said", "I had said", "I just said", "I already said",
    "I ever said", "I told you", "I mentioned", "I asked", "I say", "I tell you", "I mention",
    "I wrote", "I brought up", "I talked about", "remind me", "remind us",
)  # fmt: skip
"""§ Cue words, the RECALL row's `i`/`we` + (`have` `had` `just` `already` `ever`) + each
verb, and `remind me`/`us`."""
CUE_FIRST = ("in terms of", "through the eyes of", "versus", "vs", "leads to")
"""Cues a form would read as its connector between two slots: the cue opens the sentence."""
CUE_LAST = ("how to", "tell me about", "talk about")
"""Cues a form would read before a slot: the cue closes the sentence."""
TAG_CUES = ("true", "correct", "right", "fact check", "really")
"""VERIFICATION cues that would be a tag after a statement (`A, right?`): the cue opens it."""

TRAILING = ("please", "for me", "for us")
"""Step 7: a trailing `please`, `for me` or `for us` is dropped; `zorbs glow` is then a
question of two words, which no form reads and which is no statement asked (step 8)."""
ASKED_EXCLUDED = ("and", "or")
"""Step 8: a statement asked holds neither `and` nor `or`."""
ASKED_OPENINGS = ("what", "how", "who", "whom", "which", "where", "when", "whose")
"""Step 8: a statement asked opens with no question word. `why` is left out: the CAUSE form
`why (A)` reads every sentence that opens with it."""

PASSED_OVER = tuple(
    """ever never always often really just also still sometimes usually actually even do does
    did not can could would will should might must may all both""".split()
)
"""§ Subjects, rule 1: the words passed over between a verb marker and its verb, content words
(`always`) as well as function words. In `how we always tree rivers`, *tree* is then a verb
by position and goes last, so the subject is *rivers* (both lemmas; rule 2 keeps them in that
order); were *always* not passed over, *tree* would stay first."""
VERB_MARKERS = ("i", "we", "you", "they", "it")
"""§ Subjects, rule 1: the words whose next content word is a verb by position (`to`, and the
generic agents, have cases of their own)."""
GENERIC_AGENTS = ("people", "person", "someone", "somebody", "anyone", "everyone", "humans")
"""§ Subjects, rule 1: generic agents go last, and the word after one is a verb by position."""
AGENTS_LAST = (("people", "rivers"), ("person", "zorbs"), ("humans", "zorbs"))
"""§ Subjects, rule 1: a generic agent that is a content word goes after the slot's other
words: *people* and *rivers* are both lemmas, *person*, *humans* and *zorbs* none (the others,
`someone` `somebody` `anyone` `everyone`, are function words)."""

GLUED = (".", "!", "?", ";", "\u2026")
"""Step 6: an end mark ends a sentence only when a space or the end of the text follows."""
HYPHENS = ("-", " -", "- ", "\u2013", " \u2013", "\u2013 ")
"""Step 6: a hyphen or en dash ends a sentence only between spaces."""

SMALL_TALK = (
    "How are you?", "How are you doing?", "How are you today?", "How are you doing today?",
    "How is it going?", "How are things?", "What is up?", "What is new?", "Good morning!",
    "Good afternoon.", "Good evening.", "Good night.", "Good day.", "Nice to meet you.",
    "To meet you.", "Thank you.", "Thanks.", "See you.", "See you later.", "Bye.", "Goodbye.",
    "Have a nice day.", "How do you do?", "Hello there.", "Hi there.", "Hey there.",
    "What is your name?", "Who are you?", "What are you?", "How old are you?",
    "Where are you from?", "What can you do?", "Are you a robot?", "Are you human?",
    "Are you real?", "Are you there?", "I have a question.", "Can I ask you something?",
    "Can I ask a question?", "Can I ask you a question?", "Quick question.",
    "One more thing.", "Another question.",
)  # fmt: skip
"""§ The table of forms, the UNKNOWN row: each member of the closed list of small talk, each
alternative and optional word spelt out, asked after a turn about *river*: small talk has no
subject, so none refers back to *river* (§ Subjects: a slot with neither a content word nor a
word that refers back adds nothing)."""
DOCS_EXAMPLES = (
    ("U-WRAPPER", "I don't know what a zorb is.", "DEFINITION", "zorb"),
    ("U-WRAPPER", "I've always wondered why zorbs glow.", "CAUSE", "zorbs"),
    ("L-LEAD", "No, that's wrong: a whale is a fish.", "CORRECTION", "whale"),
    ("T-WORD-APOSTROPHE", "What is rivers'?", "DEFINITION", "rivers"),
)
"""The examples of steps 5 and 7 and § Subjects with their placeholder filled in: a wrapper
with `n't` and `'ve` (step 3 spells them out first), a repeated lead, and an apostrophe
that joins no two runs of letters."""
NO_REFERENCE = ("There.", "Here.", "Very much so.", "Okay then, there.")
"""§ Subjects: sentences no form and no cue reads whose one slot holds neither a content word
nor a word that refers back: UNKNOWN without a subject, after a turn about *river*."""
REFERENCE = ("That.", "Those.", "Them?", "This one.")
"""§ Subjects: the same with a word that refers back: UNKNOWN about *river*."""


def _one_edit(word: str, target: str) -> bool:
    """Step 2's edit: two adjacent letters swapped, or one inner letter of *target* left out."""
    if len(word) == len(target) and word != target:
        diffs = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and (word[diffs[0]], word[diffs[1]]) == (target[diffs[1]], target[diffs[0]])
        )
    return len(target) == len(word) + 1 and any(
        target[:i] + target[i + 1 :] == word for i in range(1, len(target) - 1)
    )


def _typo_rule(target: str, typo: str) -> str:
    found = [t for t in TYPO_TARGETS if _one_edit(typo, t)]
    assert found == [target], (typo, found)
    return "M-TYPO-SWAP" if len(typo) == len(target) else "M-TYPO-DROP"


def _cue_prompt(row: str, cue: str) -> str:
    if row == "C-08":
        return f"{cue.capitalize()} zorbs?" if cue in TAG_CUES else f"Zorbs {cue}?"
    if cue in CUE_FIRST:
        return f"{cue.capitalize()} zorbs glims."
    if cue in CUE_LAST:
        return f"Zorbs glims {cue}."
    return f"Zorbs {cue} glims."


def more_cases() -> list[dict[str, Any]]:
    """The cases of the typo targets, contractions, wrappers and cues, and of the places where
    no sentence ends, in list order, without ids."""
    assert [t for t, *_ in TYPOS] == list(TYPO_TARGETS)
    out = [
        _case([_typo_rule(target, typo)], prompt, intent, subject)
        for target, typo, prompt, intent, subject in TYPOS
    ]
    out += [
        _case([rule], prompt, intent, subject) for rule, prompt, intent, subject in CONTRACTIONS
    ]
    out += [_case(["U-WRAPPER"], prompt, intent, subject) for prompt, intent, subject in WRAPPED]
    out += [
        {**_case(["U-WRAPPER", "Z-BELIEF"], f"{o} the sun is a star.", "VERIFICATION", "sun"),
         "grounding_source": "pack"}
        for o in BELIEF_WRAPPERS
    ]  # fmt: skip
    out += [
        _case(["U-WRAPPER"], prompt, intent, subject) for prompt, intent, subject in NOT_WRAPPERS
    ]
    out += [_case(["C-01"], f"Zorbs, {cue}.", "RECALL", "zorbs") for cue in RECALL_CUES]
    out += [
        _case([row], _cue_prompt(row, cue), intent, "zorbs")
        for row, intent, cues in CUE_ROWS
        for cue in cues
    ]
    out += [_case(["U-TRAILING"], f"Zorbs glow {t}?", "UNKNOWN", "zorbs") for t in TRAILING]
    out += [_case(["F-ASK"], f"Zorbs {w} glims glow?", "UNKNOWN", "zorbs") for w in ASKED_EXCLUDED]
    out += [
        _case(["F-ASK"], f"{w.capitalize()} zorbs glow glims?", "UNKNOWN", "zorbs")
        for w in ASKED_OPENINGS
    ]
    out += [
        _case(["S-VERB-LAST"], f"Tell me about how we {w} tree rivers.", "NARRATIVE", "rivers")
        for w in PASSED_OVER
    ]
    out += [
        _case(["S-VERB-LAST"], f"Tell me about how {m} tree rivers.", "NARRATIVE", "rivers")
        for m in VERB_MARKERS
    ]
    out.append(_case(["S-VERB-LAST"], "Tell me about zorbs to tree rivers.", "NARRATIVE", "rivers"))
    out += [
        _case(["S-VERB-LAST"], f"Tell me about how {a} tree rivers.", "NARRATIVE", "rivers")
        for a in GENERIC_AGENTS
    ]
    out += [
        _case(["S-VERB-LAST"], f"Tell me about {a} and {other}.", "NARRATIVE", other)
        for a, other in AGENTS_LAST
    ]
    out += [
        _case(["Z-END-MARKS"], f"What is a zorb{m}what is a glim?", "DEFINITION", "zorb")
        for m in GLUED
    ]
    out += [
        _case(["Z-DASH"], f"What is a zorb{h}what is a glim?", "DEFINITION", "zorb")
        for h in HYPHENS
    ]
    out += [_after_river(["F-001"], p, None) for p in SMALL_TALK]
    out += [
        _case([rule], prompt, intent, subject) for rule, prompt, intent, subject in DOCS_EXAMPLES
    ]
    out += [_after_river(["S-REFERS-SESSION"], p, None) for p in NO_REFERENCE]
    out += [_after_river(["S-REFERS-SESSION"], p, "river") for p in REFERENCE]
    return out


def _after_river(rules: list[str], prompt: str, subject: str | None) -> dict[str, Any]:
    """An UNKNOWN case asked after `What is a river?` in the same session."""
    return {**_case(rules, prompt, "UNKNOWN", subject), "turns": ["What is a river?", prompt]}


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


def _owned(case_id: str) -> bool:
    number = int(case_id.split("-")[1])
    return any(low <= number < high for low, high in OWNED)


def updated(catalogue: dict[str, Any]) -> dict[str, Any]:
    """*catalogue* with this tool's cases (ids ``RC-1200`` to ``RC-1347`` and from
    ``RC-2000``) in place of the earlier ones."""
    kept = [c for c in catalogue["cases"] if not _owned(c["id"])]
    first = cases()
    assert FIRST_ID + len(first) <= OWNED[0][1], "the first range is full"
    second = more_cases()
    assert SECOND_ID + len(second) <= OWNED[1][1], "the second range is full"
    ours = [{"id": f"RC-{FIRST_ID + i:04d}", **case} for i, case in enumerate(first)]
    ours += [{"id": f"RC-{SECOND_ID + i:04d}", **case} for i, case in enumerate(second)]
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
