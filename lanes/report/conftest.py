"""Shared fixtures of the report lane: one small comparison, run once per test session.

The reference (in-process) and a broken engine that flips the product's sign
(``selftest.engines:FlippedProductSign``) are compared on two requirements with a few
examples: the matrix has a pass, a failure with its counterexample, and a disagreement.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main

ENGINES = ("reference.serve:ProtocolHandler", "selftest.engines:FlippedProductSign")
IDS = ("ALG-TABLE-001", "PROTO-FORK-001")


def compare_args(report: Path, *more: str) -> list[str]:
    """``compare`` over ENGINES and IDS with 3 examples each, writing under *report*."""
    args = ["compare", "--report", str(report), "--examples", "3", "-n", "1"]
    for factory in ENGINES:
        args += ["--engine-python", factory]
    for req_id in IDS:
        args += ["--id", req_id]
    return [*args, *more]


@pytest.fixture(scope="session")
def compared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A compare directory (one report directory per engine) and its page, ``page.html``."""
    root = tmp_path_factory.mktemp("compare")
    status = main(compare_args(root / "runs", "--html", str(root / "page.html")))
    assert status == 1, "the flipped sign fails ALG-TABLE-001: the comparison is not certified"
    return root
