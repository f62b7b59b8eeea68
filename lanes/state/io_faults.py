"""Fail chosen OS calls of the state store in-process, as a failing disk would.

``FailingOS`` stands in for the ``os`` module that ``reference.state.fsops`` (and the lock)
call: each rule fails the calls of one function whose target path matches, with an
errno, a number of times in a row; a ``write`` rule may first write part of its bytes
(a short write, as a disk that fills up mid-call gives). The target of a call on a
descriptor is the path ``/proc/self/fd`` names.
"""

from __future__ import annotations

import errno as errnos
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

FD_CALLS = {"write", "fsync", "close", "ftruncate", "fchmod", "pwrite"}


def fd_path(fd: int) -> str:
    """The path a descriptor is open on (empty when it has none)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


@dataclass
class Rule:
    """Fail *times* calls of ``os.<call>`` whose path ends with *suffix*, after *skip*."""

    call: str
    suffix: str
    code: int = errnos.EIO
    times: int = 1
    skip: int = 0
    short: bool = False
    failed: list[str] = field(default_factory=list)

    def matches(self, path: str) -> bool:
        return path.endswith(self.suffix)


class FailingOS:
    """An ``os`` module whose calls fail where the rules say."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules

    def __getattr__(self, name: str) -> Any:
        real = getattr(os, name)
        rules = [rule for rule in self.rules if rule.call == name]
        if not rules or not callable(real):
            return real
        return self._wrapped(name, real, rules)

    def _wrapped(self, name: str, real: Callable[..., Any], rules: list[Rule]) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            target = fd_path(args[0]) if name in FD_CALLS else str(args[0])
            if name == "rename":
                target = str(args[1])
            for rule in rules:
                if not rule.matches(target) or rule.times <= len(rule.failed):
                    continue
                if rule.skip:
                    rule.skip -= 1
                    continue
                rule.failed.append(target)
                if name == "close":
                    real(*args, **kwargs)
                if rule.short and name == "write" and len(args[1]) > 1:
                    real(args[0], bytes(args[1])[: len(args[1]) // 2])
                raise OSError(rule.code, os.strerror(rule.code))
            return real(*args, **kwargs)

        return call


@contextmanager
def failing(*rules: Rule) -> Iterator[list[Rule]]:
    """Within the block, the state store's OS calls fail as *rules* say."""
    fake = FailingOS(list(rules))
    with (
        mock.patch("reference.state.fsops.os", fake),
        mock.patch("reference.state.lock.os", fake),
    ):
        yield list(rules)
