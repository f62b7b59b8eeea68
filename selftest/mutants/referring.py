"""Broken readers and answers for the words that refer back, the terms a slot names, the
checked statement and the turns that name a subject (docs/intents.md § Subjects, § Answers).

Each class is the reference with one porting mistake in a rule of
``conformance/data/cognition/rules_referring.json`` (caught by ``COG-RULE-001``) or of
``answers_referring.json`` (caught by ``COG-ANSWER-001``); ``REFERRING_MUTANTS`` names them
with the requirement that catches each.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

from reference.lexicon import Lexicon
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import answer, grammar, grounding, pipeline
from reference.truth import intent as reading
from reference.truth.answer import same_word
from reference.truth.text import content_terms, tokenize

PHRASE = re.compile(r"\b(?:that|this|the) (?:word|term|thing|one)$")
"""A phrase that refers back at a slot's end (§ Subjects)."""
TERM = r"\bthe (?:word|term) (?!and\b|or\b|with\b|to\b|is\b)(?=\w)"
"""``the word X``, ``the term X``: they name X."""
KIND = r"\b(?:a |an )?(?:kind|sort|type) of\b"
"""``a kind of X`` and its variants: they name X."""


def _cleaner(phrase: re.Pattern[str] | None, noise: str) -> Callable[[str], str]:
    def clean(text: str) -> str:
        named = re.sub(noise, " ", phrase.sub("it", text) if phrase else text)
        return named

    return clean


class _Cleaned(ProtocolHandler):
    """The reference reading slots with :attr:`clean` in place of its own cleaning."""

    clean: Callable[[str], str] = staticmethod(_cleaner(PHRASE, f"{TERM}|{KIND}"))

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(reading, "clean_slot", type(self).clean):
            reading.forget_readings()
            try:
                return super().chat(runtime, text)
            finally:
                reading.forget_readings()


class TermNotNamed(_Cleaned):
    """``the word X`` and ``the term X`` do not name X: ``term`` or ``word`` is a subject."""

    clean = staticmethod(_cleaner(PHRASE, KIND))


class KindOnlyWithA(_Cleaned):
    """Only ``a kind of X`` names X: ``a sort of X``, ``a type of X`` keep ``sort``/``type``."""

    clean = staticmethod(_cleaner(PHRASE, rf"{TERM}|\ba kind of\b"))


class ReferringPhraseIgnored(_Cleaned):
    """``that word``, ``the term``, ``this thing`` at a slot's end do not refer back: their
    ``word``, ``term`` or ``thing`` is a subject."""

    clean = staticmethod(_cleaner(None, f"{TERM}|{KIND}"))


class NoPlainPronounsReferBack(ProtocolHandler):
    """Only ``it``, ``they``, ``this`` and ``that`` refer back: ``them``, ``him``, ``her``,
    ``these``, ``those``, ``he`` and ``she`` are mere function words."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        narrow = frozenset({"it", "they", "this", "that"})
        with patch.object(reading, "REFERRING", narrow):
            reading.forget_readings()
            try:
                return super().chat(runtime, text)
            finally:
                reading.forget_readings()


class OnlyItAsGrammaticalSubject(ProtocolHandler):
    """Only a grammatical subject ``it`` refers back; ``they``, ``he`` and ``she`` followed by
    content words do not (``Why do they flow?`` is about *flow*)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(grammar, "SUBJECT_PRONOUNS", frozenset({"it"})):
            return super().chat(runtime, text)


def _any_pronoun_before_noun(text: str, lexicon: Lexicon | None) -> bool:
    tokens = tokenize(text)
    index = next((i for i, t in enumerate(tokens) if t not in grammar.AUXILIARIES), None)
    if index is None or tokens[index] not in grammar.SUBJECT_PRONOUNS:
        return False
    if index + 1 >= len(tokens) or lexicon is None:
        return True
    entry = lexicon.lookup(tokens[index + 1])
    return entry is None or entry.pos != "noun"


class PronounBeforeNounEmpty(ProtocolHandler):
    """Every pronoun directly before a noun the lexicon holds is an empty subject, not only
    ``it`` (``Why do they rain?`` is about *rain*)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(reading, "subject_pronoun", _any_pronoun_before_noun):
            return super().chat(runtime, text)


def _covered(words: tuple[str, ...], by: tuple[str, ...]) -> bool:
    return all(any(same_word(word, other) for other in by) for word in words)


class NoPredicateHoldsVacuously(ProtocolHandler):
    """A checked statement without predicate words is decided by any evidence (every one of
    no words is covered), so ``Is the sun the sun?`` is a yes by the gloss."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = answer.verdict

        def verdict(statement: str, subject: Any, claim: str | None, graph: Any) -> Any:
            words = answer.predicate(statement, subject)
            if words:
                return kept(statement, subject, claim, graph)
            flip = answer.negated(statement)
            if claim is not None:
                agrees = answer.negated(f"{subject.lemma} {claim}") == flip
                return ("yes" if agrees else "no"), "vault", None
            if subject.gloss is not None:
                return ("no" if flip else "yes"), "gloss", None
            return "unknown", None, None

        with patch.object(grounding, "verdict", verdict):
            return super().chat(runtime, text)


