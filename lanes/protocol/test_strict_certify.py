"""``certify --strict`` certifies the reference on every requirement that malforms a
request on purpose (docs/conformance.md: a request the suite malforms to see it refused is
sent as it is, so strict validation of the suite's own requests never refuses it).

The selection is cut to save time: every requirement whose module sends an unchecked
request (``checked=False``, directly or through ``conformance.session_model``), which
holds every deliberately bad request of the suite, STATE-APPLY-002's batch among them.
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

from conformance import cli
from conformance.requirements import REGISTRY
from selftest.reference_engine import REFERENCE_FACTORY


def sends_bad_requests(req_id: str) -> bool:
    """Whether *req_id*'s module sends a request unchecked (or runs session-model scripts)."""
    source = inspect.getsource(sys.modules[REGISTRY[req_id].check.__module__])
    return "checked=False" in source or "conformance.session_model" in source


def test_strict_certify_certifies_the_reference(tmp_path: Path) -> None:
    chosen = sorted(i for i in REGISTRY if sends_bad_requests(i))
    assert "STATE-APPLY-002" in chosen and "PROTO-ERROR-002" in chosen
    ids = [arg for i in chosen for arg in ("--id", i)]
    argv = ["certify", "--engine-python", REFERENCE_FACTORY, "--strict", "--quiet"]
    status = cli.main([*argv, "--report", str(tmp_path), *ids])
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    failing = {r["id"]: r["message"] for r in report["results"] if r["verdict"] != "pass"}
    assert not failing, f"--strict on the reference: {failing}"
    assert [r["id"] for r in report["results"]] == chosen
    scope = report["scope"]
    assert set(scope["not_run"]) == set(REGISTRY) - set(chosen), scope["not_run"]
    assert all("selected" in why for why in scope["left_out"]), scope["left_out"]
    assert status == 3 and report["summary"]["verdict"] == "partial", "only the selection is cut"
