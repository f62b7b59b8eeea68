"""A deterministic partition of a certification into shards, balanced by earlier durations.

Every shard of a run computes the same partition from the same inputs (the selected
requirement ids, the shard count, the durations of an earlier report), so ``--shard
K/N`` on N machines covers each requirement exactly once. A requirement scaled by
kills is not given to one shard: every shard runs its own window (an N-th) of the
requirement's one derandomized example sequence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from conformance.inputs import InputFileError, display, read_input

DEFAULT_MS = 1_000
"""Assumed duration of a requirement no earlier report timed."""
_SHARD = re.compile(r"([1-9][0-9]*)/([1-9][0-9]*)")


class ShardError(ValueError):
    """A bad ``K/N`` shard spec or an unreadable durations report."""


@dataclass(frozen=True)
class Shard:
    """Shard *index* (1-based) of *count*."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = _SHARD.fullmatch(text.strip())
        if not match:
            raise ShardError(f"--shard: {text!r} is not K/N with 1 <= K <= N")
        index, count = int(match[1]), int(match[2])
        if index > count:
            raise ShardError(f"--shard: {text!r} is not K/N with 1 <= K <= N")
        return cls(index, count)

    def as_dict(self) -> dict[str, int]:
        return {"index": self.index, "count": self.count}


def load_durations(path: str | Path) -> dict[str, int]:
    """Requirement id -> duration_ms from an earlier report.json (``--durations-from``)."""
    try:
        report = read_input(path, "--durations-from", "a report.json")
    except InputFileError as exc:
        raise ShardError(str(exc)) from None
    rows = report.get("results")
    good = isinstance(rows, list) and all(
        isinstance(r, dict)
        and isinstance(r.get("id"), str)
        and type(r.get("duration_ms")) is int
        and r["duration_ms"] >= 0
        for r in rows
    )
    if not good:
        raise ShardError(
            f"--durations-from {display(path)}: not a report.json "
            "(results must be a list of {id, duration_ms} objects)"
        )
    return {r["id"]: r["duration_ms"] for r in rows}


def longest_first(ids: list[str], durations: dict[str, int]) -> list[str]:
    """*ids* by decreasing earlier duration, ties by id."""
    return sorted(ids, key=lambda i: (-durations.get(i, DEFAULT_MS), i))


def partition(ids: list[str], count: int, durations: dict[str, int]) -> list[list[str]]:
    """*ids* split into *count* parts of near-equal total duration (longest first, greedy).

    Each part keeps the order of *ids*; a part may be empty when there are more
    shards than requirements.
    """
    loads = [0] * count
    parts: list[set[str]] = [set() for _ in range(count)]
    for req_id in longest_first(ids, durations):
        lightest = min(range(count), key=lambda k: (loads[k], k))
        parts[lightest].add(req_id)
        loads[lightest] += durations.get(req_id, DEFAULT_MS)
    return [[i for i in ids if i in part] for part in parts]


def shard_ids(ids: list[str], shard: Shard, durations: dict[str, int]) -> list[str]:
    """The ids shard *shard* runs."""
    return partition(ids, shard.count, durations)[shard.index - 1]


def window(total: int, shard: Shard) -> tuple[int, int]:
    """Shard *shard*'s slice [start, stop) of a requirement's *total* examples."""
    return total * (shard.index - 1) // shard.count, total * shard.index // shard.count
