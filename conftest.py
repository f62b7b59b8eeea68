"""Test configuration for lanes and the self-test: Hypothesis profiles, ratified snapshots."""

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``long`` first, the rest in their order: under ``--dist worksteal`` the
    short tests fill the end of a parallel run, not one long test on one core."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Add to every failure the one command that reruns it (same profile, same seed)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
        command = f"HYPOTHESIS_PROFILE={profile} python -m pytest -p no:xdist '{item.nodeid}'"
        report.sections.append(("reproduce", command))
