"""Walk the teaching chains: a directed graph of curated lemma relations."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from reference.lexicon import TeachingChain, TeachingStep


@dataclass(frozen=True)
class TeachingPath:
    """Steps from one lemma to another, with the chain each step came from."""

    steps: tuple[TeachingStep, ...]
    chain_ids: tuple[str, ...]

    def as_json(self) -> list[dict[str, str]]:
        return [
            {"chain_id": chain_id, "from": s.source, "relation": s.relation, "to": s.target}
            for s, chain_id in zip(self.steps, self.chain_ids, strict=True)
        ]


class TeachingGraph:
    """Edges of every chain, searched breadth first in a fixed order."""

    def __init__(self, chains: tuple[TeachingChain, ...]) -> None:
        edges = sorted(
            ((step.source, step.target, step.relation, chain.chain_id), step)
            for chain in chains
            for step in chain.steps
        )
        self._out: dict[str, list[tuple[TeachingStep, str]]] = {}
        self._in: dict[str, list[tuple[TeachingStep, str]]] = {}
        for (_, _, _, chain_id), step in edges:
            self._out.setdefault(step.source, []).append((step, chain_id))
            self._in.setdefault(step.target, []).append((step, chain_id))

    def path(self, source: str, target: str) -> TeachingPath | None:
        """The shortest path from *source* to *target*; ties go to the sorted-first edge."""
        if source == target:
            return None
        previous: dict[str, tuple[TeachingStep, str]] = {}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            for step, chain_id in self._out.get(node, ()):
                if step.target in previous or step.target == source:
                    continue
                previous[step.target] = (step, chain_id)
                if step.target == target:
                    return self._unwind(previous, source, target)
                queue.append(step.target)
        return None

    def either_way(self, first: str, second: str) -> TeachingPath | None:
        """The shortest path from *first* to *second*, else from *second* to *first*."""
        return self.path(first, second) or self.path(second, first)

    def out_of(self, source: str) -> tuple[TeachingPath, ...]:
        """Every single step leading out of *source*, in sorted order."""
        return tuple(TeachingPath((s,), (c,)) for s, c in self._out.get(source, ()))

    def into(self, target: str) -> tuple[TeachingPath, ...]:
        """Every single step leading into *target*, in sorted order."""
        return tuple(TeachingPath((s,), (c,)) for s, c in self._in.get(target, ()))

    def origin(self, target: str) -> TeachingPath | None:
        """The sorted-first single step that leads into *target*, if any."""
        incoming = self._in.get(target)
        if not incoming:
            return None
        step, chain_id = incoming[0]
        return TeachingPath((step,), (chain_id,))

    @staticmethod
    def _unwind(
        previous: dict[str, tuple[TeachingStep, str]], source: str, target: str
    ) -> TeachingPath:
        steps: list[TeachingStep] = []
        chain_ids: list[str] = []
        node = target
        while node != source:
            step, chain_id = previous[node]
            steps.append(step)
            chain_ids.append(chain_id)
            node = step.source
        return TeachingPath(tuple(reversed(steps)), tuple(reversed(chain_ids)))


_GRAPHS: dict[int, tuple[tuple[TeachingChain, ...], TeachingGraph]] = {}


def teaching_graph(chains: tuple[TeachingChain, ...]) -> TeachingGraph:
    """The graph of *chains*, built once per chains tuple: a graph is never changed, so
    every session of a lexicon shares one."""
    kept = _GRAPHS.get(id(chains))
    if kept is None or kept[0] is not chains:
        kept = _GRAPHS[id(chains)] = (chains, TeachingGraph(chains))
    return kept[1]