class CheckedWithReferent(ProtocolHandler):
    """The checked statement has the referent put in for a word that refers back
    (``Does it flow?`` after ``What is a river?`` checks ``river flow``)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        says = result.get("says")
        subject = result.get("subject")
        if not isinstance(says, dict) or not says.get("checked") or not subject:
            return result
        words = [subject if w in reading.REFERRING else w for w in says["checked"].split(" ")]
        return {**result, "says": {**says, "checked": " ".join(words)}}


class NamedByTextOnly(ProtocolHandler):
    """A RECALL quotes and counts only the turns whose own text holds the subject (a turn
    that named it through a referent, ``Tell me more.``, is left out)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        says = result.get("says")
        subject = result.get("subject")
        if result.get("intent") != "RECALL" or not isinstance(says, dict) or not subject:
            return result
        kept = [
            quote
            for quote in says["said"]
            if any(same_word(word, subject) for word in tokenize(quote["text"]))
        ]
        dropped = len(says["said"]) - len(kept)
        earlier = says["earlier"] - dropped if isinstance(says["earlier"], int) else None
        return {**result, "says": {**says, "said": kept, "earlier": earlier}}


class RelationFunctionWordsRequired(ProtocolHandler):
    """A teaching step out of the subject states a statement only when the statement also
    says every function word of its relation (``Does the river flow to the ocean?`` is then
    not stated by ``river flows into ocean``: it lacks ``into``)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = grounding.verdict

        def verdict(statement: str, subject: Any, claim: str | None, graph: Any) -> Any:
            value, by, step = kept(statement, subject, claim, graph)
            if by != "teaching" or step.steps[0].source != subject.lemma:
                return value, by, step
            relation = tokenize(step.steps[0].relation)
            function = set(relation) - set(content_terms(relation))
            if function <= set(tokenize(statement)):
                return value, by, step
            words = answer.predicate(statement, subject)
            gloss = content_terms(tokenize(subject.gloss or ""))
            if subject.gloss is not None and _covered(words, gloss):
                return ("no" if answer.negated(statement) else "yes"), "gloss", None
            return "unknown", None, None

        with patch.object(grounding, "verdict", verdict):
            return super().chat(runtime, text)


class OnlyStraightDoubleQuotesDropped(ProtocolHandler):
    """Step 4 drops only the straight double quote: curly double quotes and backticks stay
    (as the guillemets every engine keeps), so ``“How do I grow a garden?”`` is no form."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = text.replace("\u201c", "\u00ab").replace("\u201d", "\u00bb").replace("`", "\u00ab")
        return super().chat(runtime, kept)


class FirstTwoSubjectsOnly(ProtocolHandler):
    """Only the first two subjects are grounded, known or not: an unknown subject before two
    known ones leaves one known subject to compare, link or span."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = pipeline.decide_grounding

        def decide(intent: Any, lexicon: Any, graph: Any, vault: Any) -> Any:
            pair = dataclasses.replace(intent, terms=intent.terms[:2])
            return kept(pair, lexicon, graph, vault)

        with patch.object(pipeline, "decide_grounding", decide):
            return super().chat(runtime, text)


REFERRING_MUTANTS: tuple[tuple[str, type[ProtocolHandler], str], ...] = (
    ("referring_term_not_named", TermNotNamed, "COG-RULE-001"),
    ("referring_kind_only_with_a", KindOnlyWithA, "COG-RULE-001"),
    ("referring_phrase_ignored", ReferringPhraseIgnored, "COG-RULE-001"),
    ("referring_no_plain_pronouns", NoPlainPronounsReferBack, "COG-RULE-001"),
    ("referring_only_it_as_subject", OnlyItAsGrammaticalSubject, "COG-RULE-001"),
    ("referring_pronoun_before_noun_empty", PronounBeforeNounEmpty, "COG-RULE-001"),
    ("referring_no_predicate_vacuous", NoPredicateHoldsVacuously, "COG-ANSWER-001"),
    ("referring_checked_with_referent", CheckedWithReferent, "COG-ANSWER-001"),
    ("referring_named_by_text_only", NamedByTextOnly, "COG-ANSWER-001"),
    ("referring_relation_function_words", RelationFunctionWordsRequired, "COG-ANSWER-001"),
    ("referring_only_straight_quotes", OnlyStraightDoubleQuotesDropped, "COG-RULE-001"),
    ("referring_first_two_subjects_only", FirstTwoSubjectsOnly, "COG-ANSWER-001"),
)
"""Each broken engine of this module by its unique name, with the requirement that fails it."""


def missing_referring_word(word: str) -> type[ProtocolHandler]:
    """The reference with *word* left out of the words that refer back (§ Subjects)."""

    class MissingReferringWord(ProtocolHandler):
        """One word that refers back is read as a mere function word."""

        def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
            with patch.object(reading, "REFERRING", reading.REFERRING - {word}):
                reading.forget_readings()
                try:
                    return super().chat(runtime, text)
                finally:
                    reading.forget_readings()

    MissingReferringWord.__name__ = f"MissingReferringWord_{word}"
    return MissingReferringWord
