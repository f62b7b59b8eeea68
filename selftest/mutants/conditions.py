"""Broken readers and answers that implement one condition of the truth path in part.

Each class is the reference with one atom of one row of
``conformance/data/cognition/conditions.json`` narrowed, widened, inverted or dropped (the
row's id in the docstring); ``CONDITION_MUTANTS`` names each with the requirement that fails
it (``COG-COND-251`` for the reading and grounding, ``COG-COND-252`` for ``says``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any
from unittest.mock import patch

from reference.lexicon import base_forms
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import answer, grounding, pipeline, spelling
from reference.truth import intent as reading
from reference.truth.intent import IntentTag, Reading
from reference.truth.teaching import TeachingGraph
from reference.truth.text import content_terms, sub_words, tokenize


class PatchedReading(ProtocolHandler):
    """The reference with :meth:`patches` in place while it reads and answers a turn (kept
    readings are dropped before and after, so no other engine sees them)."""

    def patches(self) -> Sequence[tuple[object, str, object]]:
        return ()

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with ExitStack() as stack:
            for module, name, value in self.patches():
                stack.enter_context(patch.object(module, name, value))
            reading.forget_readings()
            try:
                return super().chat(runtime, text)
            finally:
                reading.forget_readings()


def _is_request(found: Reading) -> bool:
    """A form (not a plain statement, not cue words) read the sentence as a request."""
    return found.intent is not IntentTag.UNKNOWN and not found.statement and not found.cued


def _pick(
    readings: list[tuple[Any, Reading]], request: Callable[[Reading], bool] = _is_request
) -> int:
    """Step 9's choice of the deciding sentence, *request* telling a request."""
    backwards = list(range(len(readings) - 1, -1, -1))
    for index in backwards:
        if readings[index][0].question and request(readings[index][1]):
            return index
    for index, (_, found) in enumerate(readings):
        if request(found):
            return index
    for index in backwards:
        sentence, found = readings[index]
        if sentence.question and found.intent is not IntentTag.UNKNOWN:
            return index
    for index, (_, found) in enumerate(readings):
        if found.intent is not IntentTag.UNKNOWN:
            return index
    return 0


def _nearest(sentences: list[Any], chosen: int, *, before_first: bool) -> str | None:
    before = list(range(chosen - 1, -1, -1))
    after = list(range(chosen + 1, len(sentences)))
    for index in before + after if before_first else after + before:
        if content_terms(tokenize(sentences[index].clause)):
            clause: str = sentences[index].clause
            return clause
    return None


def _sentences(
    takes_over: Callable[[Reading], bool],
    *,
    before_first: bool = True,
    request: Callable[[Reading], bool] = _is_request,
) -> Callable[[str], Reading]:
    """Step 9 with the other sentence deciding when *takes_over* says so, and the referent
    the nearest sentence before the deciding one first (else after it first)."""

    def read_sentences(text: str) -> Reading:
        sentences = reading.split_sentences(text, reading.prepare, reading.puts_belief)
        if not sentences:
            return Reading(IntentTag.UNKNOWN, ())
        readings = [(s, reading.read_clause(s.clause, s.question)) for s in sentences]
        chosen = _pick(readings, request)
        mine = readings[chosen][1]
        if len(sentences) == 1:
            return mine
        if mine.intent is IntentTag.UNKNOWN:
            return Reading(IntentTag.UNKNOWN, tuple(s.clause for s in sentences if s.clause))
        referent = _nearest(sentences, chosen, before_first=before_first)
        only = all(not content_terms(tokenize(reading.clean_slot(slot))) for slot in mine.slots)
        if referent is not None and only:
            deferred = next(r for s, r in readings if s.clause == referent)
            if takes_over(deferred):
                return deferred
        return dataclasses.replace(mine, referent=referent)

    return read_sentences


class ReferentTakesOverOnlyWhenRequest(PatchedReading):
    """CD-21 narrowed: the referent sentence takes over only when it is a request, never when
    it is read by cue words (``Wolves and their stories. Why?`` stays a CAUSE)."""

    def patches(self) -> list[tuple[object, str, object]]:
        return [(reading, "read_sentences", _sentences(_is_request))]


class ReferentAfterFirst(PatchedReading):
    """CD-22 inverted: the referent is the nearest other sentence with a content word, those
    after the deciding one first."""

    def patches(self) -> list[tuple[object, str, object]]:
        def takes_over(found: Reading) -> bool:
            return _is_request(found) or found.cued

        return [(reading, "read_sentences", _sentences(takes_over, before_first=False))]


