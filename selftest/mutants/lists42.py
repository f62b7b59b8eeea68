"""Broken engines for the relations of what an answer quotes and the path it tells
(docs/intents.md § What an answer says, as data; docs/spec.md § Cognition, grounding rule 4):
each is the reference with one method patched while it answers a turn."""

from __future__ import annotations

from typing import Any
from unittest import mock

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth.teaching import TeachingGraph, TeachingPath
from reference.truth.vault import Vault, VaultHit


def _latest_by_last_named(vault: Vault, count: int) -> tuple[VaultHit, ...]:
    said = [hit for hit in vault.hits() if hit.said]
    said.sort(key=lambda hit: -hit.last_turn)
    return tuple(said[:count])


class RecallOrderedByLastNamed(ProtocolHandler):
    """A RECALL without a subject draws on the lemmas a turn named last (a RECALL turn too),
    not on those something was said about last."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with mock.patch.object(Vault, "latest", _latest_by_last_named):
            return super().chat(runtime, text)


def _claims_first(said: list[dict[str, Any]]) -> list[dict[str, Any]]:
    latest = sorted(said, key=lambda quote: -quote["turn"])
    claims = [quote for quote in latest if quote["claim"] is not None]
    return [*claims, *(quote for quote in latest if quote["claim"] is None)]


class EveryClaimFirst(ProtocolHandler):
    """A RECALL quotes every claim before the other turns, not only the latest claim."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        says = result.get("says")
        if not isinstance(says, dict):
            return result
        return {**result, "says": {**says, "said": _claims_first(says["said"])}}


def _backward_first(graph: TeachingGraph, first: str, second: str) -> TeachingPath | None:
    return graph.path(second, first) or graph.path(first, second)


def _shorter_way(graph: TeachingGraph, first: str, second: str) -> TeachingPath | None:
    found = [p for p in (graph.path(first, second), graph.path(second, first)) if p]
    return min(found, key=lambda p: len(p.steps)) if found else None


class ShorterWayWins(ProtocolHandler):
    """Of the paths between two known subjects, the one of fewer steps is taken, so a path
    of one step back beats one of two steps forward (a port that searches both ways and
    keeps the shorter, as a blind porting mistake did)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with mock.patch.object(TeachingGraph, "either_way", _shorter_way):
            return super().chat(runtime, text)


class PathTriedBackwardFirst(ProtocolHandler):
    """A path between two known subjects is tried from the second to the first before from
    the first to the second."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with mock.patch.object(TeachingGraph, "either_way", _backward_first):
            return super().chat(runtime, text)
