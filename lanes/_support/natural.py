"""The natural holdout: prompts written blind, scored per register in aggregate only.

Each line of ``lanes/cognition/cases/natural.jsonl`` is ``{"id", "turns": [{"prompt",
"intent", "subject", "must_mention"?}]}``; the turns of a case run in one fresh session.
Nothing here returns or prints a per-case result: :func:`measure_natural` gives counts
over the whole set, and its errors name a field, never a prompt.

An answer **says something about** its turn's labelled subject S (the definition of
docs/golden.md § The natural holdout) when all of these hold:

1. it is not a refusal: the grounding source is neither ``oov`` nor ``none``;
2. outside single-quoted terms (the wording that names what is unknown), the surface
   names S as a word, or a plural that folds to S;
3. outside single-quoted terms, the surface carries content about S: S's gloss; for a
   lemma without a gloss, one of its domains; a step of a shipped teaching chain that
   starts or ends at S, written ``source relation target``; a yes/no verdict (``yes`` or
   ``no`` followed by ``,``, ``.``, ``:`` or `` —``); or a content word of an earlier
   prompt of the session that named S (what the user said about it);
4. every ``must_mention`` word of the turn occurs as a word outside single-quoted terms.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from lanes._support.cognition import CASES, REGISTERS, register_id_of
from reference.lexicon import Lemma, Lexicon, default_lexicon
from reference.runtime import ChatResponse, ChatRuntime, RuntimeConfig
from reference.truth.text import content_terms, normalize, tokenize

NATURAL = "natural"
REFUSAL_SOURCES = frozenset({"oov", "none"})
_QUOTED_TERM = re.compile(r"(?<!\w)'[^']*'(?!\w)")
_VERDICT = re.compile(r"\b(?:yes|no)(?:[,.:]| —)")


class NaturalCaseError(ValueError):
    """A line of the natural holdout is not of the documented shape (names the field only)."""


@dataclass(frozen=True)
class NaturalTurn:
    prompt: str
    intent: str
    subject: str | None
    must_mention: tuple[str, ...]


@dataclass(frozen=True)
class NaturalCase:
    id: str
    turns: tuple[NaturalTurn, ...]


def _turn(raw: object, where: str) -> NaturalTurn:
    if not isinstance(raw, dict):
        raise NaturalCaseError(f"{where}: a turn must be an object")
    prompt, intent, subject = raw.get("prompt"), raw.get("intent"), raw.get("subject")
    mention = raw.get("must_mention", [])
    if not isinstance(prompt, str) or not isinstance(intent, str):
        raise NaturalCaseError(f"{where}: 'prompt' and 'intent' must be strings")
    if subject is not None and not isinstance(subject, str):
        raise NaturalCaseError(f"{where}: 'subject' must be a string or null")
    if not isinstance(mention, list) or not all(isinstance(w, str) for w in mention):
        raise NaturalCaseError(f"{where}: 'must_mention' must be a list of strings")
    return NaturalTurn(prompt, intent, subject, tuple(mention))


def load_natural(name: str = NATURAL) -> tuple[NaturalCase, ...]:
    """The cases of ``lanes/cognition/cases/<name>.jsonl`` in file order."""
    cases = []
    lines = (CASES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        raw = json.loads(line)
        where = f"{name}.jsonl line {number}"
        if not isinstance(raw, dict) or not isinstance(raw.get("turns"), list):
            raise NaturalCaseError(f"{where}: 'turns' must be a list")
        turns = tuple(_turn(t, f"{where} turn {i}") for i, t in enumerate(raw["turns"]))
        cases.append(NaturalCase(str(raw.get("id")), turns))
    return tuple(cases)


def lemma_of(word: str | None, lexicon: Lexicon) -> str | None:
    """*word* folded to the lemma the lexicon holds for it (as written when it holds none)."""
    if word is None:
        return None
    folded = normalize(word)
    entry = lexicon.lookup(folded)
    return entry.lemma if entry is not None else folded


def _words(text: str) -> list[str]:
    return list(tokenize(normalize(text)))


def _names(surface_words: list[str], subject: str, lexicon: Lexicon) -> bool:
    return any(w == subject or lemma_of(w, lexicon) == subject for w in surface_words)


def _has_phrase(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase.lower())}(?!\w)", text) is not None


def _content(text: str, entry: Lemma | None, earlier: Iterable[str], lexicon: Lexicon) -> bool:
    if _VERDICT.search(text):
        return True
    if entry is None:
        return False
    if entry.gloss is not None and _has_phrase(text, entry.gloss):
        return True
    if entry.gloss is None and any(_has_phrase(text, d) for d in entry.domains):
        return True
    for chain in lexicon.chains:
        for step in chain.steps:
            if entry.lemma in (step.source, step.target) and _has_phrase(
                text, f"{step.source} {step.relation} {step.target}"
            ):
                return True
    said = {w for prompt in earlier for w in content_terms(tokenize(normalize(prompt)))}
    said = {w for w in said if lemma_of(w, lexicon) != entry.lemma}
    return any(_has_phrase(text, w) for w in said)


def says_something(
    turn: NaturalTurn,
    response: ChatResponse,
    earlier_prompts: Iterable[str],
    lexicon: Lexicon,
) -> bool:
    """Whether *response* says something about *turn*'s labelled subject (module docstring)."""
    subject = lemma_of(turn.subject, lexicon)
    if subject is None or response.grounding_source in REFUSAL_SOURCES:
        return False
    text = _QUOTED_TERM.sub("''", response.surface.lower())
    if not _names(_words(text), subject, lexicon):
        return False
    if not all(_has_phrase(text, word) for word in turn.must_mention):
        return False
    entry = lexicon.lookup(subject)
    earlier = [p for p in earlier_prompts if _names(_words(p), subject, lexicon)]
    return _content(text, entry, earlier, lexicon)


