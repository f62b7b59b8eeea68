"""``pytest -n auto`` gives the cognition lane the same verdicts and bytes as a serial run."""

from __future__ import annotations

import re
import subprocess
import sys

from lanes._support.cognition import ROOT
from lanes._support.golden import tree_digest

FILES = ["lanes/cognition/test_golden_snapshots.py", "lanes/cognition/test_golden_invariants.py"]


def _verdicts(*extra: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *FILES, "-q", "-rA", "-p", "no:cacheprovider", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    found = re.findall(r"^(PASSED|FAILED|ERROR|SKIPPED) (\S+)", done.stdout, flags=re.M)
    return {node: verdict for verdict, node in found}


def test_serial_and_parallel_runs_agree_and_write_nothing():
    before = tree_digest()
    serial = _verdicts("-p", "no:xdist")
    parallel = _verdicts("-n", "2")
    assert serial and serial == parallel
    assert tree_digest() == before
