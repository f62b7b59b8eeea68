"""Shrink a failing fixed scenario (a coverage-plan case) as Hypothesis shrinks a generated
one: drop list items (a script's turns) first, then words of strings (a prompt's), keeping
each smaller scenario that still fails the same check. A labeled case (an object with an
``id``: a catalogue case, whose labels hold for its turns as written) is dropped whole or
kept whole, never cut inside: a shorter prompt under the same labels is no case of the docs.

A coverage case is plain JSON, not drawn by a strategy, so Hypothesis cannot shrink it.
:func:`shrink` tries candidates greedily, largest cut first (half of a list, then a
quarter... then one item), and restarts from each accepted one; a candidate that passes,
fails another check or breaks the check's own reading of the scenario is dropped. At most
:data:`MAX_RUNS` candidates are run, so a slow engine pays a bounded price once, and the
replay of what it reports is as short as was found.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

MAX_RUNS = 64
"""Candidates run per shrunk failure."""

Path = tuple[int | str, ...]
Fails = Callable[[Any], bool]
"""Runs a candidate; whether it fails the same check as the original."""


def labeled(value: Any) -> bool:
    """Whether *value* is a labeled case: an object with an ``id`` member."""
    return isinstance(value, dict) and "id" in value


def _lists(value: Any, path: Path = ()) -> Iterator[tuple[Path, list[Any]]]:
    if isinstance(value, list):
        yield path, value
        for index, item in enumerate(value):
            yield from _lists(item, (*path, index))
    elif isinstance(value, dict) and not labeled(value):
        for key, item in value.items():
            yield from _lists(item, (*path, key))


def _strings(value: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))
    elif isinstance(value, dict) and not labeled(value):
        for key, item in value.items():
            yield from _strings(item, (*path, key))


def _replaced(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    changed = copy.copy(value)
    changed[path[0]] = _replaced(value[path[0]], path[1:], new)
    return changed


def _cuts(items: list[Any]) -> Iterator[list[Any]]:
    """*items* with a run of them left out: halves first, down to single items."""
    size = len(items) // 2
    while size >= 1:
        for start in range(0, len(items), size):
            yield items[:start] + items[start + size :]
        size //= 2


def _word_cuts(text: str) -> Iterator[str]:
    words = text.split(" ")
    if len(words) < 2:
        return
    for index in range(len(words)):
        yield " ".join(words[:index] + words[index + 1 :])


def candidates(scenario: Any) -> Iterator[Any]:
    """Smaller scenarios: list items dropped (longest lists first), then words of strings."""
    lists = sorted(_lists(scenario), key=lambda found: -len(found[1]))
    for path, items in lists:
        for cut in _cuts(items):
            yield _replaced(scenario, path, cut)
    for path, text in _strings(scenario):
        for shorter in _word_cuts(text):
            yield _replaced(scenario, path, shorter)


def shrink(scenario: Any, fails: Fails, max_runs: int = MAX_RUNS) -> tuple[Any, int]:
    """The smallest scenario found that still *fails*, and how many candidates ran."""
    runs = 0
    current = scenario
    progress = True
    while progress and runs < max_runs:
        progress = False
        for candidate in candidates(current):
            if runs >= max_runs:
                break
            runs += 1
            if fails(candidate):
                current, progress = candidate, True
                break
    return current, runs