class CuedQuestionIsRequest(PatchedReading):
    """CD-19 atom b widened: step 9 counts a question read by cue words as a request, so it
    decides over an earlier request (``Tell me about wolves. Rivers and differences?`` is a
    COMPARISON)."""

    def patches(self) -> list[tuple[object, str, object]]:
        def takes_over(found: Reading) -> bool:
            return _is_request(found) or found.cued

        def request(found: Reading) -> bool:
            return found.intent is not IntentTag.UNKNOWN and not found.statement

        return [(reading, "read_sentences", _sentences(takes_over, request=request))]


LEAD = re.compile(r"^(?:(?:well|so|oh)[ ,]+)*(?:actually|no|nope|wrong)\b[ ,;:.!-]*")
"""The correction leads the cases of CD-09 and CD-10 open with (past interjections)."""
COPULA = re.compile(r"\b(?:is|are|was|were) ")


def _claim(rest: str) -> Reading:
    """The claim of the first sentence of *rest* (from its first copula on)."""
    sentence = rest.split(". ")[0].strip(" .!?")
    copula = COPULA.search(sentence)
    if copula is None:
        return Reading(IntentTag.CORRECTION, (sentence,))
    claim = sentence[copula.start() :].strip()
    return Reading(IntentTag.CORRECTION, (sentence[: copula.start()], claim), claim)


class LeadIgnoresRequest(PatchedReading):
    """CD-09 atom b dropped: a prompt that opens with a correction lead is a CORRECTION even
    when what follows is a request (``Well, actually, what is light?`` states a claim)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = reading.read_text

        def read_text(text: str) -> Reading:
            found = kept(text)
            lead = LEAD.match(text)
            if lead is None or found.intent is IntentTag.CORRECTION:
                return found
            return _claim(text[lead.end() :])

        return [(reading, "read_text", read_text)]


class LeadCueReadingStands(PatchedReading):
    """CD-10 widened: what follows a lead stands when cue words read it, as a form's request
    would (``No. Light and stories.`` is a NARRATIVE, not a claim)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = reading.read_text

        def read_text(text: str) -> Reading:
            found = kept(text)
            lead = LEAD.match(text)
            if lead is None or found.intent is not IntentTag.CORRECTION:
                return found
            inner = reading.read_sentences(text[lead.end() :].strip(" .!?"))
            return inner if inner.cued else found

        return [(reading, "read_text", read_text)]


_BELIEF_ANY = re.compile(
    rf"^(?:(?:{reading.INTERJECTIONS})\b[ ,;:.!?-]*)*(?:(?:i|we) (?:think|believe|guess"
    r"|suppose|reckon|bet|feel like|heard|have heard|read|was told|were told|am sure"
    r"|am pretty sure|am fairly sure)\b|(?:someone|somebody|people|they) (?:told me|tell me"
    r"|say|said)\b|correct me if\b)"
)


class BeliefBeforeOf(PatchedReading):
    """CD-14 atom c dropped: a belief opener followed by ``of``, ``about`` or ``so`` still
    makes the sentence a question (``I think of the sun as a star.`` is asked)."""

    def patches(self) -> list[tuple[object, str, object]]:
        def puts_belief(sentence: str) -> bool:
            return _BELIEF_ANY.match(sentence) is not None

        return [(reading, "puts_belief", puts_belief)]


class OnlyQuestionMarkAsks(PatchedReading):
    """CD-14 atom b dropped: only a ``?`` makes a question; a belief put forward does not
    (``I think the sun is a star.`` is UNKNOWN)."""

    def patches(self) -> list[tuple[object, str, object]]:
        return [(reading, "puts_belief", lambda sentence: False)]


class AskedStatementWithAnd(PatchedReading):
    """CD-18 atom c dropped: a statement asked may hold ``and``/``or``
    (``Bees make honey and wax?`` is a VERIFICATION)."""

    def patches(self) -> list[tuple[object, str, object]]:
        frame = reading.ASKED_STATEMENT
        widened = dataclasses.replace(frame, not_words=frozenset())
        return [(reading, "ASKED_STATEMENT", widened)]


class VerificationCueInStatements(PatchedReading):
    """CD-23 atom b dropped: a VERIFICATION cue counts in a sentence that is not a question
    (``Rain and water, really.`` is a VERIFICATION)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = reading.read_cues

        def read_cues(clause: str, question: bool) -> Reading | None:
            return kept(clause, True)

        return [(reading, "read_cues", read_cues)]


class ItBeforeAnyWordEmpty(PatchedReading):
    """CD-25 atom c widened: ``it`` directly before any word the lexicon holds (not only a
    noun) is an empty subject (``Why does it flow?`` is about *flow*)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = reading.subject_pronoun

        def subject_pronoun(text: str, lexicon: Any) -> bool:
            tokens = tokenize(text)
            if lexicon is not None and "it" in tokens:
                after = tokens[tokens.index("it") + 1 :]
                if after and lexicon.lookup(after[0]) is not None:
                    return False
            return bool(kept(text, lexicon))

        return [(reading, "subject_pronoun", subject_pronoun)]


