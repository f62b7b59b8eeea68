"""One test per requirement id; a failure prints the command that replays it."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest

from conformance.engines import EngineClient
from conformance.model import SuiteContext
from conformance.report.expected import ExpectedFailures
from conformance.report.plain import to_plain
from conformance.requirements import REGISTRY
from conformance.runner import run_requirement


@pytest.mark.parametrize("req_id", sorted(REGISTRY))
def test_requirement(
    req_id: str,
    conformance_engine: EngineClient,
    conformance_context: SuiteContext,
    conformance_expected: ExpectedFailures,
    conformance_options: dict[str, Any],
) -> None:
    req = REGISTRY[req_id]
    outcome = run_requirement(
        req,
        conformance_engine,
        conformance_context,
        conformance_options["profile"],
        conformance_options["examples"],
    )
    reason = conformance_expected.reasons.get(req_id)
    if outcome.verdict == "not-claimed":
        pytest.skip(outcome.message)
    if outcome.verdict == "pass":
        if reason is not None:
            pytest.fail(f"{req_id} passes but is listed as an expected failure ({reason})")
        return
    replay = ""
    if outcome.counterexample is not None:
        directory = conformance_options["counterexamples"]
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{req_id}.json"
        path.write_text(
            json.dumps(to_plain(outcome.counterexample), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        command = shlex.join(["python", "-m", "conformance", "replay", str(path)])
        replay = f"\nreplay: {command} {conformance_options['engine_flag']}".rstrip()
    if reason is not None:
        pytest.xfail(f"{outcome.verdict}: {outcome.message} (expected: {reason})")
    pytest.fail(f"{req_id} {outcome.verdict}: {outcome.message}{replay}", pytrace=False)
