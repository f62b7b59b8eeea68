"""Run an engine process that file modes bind, even when the suite runs as root.

Root reads a mode-000 file through two capabilities, ``CAP_DAC_OVERRIDE`` and
``CAP_DAC_READ_SEARCH``. Under root the engine is started with both dropped from its
capability bounding set (``prctl(PR_CAPBSET_DROP)``, before ``exec``), so it stays uid 0
(its interpreter and files stay reachable) but a mode-000 file is unreadable to it. Run as
any other user, the engine already cannot read one, and is started as it is.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Iterator

from conformance.engines.base import Transcript
from conformance.engines.subprocess import SubprocessEngine

DROP = (
    "import ctypes, os, sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "for cap in (1, 2):\n"
    "    if libc.prctl(24, cap, 0, 0, 0) != 0:\n"
    "        sys.exit(f'cannot drop capability {cap}: errno {ctypes.get_errno()}')\n"
    "os.execvp(sys.argv[1], sys.argv[1:])\n"
)
TIMEOUT = 60.0


def command_bound_by_modes(command: list[str]) -> list[str]:
    """*command*, started without the capabilities that bypass file modes when under root."""
    if os.geteuid() != 0:
        return command
    return [sys.executable, "-c", DROP, *command]


@contextlib.contextmanager
def bound_by_modes(command: list[str], transcript: Transcript) -> Iterator[SubprocessEngine]:
    """An engine process of *command* that file modes bind; its exchanges go to *transcript*."""
    wrapped = shlex.join(command_bound_by_modes(command))
    engine = SubprocessEngine(wrapped, timeout=TIMEOUT, max_restarts=0)
    try:
        yield engine
    finally:
        engine.close()
        transcript.exchanges += engine.transcript.exchanges