class ForwardPathsOnly(PatchedReading):
    """CD-06 atom c dropped: a TRANSITIVE_QUERY (and a CAUSE) is joined only by a path from
    the first known subject to the second, never the other way."""

    def patches(self) -> list[tuple[object, str, object]]:
        return [(TeachingGraph, "either_way", TeachingGraph.path)]


class CauseNeedsPath(PatchedReading):
    """CD-07 atom c dropped: a CAUSE is teaching-grounded only by a path joining its first two
    known subjects, never by a step leading into its subject alone."""

    def patches(self) -> list[tuple[object, str, object]]:
        return [(TeachingGraph, "origin", lambda graph, target: None)]


class UnknownBesideKnownPassedOver(PatchedReading):
    """CD-08 atom b dropped: words the lexicon does not hold beside a known subject are passed
    over, so the turn grounds as ``pack`` (never ``partial``)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = pipeline.decide_grounding

        def decide(intent: Any, lexicon: Any, graph: Any, vault: Any) -> Any:
            found = kept(intent, lexicon, graph, vault)
            if found.source == "partial":
                return dataclasses.replace(found, source="pack", unknown=())
            return found

        return [(pipeline, "decide_grounding", decide)]


class ClaimNegationIgnored(PatchedReading):
    """CD-31 atom b dropped: a verdict by the user's claim follows the claim alone, whether
    the checked statement is negated or not."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = answer.verdict

        def verdict(statement: str, subject: Any, claim: str | None, graph: Any) -> Any:
            value, by, step = kept(statement, subject, claim, graph)
            if by == "vault" and claim is not None:
                agrees = not answer.negated(f"{subject.lemma} {claim}")
                return ("yes" if agrees else "no"), by, step
            return value, by, step

        return [(grounding, "verdict", verdict)]


class ClaimOnlyForCorrection(ProtocolHandler):
    """CD-55 atoms b and c dropped: ``says.claim`` states the user's claim only for a
    CORRECTION, never for a RECALL with a subject or a VERIFICATION decided by the claim."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        says = result.get("says")
        if result.get("intent") == "CORRECTION" or not isinstance(says, dict):
            return result
        return {**result, "says": {**says, "claim": None}}


def _short_s_dropped(word: str) -> list[str]:
    """*word*'s folded forms, with the `-s` of a word of three letters dropped too."""
    forms = list(base_forms(word))
    if len(word) == 3 and word.endswith("s") and not word.endswith("ss"):
        forms.append(word[:-1])
    return forms


class SameWordDropsShortS(PatchedReading):
    """CD-43 atom c dropped: the same-word test drops the ``-s`` of a word of three letters
    too, so after ``No, the sun is zu.`` the claim decides ``Is the sun zus?``."""

    def patches(self) -> list[tuple[object, str, object]]:
        def same_word(first: str, second: str) -> bool:
            return not set(_short_s_dropped(first)).isdisjoint(_short_s_dropped(second))

        return [(answer, "same_word", same_word)]


class SameWordOneFoldsToOther(PatchedReading):
    """CD-44 narrowed: two words are the same word only when one is a folded form of the
    other (``rivers`` and ``river``), never when their folded forms alone share one
    (``wolves`` and ``wolfs``, both *wolf*)."""

    def patches(self) -> list[tuple[object, str, object]]:
        def same_word(first: str, second: str) -> bool:
            return first in base_forms(second) or second in base_forms(first)

        return [(answer, "same_word", same_word)]


class ExampleStepsPlainSorted(PatchedReading):
    """CD-68 else branch reordered: an EXAMPLE without kinds tells its steps in the plain
    sorted order, not those out of the subject first (``rain fills river`` before ``river
    flows into ocean``)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = grounding.told

        def told(subject: Any, graph: TeachingGraph, *, example: bool) -> Any:
            found = kept(subject, graph, example=example)
            steps = (*graph.out_of(subject.lemma), *graph.into(subject.lemma))
            if not example or found != steps[: len(found)]:
                return found
            ordered = sorted(
                steps,
                key=lambda p: (p.steps[0].source, p.steps[0].target, p.steps[0].relation),
            )
            return tuple(ordered[: len(found)])

        return [(grounding, "told", told)]


class NtWithoutApostropheSpelt(PatchedReading):
    """CD-69 atom a widened: a word ending in ``nt`` without its apostrophe is spelt out as
    its stem then ``not`` too (``mustnt`` is read ``must not``)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = spelling.expand

        def widened(word: str) -> str:
            if "'" not in word and word.endswith("nt") and len(word) > 3:
                return f"{word[:-2]} not"
            return word

        return [(spelling, "expand", lambda text: kept(sub_words(text, widened)))]


