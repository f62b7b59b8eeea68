"""Broken readers that keep one half of a sentence of docs/intents.md and drop the other
(``conformance/requirements/cognition_clauses.py``).

Each class is the reference with one module attribute of the truth path replaced while it
answers a turn; ``CLAUSE_MUTANTS`` names them with the requirement that catches each.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from reference.truth import grammar, pipeline
from reference.truth import intent as reading
from reference.truth.record import TruthRecord
from reference.truth.text import STOPWORDS, normalize, tokenize, word_base
from selftest.mutants.conditions import PatchedReading


class AuxiliariesOnlyDoSupport(PatchedReading):
    """A grammatical subject is read past ``do``/``does``/``did`` only, not past the other
    auxiliaries: ``Why can they glow?`` does not refer back."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((grammar, "AUXILIARIES", frozenset({"do", "does", "did"})),)


class MightNotPassedOver(PatchedReading):
    """A grammatical subject is read past AUX and ``not`` but not past ``might``: ``Why
    might they glow?`` does not refer back."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((grammar, "AUXILIARIES", grammar.AUXILIARIES - {"might"}),)


def _strip(name: str, text: str) -> str:
    """*text* without every leading match of the reading's pattern *name* (``_LEADS``: the
    interjections, ``_WRAPPERS``: the polite wrappers), as step 7 strips one kind."""
    pattern: re.Pattern[str] = getattr(reading, name)
    while True:
        found = pattern.match(text)
        if found is None or not found.group(0):
            return text
        text = text[found.end() :]


def _unwrap_once(clause: str) -> str:
    stripped = _strip("_LEADS", clause)
    unwrapped = _strip("_WRAPPERS", stripped)
    if unwrapped != stripped and unwrapped.startswith("if "):
        unwrapped = "whether " + unwrapped[3:]
    return unwrapped


class UnwrapOnePass(PatchedReading):
    """Step 7 strips leading interjections, then wrappers, once: an interjection after a
    wrapper stays (``Well, can you um tell me what a cousin is?``)."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((reading, "unwrap", _unwrap_once),)


def _unwrap_if_after_anything(clause: str) -> str:
    while True:
        stripped = _strip("_LEADS", clause)
        unwrapped = _strip("_WRAPPERS", stripped)
        if unwrapped != clause and unwrapped.startswith("if "):
            unwrapped = "whether " + unwrapped[3:]
        if unwrapped == clause:
            return clause
        clause = unwrapped


class WhetherAfterInterjection(PatchedReading):
    """``if`` becomes ``whether`` after a leading interjection too, not only after a
    wrapper: ``Hey, if the mind were an ocean, ...`` is a VERIFICATION."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((reading, "unwrap", _unwrap_if_after_anything),)


_PAST_INTERJECTIONS = rf"^(?:(?:{reading.INTERJECTIONS})\b[ ,;:.!?-]*)*"
BELIEF = "_BELIEF"
"""The reading's pattern of the sentences that put a belief forward (step 6), by name."""


class BeliefAtStartOnly(PatchedReading):
    """A belief opener counts only as a sentence's first words, not past interjections:
    ``Well, I think the sun is a star.`` is no question."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        kept: re.Pattern[str] = getattr(reading, BELIEF)
        source = kept.pattern.replace(_PAST_INTERJECTIONS, "^", 1)
        assert source != kept.pattern
        return ((reading, BELIEF, re.compile(source)),)


def _slot_terms_grouped(agents_first: bool) -> Any:
    def slot_terms(
        text: str, lexicon: Any, *, action: bool, verbs_move: bool = True
    ) -> tuple[str, ...]:
        others: list[str] = []
        verbs: list[str] = []
        agents: list[str] = []
        previous: str | None = None
        for position, token in enumerate(tokenize(text)):
            base = word_base(token)
            if base is None or base in STOPWORDS or len(base) < 2:
                if token not in grammar.SKIPPED:
                    previous = token
                continue
            if base in grammar.GENERIC_AGENTS:
                agents.append(base)
            elif (previous in grammar.VERB_MARKERS and verbs_move) or (action and position == 0):
                verbs.append(base)
            else:
                others.append(base)
            if token not in grammar.SKIPPED:
                previous = base
        moved = agents + verbs if agents_first else verbs + agents
        ordered = tuple(dict.fromkeys(others + moved))
        if lexicon is None:
            return ordered
        known = tuple(t for t in ordered if lexicon.lookup(t) is not None)
        return known + tuple(t for t in ordered if t not in known)

    return slot_terms


class AgentsAfterVerbs(PatchedReading):
    """Generic agents go after the verbs by position, not in their own order among them:
    ``Tell me about people we love.`` is about *love*."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((reading, "slot_terms", _slot_terms_grouped(agents_first=False)),)


