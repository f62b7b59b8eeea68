"""Helpers for the campaign lane: run ``python -m conformance`` and read its reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FAST = (
    "PROTO-HELLO-001",
    "PROTO-ERROR-001",
    "VAR-SELECT-002",
    "VAR-DECOR-002",
    "OVR-RESOLVE-001",
    "STATE-JOURNAL-001",
)
"""A few fast requirements from different families."""


def conformance(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``python -m conformance`` with *args*; capture its output."""
    command = [sys.executable, "-m", "conformance", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def read_report(directory: Path) -> dict:
    return json.loads((directory / "report.json").read_text(encoding="utf-8"))


def id_args(ids) -> list[str]:
    return [arg for req_id in ids for arg in ("--id", req_id)]