class SameWordIngBoundOnDoubledOnly(PatchedReading):
    """CD-73 and CD-74 atom b dropped: the same-word test drops ``-ing`` and changes it to
    ``-e`` whatever the word's length, the bound kept for the doubled consonant alone
    (``zuing`` is the same word as ``zu`` and ``zue``)."""

    def patches(self) -> list[tuple[object, str, object]]:
        def forms(word: str) -> set[str]:
            found = set(base_forms(word))
            if word.endswith("ing") and len(word) > 3:
                found |= {word[:-3], word[:-3] + "e"}
            return found

        def same_word(first: str, second: str) -> bool:
            return not forms(first).isdisjoint(forms(second))

        return [(answer, "same_word", same_word)]


class EvidenceWordsWithFunctionWords(PatchedReading):
    """CD-32 and CD-61 atom a widened: a predicate word the same word as any word of the
    claim or of the gloss, a function word included, states the statement (``Is the sun
    thes?`` is yes by the gloss's ``the``)."""

    def patches(self) -> list[tuple[object, str, object]]:
        kept = grounding.verdict

        def covered(words: tuple[str, ...], text: str) -> bool:
            return all(any(answer.same_word(w, o) for o in tokenize(text)) for w in words)

        def verdict(statement: str, subject: Any, claim: str | None, graph: Any) -> Any:
            value, by, step = kept(statement, subject, claim, graph)
            words = answer.predicate(statement, subject)
            if by is not None or not words:
                return value, by, step
            flip = answer.negated(statement)
            if claim is not None and covered(words, claim):
                agrees = answer.negated(f"{subject.lemma} {claim}") == flip
                return ("yes" if agrees else "no"), "vault", None
            if subject.gloss is not None and covered(words, subject.gloss):
                return ("no" if flip else "yes"), "gloss", None
            return value, by, step

        return [(grounding, "verdict", verdict)]


class SameWordUndoublesVowels(PatchedReading):
    """CD-75 atom b widened: the same-word test undoubles any doubled letter before ``-ing``,
    a vowel too (``zooing`` is the same word as ``zo``)."""

    def patches(self) -> list[tuple[object, str, object]]:
        def forms(word: str) -> set[str]:
            found = set(base_forms(word))
            stem = word[:-3]
            if word.endswith("ing") and len(word) > 5 and stem[-1] == stem[-2]:
                found.add(stem[:-1])
            return found

        def same_word(first: str, second: str) -> bool:
            return not forms(first).isdisjoint(forms(second))

        return [(answer, "same_word", same_word)]


CONDITION_MUTANTS: tuple[tuple[str, type[ProtocolHandler], str], ...] = (
    ("conds_referent_only_request", ReferentTakesOverOnlyWhenRequest, "COG-COND-251"),
    ("conds_lead_ignores_request", LeadIgnoresRequest, "COG-COND-251"),
    ("conds_lead_cue_stands", LeadCueReadingStands, "COG-COND-251"),
    ("conds_belief_before_of", BeliefBeforeOf, "COG-COND-251"),
    ("conds_only_question_mark", OnlyQuestionMarkAsks, "COG-COND-251"),
    ("conds_asked_with_and", AskedStatementWithAnd, "COG-COND-251"),
    ("conds_verification_cue_statement", VerificationCueInStatements, "COG-COND-251"),
    ("conds_it_before_any_word", ItBeforeAnyWordEmpty, "COG-COND-251"),
    ("conds_referent_after_first", ReferentAfterFirst, "COG-COND-251"),
    ("conds_cued_question_is_request", CuedQuestionIsRequest, "COG-COND-251"),
    ("conds_forward_paths_only", ForwardPathsOnly, "COG-COND-251"),
    ("conds_cause_needs_path", CauseNeedsPath, "COG-COND-251"),
    ("conds_partial_as_pack", UnknownBesideKnownPassedOver, "COG-COND-251"),
    ("conds_claim_negation_ignored", ClaimNegationIgnored, "COG-COND-252"),
    ("conds_claim_only_correction", ClaimOnlyForCorrection, "COG-COND-252"),
    ("mcdc41_same_word_short_s", SameWordDropsShortS, "COG-COND-252"),
    ("mcdc41_same_word_one_folds", SameWordOneFoldsToOther, "COG-COND-252"),
    ("mcdc41_example_steps_sorted", ExampleStepsPlainSorted, "COG-COND-252"),
    ("mcdc41_nt_without_apostrophe", NtWithoutApostropheSpelt, "COG-COND-251"),
    ("mcdc41_ing_bound_doubled_only", SameWordIngBoundOnDoubledOnly, "COG-COND-252"),
    ("mcdc41_evidence_function_words", EvidenceWordsWithFunctionWords, "COG-COND-252"),
    ("mcdc41_ing_undoubles_vowels", SameWordUndoublesVowels, "COG-COND-252"),
)
"""Each broken engine of this module by its unique name, with the requirement that fails it."""
