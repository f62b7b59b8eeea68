"""What an answer rests on beyond its grounding: a VERIFICATION's verdict, and the teaching
steps a NARRATIVE or an EXAMPLE tells (docs/intents.md § Answers).

A verdict is ``yes``, ``no`` or ``unknown``, decided by the first evidence that states the
checked statement: the user's latest claim about the subject, a teaching step out of (or,
for a kind, into) the subject, then the subject's gloss. Packs state no negatives, so a
``no`` comes from a claim of the user's or from a negated statement a pack states.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference.lexicon import Lemma, base_forms
from reference.truth.teaching import TeachingGraph, TeachingPath
from reference.truth.text import content_terms, tokenize

NEGATIONS = frozenset({"not", "never", "no"})
KIND_INTO = frozenset({"includes"})
"""A step ``Y includes X`` states that X is a Y."""
KIND_OUT = frozenset({"is a form of"})
"""A step ``X is a form of Y`` states that X is a Y."""
TOLD = 3
"""At most this many teaching steps are told by a NARRATIVE or an EXAMPLE."""


@dataclass(frozen=True)
class Answer:
    """A verdict (``yes``/``no``/``unknown``), what decided it (``vault``, ``teaching``,
    ``gloss`` or None), the statement checked, and the teaching steps told."""

    verdict: str | None
    by: str | None
    checked: str | None
    told: tuple[TeachingPath, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "by": self.by,
            "checked": self.checked,
            "told": [step for path in self.told for step in path.as_json()],
            "verdict": self.verdict,
        }


def same_word(first: str, second: str) -> bool:
    """Whether two words share a form under plural folding (``hunts`` and ``hunt``)."""
    return not set(base_forms(first)).isdisjoint(base_forms(second))


def _covered(words: tuple[str, ...], by: tuple[str, ...]) -> bool:
    return all(any(same_word(word, other) for other in by) for word in words)


def _words(text: str) -> tuple[str, ...]:
    return content_terms(tokenize(text))


def negated(statement: str) -> bool:
    """Whether *statement* says ``not``, ``never`` or ``no`` after its first word (a first
    ``not`` only makes a negative question: ``is not the sun a star``)."""
    return any(word in NEGATIONS for word in tokenize(statement)[1:])


def predicate(statement: str, subject: Lemma) -> tuple[str, ...]:
    """The content words of *statement* other than those naming *subject*."""
    return tuple(w for w in _words(statement) if not same_word(w, subject.lemma))


def _states(step: TeachingPath, words: tuple[str, ...], subject: str) -> bool:
    only = step.steps[0]
    if only.source == subject:
        relation = _words(only.relation)
        if only.relation in KIND_OUT and _covered(words, (only.target,)):
            return True
        mentioned = any(same_word(word, only.target) for word in words)
        return mentioned and _covered(relation, words) and _covered(words, (only.target, *relation))
    return only.relation in KIND_INTO and _covered(words, (only.source,))


def stating_step(
    words: tuple[str, ...], subject: Lemma, graph: TeachingGraph
) -> TeachingPath | None:
    """The first teaching step that states the predicate *words* of *subject*: out of the
    subject to a lemma the words name, every content word of its relation among them and
    every one of them the target or a content word of its relation; or a step that makes
    the subject a kind of what the words name (:data:`KIND_INTO`, :data:`KIND_OUT`)."""
    if not words:
        return None
    for step in (*graph.out_of(subject.lemma), *graph.into(subject.lemma)):
        if _states(step, words, subject.lemma):
            return step
    return None


def verdict(
    statement: str, subject: Lemma, claim: str | None, graph: TeachingGraph
) -> tuple[str, str | None, TeachingPath | None]:
    """The verdict on *statement* about *subject*, what decided it, and the deciding step."""
    words = predicate(statement, subject)
    flip = negated(statement)
    if not words:
        return "unknown", None, None
    if claim is not None and _covered(words, _words(claim)):
        agrees = negated(f"{subject.lemma} {claim}") == flip
        return ("yes" if agrees else "no"), "vault", None
    step = stating_step(words, subject, graph)
    if step is not None:
        return ("no" if flip else "yes"), "teaching", step
    if subject.gloss is not None and _covered(words, _words(subject.gloss)):
        return ("no" if flip else "yes"), "gloss", None
    return "unknown", None, None


def told(subject: Lemma, graph: TeachingGraph, *, example: bool) -> tuple[TeachingPath, ...]:
    """The steps an account tells: out of the subject, then into it; for an EXAMPLE, the
    steps that make something a kind of the subject first."""
    out, into = graph.out_of(subject.lemma), graph.into(subject.lemma)
    if example:
        kinds = tuple(s for s in out if s.steps[0].relation in KIND_INTO) + tuple(
            s for s in into if s.steps[0].relation in KIND_OUT
        )
        if kinds:
            return kinds[:TOLD]
    return (*out, *into)[:TOLD]