class AgentsBeforeVerbs(PatchedReading):
    """Generic agents go before the verbs by position, not in their own order among them:
    ``Tell me about what we love, and people.`` is about *people*."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((reading, "slot_terms", _slot_terms_grouped(agents_first=True)),)


def _verbs_last_after_known_first(
    text: str, lexicon: Any, *, action: bool, verbs_move: bool = True
) -> tuple[str, ...]:
    """Known lemmas first, and only then the verbs by position (and agents) moved last."""
    words: list[str] = []
    last: set[str] = set()
    previous: str | None = None
    for position, token in enumerate(tokenize(text)):
        base = word_base(token)
        if base is None or base in STOPWORDS or len(base) < 2:
            if token not in grammar.SKIPPED:
                previous = token
            continue
        words.append(base)
        by_position = previous in grammar.VERB_MARKERS and verbs_move
        if by_position or (action and position == 0) or base in grammar.GENERIC_AGENTS:
            last.add(base)
        if token not in grammar.SKIPPED:
            previous = base
    unique = tuple(dict.fromkeys(words))
    known = [w for w in unique if lexicon is not None and lexicon.lookup(w) is not None]
    staged = known + [w for w in unique if w not in known]
    return tuple(w for w in staged if w not in last) + tuple(w for w in staged if w in last)


class VerbsLastAfterKnownFirst(PatchedReading):
    """The two slot orderings run the other way round: known lemmas first, then verbs by
    position last, so ``How do I grow a blorvex?`` is about *blorvex*, not *grow*."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((reading, "slot_terms", _verbs_last_after_known_first),)


def _run_storing_every_subject(self: pipeline.TruthPipeline, text: str) -> TruthRecord:
    normalized = normalize(text)
    tokens = tokenize(normalized)
    intent = pipeline.classify_intent(normalized, tokens, self.lexicon, self.context)
    grounding = pipeline.decide_grounding(intent, self.lexicon, self.graph, self.vault)
    if grounding.lemmas:
        first = grounding.lemmas[0]
        anchor = pipeline.lemma_versor(first.lemma, first.pos, first.domains)
        self.field.step(pipeline.turn_rotor(grounding.lemmas), anchor=anchor)
    record = TruthRecord.seal(
        turn_idx=self.turn_idx,
        normalized_input=normalized,
        tokens=tokens,
        intent=intent.intent,
        subject=intent.subject,
        grounding=grounding,
        field_digest=self.field.digest(),
        versor_condition=self.field.versor_condition(),
    )
    said = None if intent.intent is pipeline.IntentTag.RECALL else normalized
    for lemma in grounding.lemmas:
        self.vault.store(lemma.lemma, self.turn_idx, grounding.claim, said)
    if intent.subject is not None:
        self.context = intent.subject
    self.turn_idx += 1
    return record


class EverySubjectNamed(PatchedReading):
    """A turn names every subject it grounds, not only its first known one: after
    ``Compare a river and a lake.`` a RECALL of lakes quotes it."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((pipeline.TruthPipeline, "run", _run_storing_every_subject),)


SLOT_NOISE = "_SLOT_NOISE"
"""The reading's pattern of `the word X`, `the term X` and `a kind of X` in a slot, by name."""


def _slot_noise(old: str, new: str) -> tuple[object, str, object]:
    kept: re.Pattern[str] = getattr(reading, SLOT_NOISE)
    assert kept.pattern.count(old) == 1, old
    return (reading, SLOT_NOISE, re.compile(kept.pattern.replace(old, new)))


class KindNeedsArticle(PatchedReading):
    """Only ``a kind of X`` and ``an kind of X`` name X: ``kind of X``, ``sort of X``,
    ``type of X`` without an article keep ``kind``, ``sort`` or ``type`` as a subject."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return (_slot_noise("(?:a |an )?", "(?:a |an )"),)


class TermNamesConnectors(PatchedReading):
    """``the word X`` names any X but ``and`` and ``or``: ``Explain the word to a child.``
    is about *child*."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return (_slot_noise("(?!and\\b|or\\b|with\\b|to\\b|is\\b)", "(?!and\\b|or\\b)"),)


_COMMON_AUX = "is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|am"


def _frames_with_fewer_auxiliaries() -> tuple[Any, ...]:
    full = "(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|must|may|am) "
    frames = []
    for frame in reading.FRAMES:
        if frame.source.startswith("^" + full):
            source = frame.source.replace(full, f"(?:{_COMMON_AUX}) ", 1)
            frame = dataclasses.replace(frame, source=source)
        frames.append(frame)
    assert [f.source for f in frames] != [f.source for f in reading.FRAMES]
    return tuple(frames)


class AuxFormCommonOnly(PatchedReading):
    """The yes/no form ``AUX A`` opens with every auxiliary of ``AUX`` but ``must`` and
    ``may``: ``May the sun and the moon bright?`` is read by no form."""

    def patches(self) -> tuple[tuple[object, str, object], ...]:
        return ((reading, "FRAMES", _frames_with_fewer_auxiliaries()),)


CLAUSE_MUTANTS = (
    ("auxiliaries_only_do_support", AuxiliariesOnlyDoSupport, "COG-READ-461"),
    ("might_not_passed_over", MightNotPassedOver, "COG-READ-461"),
    ("unwrap_one_pass", UnwrapOnePass, "COG-READ-462"),
    ("whether_after_interjection", WhetherAfterInterjection, "COG-READ-463"),
    ("belief_at_start_only", BeliefAtStartOnly, "COG-READ-464"),
    ("agents_after_verbs", AgentsAfterVerbs, "COG-READ-465"),
    ("agents_before_verbs", AgentsBeforeVerbs, "COG-READ-465"),
    ("verbs_last_after_known_first", VerbsLastAfterKnownFirst, "COG-READ-469"),
    ("every_subject_named", EverySubjectNamed, "COG-RECALL-461"),
    ("kind_needs_article", KindNeedsArticle, "COG-READ-466"),
    ("term_names_connectors", TermNamesConnectors, "COG-READ-467"),
    ("aux_form_common_only", AuxFormCommonOnly, "COG-READ-468"),
)
"""(name, class, the requirement that catches it)."""
