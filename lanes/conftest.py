"""Shared lane configuration: Hypothesis profiles."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """Refuse a bare ``--snapshot-update``: golden snapshots change only by ratification."""
    if getattr(config.option, "update_snapshots", False) and not os.environ.get(
        "CORE_GOLDEN_RATIFY"
    ):
        raise pytest.UsageError(
            "golden snapshots change only through a ratification: "
            "nox -s golden -- --ratify ID --reason TEXT (see docs/golden.md)"
        )
