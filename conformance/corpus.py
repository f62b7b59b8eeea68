"""The labeled cognition corpus: what each prompt IS (intent, grounding source, subject).

Cases are templates labeled from the forms of docs/intents.md and the grounding rules
of docs/spec.md, never from an engine's answers. Slots are filled from the engine's own
``lexicon.list`` (``{glossed}``, ``{other}``: two glossed lemmas; ``{glossless}``: a
lemma without gloss; ``{madeup}``, ``{madeup2}``: words the lexicon does not hold), so
a port with another lexicon is certified on the same cases. A few cases name concrete
lemmas and teaching chains every engine must ship (docs/spec.md § Cognition).

The corpus changes only by ratification: ``RATIFICATIONS.jsonl`` records the digest of
every ratified version, and the suite refuses a corpus whose digest is not the last one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from conformance.canonical import digest
from conformance.model import SuiteContext

PACKAGE = "conformance.data.cognition"
SLOT = re.compile(r"\{([a-z0-9]+)\}")
MADE_UP = ("blorvex", "quintaran", "zephlow", "morvandel", "tavisk")
FUNCTION_AND_FORM_WORDS = frozenset(
    """a an the this that these those it its i you we they he she me my your our their
    is are was were be been do does did can could will would should has have had must
    of in on at to from for with by about into through as and or but if then so not no
    what why how who whom which when where whether
    compare contrast define describe difference example explain mean meaning path link
    connection reason cause origin story history steps way recall remember remind true
    false right wrong kind word term think imagine suppose like versus lead connect become
    trace show tell give name say hear learn know more discuss actually now hi hello
    similar different alike apart versus connected related linked relate relationship
    relation history guide tips advice method process recipe instance illustrate fact
    correct really verify confirm mean define definition metaphor analogy pretend imagine
    wonder believe heard people someone person start begin help teach walk start
    interesting facts curious""".split()
)
"""Words never chosen to fill a slot: function words, the words the forms are made of,
and the cue words of docs/intents.md § Cue words."""


@dataclass(frozen=True)
class CorpusCase:
    """One labeled case: the turns of a fresh session and the labels of its last turn."""

    id: str
    turns: tuple[str, ...]
    intent: str
    grounding_source: str
    subject: str | None
    form: str


def _text(name: str) -> str:
    return resources.files(PACKAGE).joinpath(name).read_text("utf-8")


def corpus_text() -> str:
    return _text("corpus.jsonl")


def load_corpus() -> tuple[CorpusCase, ...]:
    """The shipped corpus, in file order."""
    rows = [json.loads(line) for line in corpus_text().splitlines() if line.strip()]
    return tuple(
        CorpusCase(
            r["id"], tuple(r["turns"]), r["intent"], r["grounding_source"], r["subject"], r["form"]
        )
        for r in rows
    )


def corpus_digest() -> str:
    """SHA-256 over the canonical JSON of every case, in file order."""
    return digest([json.loads(line) for line in corpus_text().splitlines() if line.strip()])


def ratifications() -> list[dict[str, Any]]:
    """The ratification ledger, oldest first."""
    return [json.loads(line) for line in _text("RATIFICATIONS.jsonl").splitlines() if line]


def _usable(lemma: str) -> bool:
    return lemma.isascii() and lemma.isalpha() and lemma.islower() and len(lemma) >= 3


def slot_fillers(ctx: SuiteContext) -> dict[str, str]:
    """The words that fill the slots, chosen deterministically from the engine's lexicon."""
    known = {e.lemma for e in ctx.lexicon}
    usable = [e for e in ctx.lexicon if _usable(e.lemma) and e.lemma not in FUNCTION_AND_FORM_WORDS]
    glossed = sorted(e.lemma for e in usable if e.has_gloss)
    glossless = sorted(e.lemma for e in usable if not e.has_gloss)
    made_up = [w for w in MADE_UP if w not in known]
    if len(glossed) < 2 or not glossless or len(made_up) < 2:
        raise AssertionError(
            "the lexicon cannot fill the corpus slots: it needs two glossed lemmas and one "
            "gloss-less lemma of three or more lowercase letters"
        )
    return {
        "glossed": glossed[len(glossed) // 3],
        "other": glossed[2 * len(glossed) // 3],
        "glossless": glossless[len(glossless) // 2],
        "madeup": made_up[0],
        "madeup2": made_up[1],
    }


def _fill(template: str, fillers: dict[str, str]) -> str:
    return SLOT.sub(lambda m: fillers[m.group(1)], template)


class CorpusNotRatified(Exception):
    """The shipped corpus is not the version the ledger last ratified."""


def check_ratified() -> None:
    """Raise :class:`CorpusNotRatified` unless the corpus digest is the last ratified one."""
    ledger = ratifications()
    current = corpus_digest()
    if not ledger or ledger[-1]["corpus_sha256"] != current:
        raise CorpusNotRatified(
            f"corpus digest {current} is not the last entry of RATIFICATIONS.jsonl"
        )


def instantiate(ctx: SuiteContext) -> list[dict[str, Any]]:
    """Every corpus case with its slots filled: plain JSON, replayable without the suite."""
    check_ratified()
    fillers = slot_fillers(ctx)
    return [
        {
            "id": case.id,
            "turns": [_fill(t, fillers) for t in case.turns],
            "intent": case.intent,
            "grounding_source": case.grounding_source,
            "subject": None if case.subject is None else _fill(case.subject, fillers),
            "form": case.form,
        }
        for case in load_corpus()
    ]
