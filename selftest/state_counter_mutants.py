"""Broken engines that order the numbers they continue as text, as JavaScript's default
``sort`` does: both agree with the docs below ten. ``STATE-COUNT-001`` fails on each.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import layout, lineage


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
