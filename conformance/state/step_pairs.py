"""Check a trace of file operations against the pairs of events a documented protocol
orders: every operation of the earlier event before every operation of the later one.

A protocol (:class:`Protocol`) is plain data: its events, described, and its ordered pairs,
each with the sentence that orders it. A caller sorts a trace's operations into the
events (indices into the trace) and :func:`broken_pairs` names what breaks the order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Op = dict[str, Any]


@dataclass(frozen=True)
class Protocol:
    """A protocol's events (name -> what it is) and ordered pairs (earlier, later, why).

    An event in *grouped* is ordered against its later events within each top-level entry
    of the directory (a pruned generation's own files), not across entries."""

    where: str
    events: dict[str, str]
    pairs: tuple[tuple[str, str, str], ...]
    grouped: frozenset[str] = field(default_factory=frozenset)


def top(path: str) -> str:
    """The top-level entry of the directory that *path* is or is inside."""
    return path.split("/", 1)[0]


def first_after(ops: list[Op], after: list[int], kind: str, path: str) -> list[int]:
    """The first op of *kind* on *path* after every index of *after*, as a list (empty when
    *after* is, or when there is none): the one sync that makes those operations durable, so
    an extra sync elsewhere breaks no pair."""
    if not after:
        return []
    for index in range(max(after) + 1, len(ops)):
        if ops[index]["op"] == kind and ops[index].get("path") == path:
            return [index]
    return []


def describe(ops: list[Op], index: int) -> str:
    op = ops[index]
    where = op.get("path") or f"{op.get('src')} -> {op.get('dst')}"
    return f"op {index} ({op['op']} {where})"


def _groups(
    ops: list[Op], before: list[int], after: list[int], grouped: bool
) -> list[tuple[list[int], list[int]]]:
    if not grouped:
        return [(before, after)] if before and after else []
    tops = {top(ops[i]["path"]) for i in before}
    return [
        (firsts, lasts)
        for name in sorted(tops)
        if (firsts := [i for i in before if top(ops[i]["path"]) == name])
        and (lasts := [i for i in after if top(ops[i]["path"]) == name])
    ]


def broken_pairs(
    protocol: Protocol, ops: list[Op], found: dict[str, list[int]], needed: set[str]
) -> list[str]:
    """Each event of *needed* that *found* lacks, and each pair of *protocol* whose later
    event has an operation before one of its earlier event's."""
    problems = [
        f"no {protocol.events[name]}"
        for name in protocol.events
        if name in needed and not found.get(name)
    ]
    for before, after, sentence in protocol.pairs:
        grouped = before in protocol.grouped
        for firsts, lasts in _groups(ops, found.get(before, []), found.get(after, []), grouped):
            late, early = max(firsts), min(lasts)
            if early < late:
                problems.append(
                    f"{describe(ops, early)}, {protocol.events[after]}, comes before "
                    f"{describe(ops, late)}, {protocol.events[before]} ({protocol.where} "
                    f"{sentence})"
                )
    return problems
