"""Certify an engine: run every requirement, write the report files, return the report."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from conformance.engines import EngineClient, EngineFault
from conformance.report.certificate import render_certificate
from conformance.report.expected import ExpectedFailures
from conformance.report.junit import render_junit
from conformance.report.model import build_report, counterexample_path
from conformance.requirements import REGISTRY, Requirement, SuiteContext
from conformance.runner import Outcome, Profile, run_requirement


def select(ids: Iterable[str] = (), keyword: str | None = None) -> list[Requirement]:
    """Requirements by exact id (unknown ids are an error) and/or a substring of id or title."""
    wanted = list(ids)
    unknown = [i for i in wanted if i not in REGISTRY]
    if unknown:
        raise KeyError(f"unknown requirement ids: {unknown}")
    chosen = [REGISTRY[i] for i in wanted] if wanted else [REGISTRY[i] for i in sorted(REGISTRY)]
    if keyword:
        needle = keyword.lower()
        chosen = [r for r in chosen if needle in r.id.lower() or needle in r.title.lower()]
    return chosen


def certify(
    engine: EngineClient,
    requirements: list[Requirement],
    profile: Profile,
    *,
    expected: ExpectedFailures,
    max_examples: int | None = None,
    on_result: Callable[[Requirement, Outcome], None] = lambda req, outcome: None,
    fail_fast: bool = False,
) -> tuple[dict[str, Any], list[tuple[Requirement, Outcome]]]:
    """Run *requirements* against *engine*; return the report and each (requirement, outcome)."""
    try:
        hello = engine.hello()
        ctx = SuiteContext.from_engine(engine)
    except EngineFault as fault:
        hello, ctx = {"error": str(fault)}, SuiteContext(())
    pairs = []
    for req in requirements:
        if "error" in hello:
            outcome = Outcome(
                req.id, "error", message=f"engine unavailable: {hello['error']}", fault="crash"
            )
        else:
            outcome = run_requirement(req, engine, ctx, profile, max_examples)
        pairs.append((req, outcome))
        on_result(req, outcome)
        if fail_fast and outcome.verdict in ("fail", "error"):
            break
    return build_report(
        pairs, hello=hello, engine=engine.description, profile=profile, expected=expected
    ), pairs


def write_report(report: dict[str, Any], pairs, directory: Path) -> None:
    """Write report.json, certificate.md, junit.xml and one file per counterexample."""
    directory.mkdir(parents=True, exist_ok=True)
    examples = directory / "counterexamples"
    if examples.exists():
        for stale in examples.glob("*.json"):
            stale.unlink()
    for req, outcome in pairs:
        for index, case in enumerate(outcome.counterexamples or [outcome.counterexample]):
            if case is None:
                continue
            examples.mkdir(exist_ok=True)
            body = {**case, "engine": report["engine"]["command"]}
            text = json.dumps(body, indent=2, ensure_ascii=False) + "\n"
            _write(directory / counterexample_path(req.id, index), text)
    _write(directory / "report.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    _write(directory / "certificate.md", render_certificate(report, str(directory)))
    _write(directory / "junit.xml", render_junit(report))


def _write(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def verdict_line(req: Requirement, outcome: Outcome) -> str:
    fault = f" [{outcome.fault}]" if outcome.fault else ""
    line = (
        f"{outcome.verdict.upper():<11} {req.id:<16} {outcome.examples:>4} examples "
        f"{outcome.duration_ms:>6} ms{fault}"
    )
    if outcome.verdict in ("fail", "error"):
        line += f"\n            {outcome.message[:300]}"
    return line


def is_interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")
