"""Broken engines that misread the numbers of generations and boots. Two order them as
text, as JavaScript's default ``sort`` does, and agree with the docs below ten
(``STATE-COUNT-001`` fails on each); one counts a name that only looks like a generation
when no generation is beside it (``STATE-NAMES-804`` fails).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import layout, lineage, loader


def _as_text(numbers: Iterable[int], **_: Any) -> list[int]:
    return sorted(numbers, key=str)


def _highest_as_text(numbers: Iterable[int], default: int = 0) -> int:
    return max(numbers, key=str, default=default)


class GenerationsAsText(ProtocolHandler):
    """Generation numbers are sorted as text: beside 9, generation 10 is the older."""

    def handle(self, request: object) -> dict[str, Any]:
        with mock.patch.object(layout, "sorted", _as_text, create=True):
            return super().handle(request)


class BootsAsText(ProtocolHandler):
    """The highest recorded boot is found as text: after boots 1 to 10, boot 10 again."""

    def handle(self, request: object) -> dict[str, Any]:
        with mock.patch.object(lineage, "max", _highest_as_text, create=True):
            return super().handle(request)


_generations = layout.generations


def _counting_lookalikes(names: Iterable[str]) -> list[int]:
    """The generations among *names*; when there are none, a name that looks like one
    (``gen`` in any case, then anything) counts as generation 0."""
    names = list(names)
    found = _generations(names)
    if found or not any(name.lower().startswith("gen") for name in names):
        return found
    return [0]


class LookalikeAloneNotFresh(ProtocolHandler):
    """A directory whose only entry looks like a generation (``gen-00000000``, ``GEN-``...)
    is taken to hold generations: its open falls back, finds none and refuses."""

    def handle(self, request: object) -> dict[str, Any]:
        with mock.patch.object(loader, "generations", _counting_lookalikes):
            return super().handle(request)
