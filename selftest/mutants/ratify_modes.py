"""Ratify wrong about the permission bits of the pair it writes (docs/registers.md § Atomic
commit of the pair, step 2). ``LOAD-MODE-001`` fails on each.

Each is the reference's ratify followed by the mistaken port's mode on the files written:
the pack's mode for both, 0644 for both, or the mode a plain create under the process's
umask gives.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.registers import Ratifier
from reference.registers.model import RegisterPack
from reference.registers.seal import report_path_for
from reference.serve import ProtocolHandler


def _mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


ModeRule = Callable[[int | None, int], int]
"""The mode a mistaken port gives a file: from the file's own mode before the ratify (None:
it is new) and the pack's."""


class _Remoding(Ratifier):
    """Writes the pair as the reference does, then gives each file the mode *rule* says."""

    def __init__(self, rule: ModeRule) -> None:
        super().__init__()
        self.rule = rule

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        pack_before = _mode(path) or 0o644
        report_before = _mode(report_path_for(path))
        super().write_sealed(path, pack, report)
        path.chmod(self.rule(pack_before, pack_before))
        report_path_for(path).chmod(self.rule(report_before, pack_before))


class RatifyReportTakesPackMode(ProtocolHandler):
    """Both files of the ratified pair get the pack's permission bits."""

    ratifier = _Remoding(lambda before, pack_mode: pack_mode)


class RatifyModesReset(ProtocolHandler):
    """Both files of the ratified pair get 0644, whatever bits they had."""

    ratifier = _Remoding(lambda before, pack_mode: 0o644)


class RatifyNewReportUmasked(ProtocolHandler):
    """A new report is created with the mode the process's umask leaves, not 0644."""

    ratifier = _Remoding(
        lambda before, pack_mode: (0o666 & ~_umask()) if before is None else before
    )
