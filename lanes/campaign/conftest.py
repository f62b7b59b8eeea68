"""The campaign lane's shared plain run, the baseline every scaled run is compared with."""

from __future__ import annotations

from pathlib import Path

import pytest
from campaign_helpers import FAST, conformance, id_args


@pytest.fixture(scope="package")
def plain_run(tmp_path_factory) -> Path:
    """One plain certification (one engine process) of FAST and a short kill soak."""
    out = tmp_path_factory.mktemp("plain") / "report"
    done = conformance(
        "certify",
        "--quiet",
        "-n",
        "1",
        "--kills",
        "24",
        "--report",
        str(out),
        *id_args((*FAST, "STATE-KILL-001")),
    )
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]  # a subset: PARTIAL
    return out
