"""Broken engines for the survivors of the truth path's mutation run (issue 26): each breaks
one sentence of docs/intents.md that no case held at its edge before."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from reference.runtime import ChatRuntime
from reference.runtime import chat as chat_module
from reference.serve import ProtocolHandler
from reference.truth import answer, teaching
from reference.truth.text import tokenize


@contextmanager
def _says_from(change: Any) -> Iterator[None]:
    """``says`` computed from the sealed record content as *change* alters it."""
    kept = getattr(chat_module, "says")  # noqa: B009
    setattr(chat_module, "says", lambda content: kept(change(content)))  # noqa: B010
    try:
        yield
    finally:
        setattr(chat_module, "says", kept)  # noqa: B010


def _last_two(content: Mapping[str, Any]) -> Mapping[str, Any]:
    return {**content, "grounded": list(content["grounded"])[-2:]}


class LastTwoKnownSubjects(ProtocolHandler):
    """A COMPARISON, FRAME_TRANSFER or TRANSITIVE_QUERY of three known subjects states its
    ``compared``, ``spans`` and ``way`` over the last two known subjects, not the first two."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _says_from(_last_two):
            return super().chat(runtime, text)


def _known_subject(content: Mapping[str, Any]) -> Mapping[str, Any]:
    grounded = list(content["grounded"])
    if content["intent"] != "PROCEDURE" or not grounded:
        return content
    return {**content, "subject": grounded[0]["lemma"]}


class StartFromAnyKnownLemma(ProtocolHandler):
    """A PROCEDURE whose subject the lexicon does not know still states ``start``: the first
    two domains of the first known lemma of the turn."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _says_from(_known_subject):
            return super().chat(runtime, text)


class KindOutIgnored(ProtocolHandler):
    """A step ``X is a form of Y`` out of the subject states only what its words state: it
    never makes the subject a kind of Y (only ``Y includes X`` into it does)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = answer.KIND_OUT
        answer.KIND_OUT = frozenset()
        try:
            return super().chat(runtime, text)
        finally:
            answer.KIND_OUT = kept


class NegationFromThirdWord(ProtocolHandler):
    """A statement is negated only by ``not``, ``never`` or ``no`` from its third word on: a
    negation right after the first word (``sun not a star``, a claim ``never comes from``
    after its subject) is missed."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = answer.negated
        answer.negated = lambda statement: any(
            word in answer.NEGATIONS for word in tokenize(statement)[2:]
        )
        try:
            return super().chat(runtime, text)
        finally:
            answer.negated = kept


def _stops_at_visited(graph: teaching.TeachingGraph, source: str, target: str) -> Any:
    """Breadth first over the sorted steps, but a node's remaining steps are dropped at the
    first step back to a lemma already reached (or to the source)."""
    if source == target:
        return None
    previous: dict[str, teaching.TeachingPath] = {}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for step in graph.out_of(node):
            reached = step.steps[0].target
            if reached in previous or reached == source:
                break
            previous[reached] = step
            if reached == target:
                steps: list[Any] = []
                chains: list[str] = []
                at = target
                while at != source:
                    one = previous[at]
                    steps.insert(0, one.steps[0])
                    chains.insert(0, one.chain_ids[0])
                    at = one.steps[0].source
                return teaching.TeachingPath(tuple(steps), tuple(chains))
            queue.append(reached)
    return None


class PathSearchStopsAtVisited(ProtocolHandler):
    """The path search drops the rest of a lemma's steps once one leads back to a lemma
    already reached: the shortest path from *root* to *tree* (past ``seed puts down root``)
    is never found."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = teaching.TeachingGraph.path
        setattr(teaching.TeachingGraph, "path", _stops_at_visited)  # noqa: B010
        try:
            return super().chat(runtime, text)
        finally:
            setattr(teaching.TeachingGraph, "path", kept)  # noqa: B010


def _any_source(content: Mapping[str, Any]) -> Mapping[str, Any]:
    if not content["unknown"] or content["grounding_source"] in ("partial", "oov"):
        return content
    return {**content, "grounding_source": "partial"}


class UnknownNamedWhateverGrounds(ProtocolHandler):
    """``says.unknown`` lists the words not grounded whatever grounds the turn, also when
    teaching or the vault grounds it (only a ``partial`` or ``oov`` turn names them)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _says_from(_any_source):
            return super().chat(runtime, text)