@dataclass(frozen=True)
class NaturalScore:
    """Counts over a whole case set under one register (never per case)."""

    turns: int
    intent_right: int
    subject_right: int
    with_subject: int
    says_nothing: int

    @property
    def intent_accuracy(self) -> float:
        return self.intent_right / self.turns if self.turns else 1.0

    @property
    def subject_accuracy(self) -> float:
        return self.subject_right / self.turns if self.turns else 1.0

    @property
    def says_nothing_share(self) -> float:
        return self.says_nothing / self.with_subject if self.with_subject else 0.0


def _run(case: NaturalCase, register: str) -> list[ChatResponse]:
    runtime = ChatRuntime(RuntimeConfig(register_id=register_id_of(register)))
    return [runtime.chat(turn.prompt) for turn in case.turns]


def measure_natural(cases: Iterable[NaturalCase], register: str) -> NaturalScore:
    """Score every turn of *cases* under *register*; only the totals leave this function."""
    lexicon = default_lexicon()
    turns = intent = subject = with_subject = nothing = 0
    for case in cases:
        responses = _run(case, register)
        for index, (turn, response) in enumerate(zip(case.turns, responses, strict=True)):
            turns += 1
            intent += response.intent == turn.intent
            label = lemma_of(turn.subject, lexicon)
            subject += lemma_of(response.subject, lexicon) == label
            if label is None:
                continue
            with_subject += 1
            earlier = [t.prompt for t in case.turns[:index]]
            nothing += not says_something(turn, response, earlier, lexicon)
    return NaturalScore(turns, intent, subject, with_subject, nothing)


def natural_table(title: str, per_register: dict[str, NaturalScore]) -> str:
    """One table of the aggregate scores, the registers side by side."""
    rows = [
        ("turns", lambda s: str(s.turns)),
        ("intent accuracy", lambda s: f"{s.intent_accuracy:.1%}"),
        ("subject accuracy", lambda s: f"{s.subject_accuracy:.1%}"),
        ("says nothing of subj.", lambda s: f"{s.says_nothing_share:.1%}"),
        ("turns with a subject", lambda s: str(s.with_subject)),
    ]
    header = f"{title:<22}" + "".join(f"{r:>20}" for r in per_register)
    lines = [header, "-" * len(header)]
    for label, cell in rows:
        lines.append(f"{label:<22}" + "".join(f"{cell(s):>20}" for s in per_register.values()))
    return "\n".join(lines)


def measure_all(name: str = NATURAL) -> dict[str, NaturalScore]:
    """The aggregate score of the set *name* under every lane register."""
    cases = load_natural(name)
    return {register: measure_natural(cases, register) for register in REGISTERS}
