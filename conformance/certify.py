"""Certify an engine: run every requirement, write the report files, return the report."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from conformance.cases import readable
from conformance.engines import EngineClient, EngineFault, EngineRefused
from conformance.report.badge import render_badge
from conformance.report.certificate import render_certificate
from conformance.report.expected import ExpectedFailures
from conformance.report.junit import render_junit
from conformance.report.model import build_report, counterexample_path, final_outcome
from conformance.report.plain import to_plain
from conformance.requirements import REGISTRY, Requirement, SuiteContext
from conformance.runner import PROFILES, Outcome, Profile, _examples, run_requirement

ENGINE_UNAVAILABLE = "ENGINE_UNAVAILABLE"
"""The code of the one engine-level verdict: the engine could not start or answer hello."""
COUNTEREXAMPLE_FORMAT = "core-conformance-counterexample/1"
CI_FLOOR = PROFILES["ci"]


def select(
    ids: Iterable[str] = (), keyword: str | Iterable[str] | None = None
) -> list[Requirement]:
    """Requirements by exact id (unknown ids are an error) and/or a substring of id or title;
    several keywords select the requirements that contain any of them."""
    wanted = list(ids)
    unknown = [i for i in wanted if i not in REGISTRY]
    if unknown:
        raise KeyError(f"unknown requirement ids: {unknown}")
    chosen = [REGISTRY[i] for i in wanted] if wanted else [REGISTRY[i] for i in sorted(REGISTRY)]
    needles = [k.lower() for k in keywords(keyword)]
    if needles:
        chosen = [
            r for r in chosen if any(n in r.id.lower() or n in r.title.lower() for n in needles)
        ]
    return chosen


def keywords(keyword: str | Iterable[str] | None) -> tuple[str, ...]:
    """The non-empty keywords of a selection: one string, several, or none."""
    given = (keyword,) if isinstance(keyword, str) else tuple(keyword or ())
    return tuple(k for k in given if k)


def _below_floor(req: Requirement, profile: Profile, max_examples: int | None) -> bool:
    if req.strategy is None:
        return False
    return _examples(req, profile, max_examples) < _examples(req, CI_FLOOR, None)


def scope_of(
    requirements: list[Requirement],
    run: list[str],
    profile: Profile,
    max_examples: int | None,
    plan: Mapping[str, tuple[Profile, int | None]] | None = None,
    ended: str | None = None,
) -> dict[str, Any]:
    """Whether the run covered every requirement at the ci floor, and what it left out.

    *requirements* were selected, *run* are the ids that actually ran (a fail-fast
    stop, an interruption or a run still going runs fewer: *ended* says which);
    *plan* gives some ids their own (profile, max_examples).
    """
    settings = {req.id: (plan or {}).get(req.id, (profile, max_examples)) for req in requirements}
    selected = {req.id for req in requirements}
    thin = sorted(req.id for req in requirements if _below_floor(req, *settings[req.id]))
    return describe_scope(len(selected), len(selected) - len(set(run)), thin, run, ended)


ENDINGS = ("finished", "fail-fast", "budget", "interrupted", "running")
"""How a run ended (``scope.ended``): it ran its selection, stopped at the first failure,
was cut by its budget, was stopped by a signal, or is still running (a report written
while it runs)."""

_STOPPED = {
    "fail-fast": "stopped at the first failure: {} selected requirements not run",
    "interrupted": "interrupted: {} selected requirements not run",
    "running": "the run was still going: {} selected requirements not run yet",
}


def describe_scope(
    selected: int, stopped: int, thin: list[str], run: list[str], ended: str | None = None
) -> dict[str, Any]:
    """The ``scope`` block of a report from its facts: how many requirements were selected,
    how many a stop left unrun (*ended* says which stop: a fail-fast one by default),
    which ran below the ci floor, which ran."""
    ended = ended or ("fail-fast" if stopped else "finished")
    left_out = []
    if selected < len(REGISTRY):
        left_out.append(f"only {selected} of {len(REGISTRY)} requirements were selected")
    if ended == "interrupted" and not stopped:
        left_out.append("interrupted by a signal before the run ended")
    if stopped:
        left_out.append(_STOPPED.get(ended, _STOPPED["fail-fast"]).format(stopped))
    if thin:
        left_out.append(
            f"{len(thin)} requirements ran fewer examples than the ci profile: {', '.join(thin)}"
        )
    return {
        "complete": not left_out,
        "left_out": left_out,
        "not_run": sorted(set(REGISTRY) - set(run)),
        "stopped": stopped,
        "thin": thin,
        "ended": ended,
    }


def engine_fault_record(engine: EngineClient, fault: EngineFault) -> dict[str, Any]:
    """The engine-level verdict: what really happened, with the engine's last output lines."""
    tails = engine.output_tails()
    return {
        "code": ENGINE_UNAVAILABLE,
        "kind": fault.kind,
        "message": engine.explain_unavailable(fault.message),
        "exit_status": fault.exit_status,
        "offending": to_plain(fault.offending),
        "stderr_tail": tails["stderr"],
        "stdout_tail": tails["stdout"],
    }


def engine_unavailable(
    engine: EngineClient,
    fault: EngineFault,
    requirements: list[Requirement],
    *,
    profile: Profile,
    expected: ExpectedFailures,
    options: dict[str, Any] | None = None,
    max_examples: int | None = None,
    plan: Mapping[str, tuple[Profile, int | None]] | None = None,
) -> dict[str, Any]:
    """The report of a run that ended at hello: one engine-level verdict, no results."""
    scope = scope_of(requirements, [req.id for req in requirements], profile, max_examples, plan)
    scope = {**scope, "complete": False, "not_run": sorted(REGISTRY)}
    return build_report(
        [],
        hello={},
        engine=engine.description,
        profile=profile,
        expected=expected,
        options=options,
        scope=scope,
        engine_fault=engine_fault_record(engine, fault),
    )


def greet(engine: EngineClient) -> tuple[dict[str, Any], SuiteContext]:
    """The engine's hello and the suite context; a refusal or malformed answer is a fault."""
    try:
        return engine.hello(), SuiteContext.from_engine(engine)
    except EngineRefused as refusal:
        raise EngineFault("protocol", f"the engine refused hello: {refusal}") from None
    except (KeyError, TypeError, AttributeError) as exc:
        raise EngineFault("protocol", f"malformed hello or lexicon.list result: {exc!r}") from None


Pairs = list[tuple[Requirement, Outcome]]


def certify(
    engine: EngineClient,
    requirements: list[Requirement],
    profile: Profile,
    *,
    expected: ExpectedFailures,
    max_examples: int | None = None,
    on_result: Callable[[Requirement, Outcome], None] = lambda req, outcome: None,
    fail_fast: bool = False,
    options: dict[str, Any] | None = None,
    plan: Mapping[str, tuple[Profile, int | None]] | None = None,
) -> tuple[dict[str, Any], Pairs]:
    """Run *requirements* against *engine*; return the report and each (requirement, outcome).

    *plan* gives some requirements their own (profile, max_examples), e.g. a budget's.
    An engine that cannot answer hello ends the run at once with one engine-level
    verdict (``report["engine_fault"]``) and no per-requirement results.
    """
    settings = {req.id: (plan or {}).get(req.id, (profile, max_examples)) for req in requirements}

    def run_serially(ctx: SuiteContext) -> Pairs:
        pairs = []
        for req in requirements:
            outcome = run_requirement(req, engine, ctx, *settings[req.id])
            pairs.append((req, outcome))
            on_result(req, outcome)
            if fail_fast and outcome.verdict in ("fail", "error"):
                break
        return pairs

    return certify_with(
        engine,
        requirements,
        run_serially,
        profile=profile,
        expected=expected,
        options=options,
        max_examples=max_examples,
        plan=plan,
    )


def certify_with(
    engine: EngineClient,
    requirements: list[Requirement],
    run: Callable[[SuiteContext], Pairs],
    *,
    profile: Profile,
    expected: ExpectedFailures,
    options: dict[str, Any] | None = None,
    max_examples: int | None = None,
    plan: Mapping[str, tuple[Profile, int | None]] | None = None,
) -> tuple[dict[str, Any], Pairs]:
    """Greet *engine*, let *run* produce the outcomes, and build the scoped report; an
    engine that cannot answer hello gets one engine-level verdict and no outcomes."""
    scope: dict[str, Any] = {
        "profile": profile,
        "expected": expected,
        "options": options,
        "max_examples": max_examples,
        "plan": plan,
    }
    try:
        hello, ctx = greet(engine)
    except EngineFault as fault:
        return engine_unavailable(engine, fault, requirements, **scope), []
    pairs = run(ctx)
    return scoped_report(engine, hello, requirements, pairs, **scope), pairs


def scoped_report(
    engine: EngineClient,
    hello: dict[str, Any],
    requirements: list[Requirement],
    pairs: list[tuple[Requirement, Outcome]],
    *,
    profile: Profile,
    expected: ExpectedFailures,
    options: dict[str, Any] | None = None,
    max_examples: int | None = None,
    plan: Mapping[str, tuple[Profile, int | None]] | None = None,
    ended: str | None = None,
) -> dict[str, Any]:
    """The report of a run that ran *pairs* of the selected *requirements*, with its scope
    (*ended*: how the run ended, when not by running its selection or a fail-fast stop)."""
    scope = scope_of(requirements, [req.id for req, _ in pairs], profile, max_examples, plan, ended)
    return build_report(
        pairs,
        hello=hello,
        engine=engine.description,
        profile=profile,
        expected=expected,
        scope=scope,
        options=options,
    )


def counterexample_body(report: dict[str, Any], case: dict[str, Any]) -> dict[str, Any]:
    """One counterexample file's content, as plain JSON data."""
    body: dict[str, Any] = to_plain(
        {
            "format": COUNTEREXAMPLE_FORMAT,
            **case,
            "engine": report["engine"]["command"],
            "options": report.get("options", {}),
        }
    )
    return body


def write_counterexamples(
    report: dict[str, Any],
    pairs: list[tuple[Requirement, Outcome]],
    directory: Path,
    *,
    clear: bool = True,
) -> list[str]:
    """Write one file per counterexample; return one line per file that could not be written.

    A failure writing one file never stops the others. With *clear*, files of an
    earlier run are removed first.
    """
    examples, problems = directory / "counterexamples", []
    for stale in examples.glob("*.json") if clear and examples.is_dir() else ():
        if stale.is_file():
            stale.unlink()
    for req, outcome in pairs:
        fallback = [] if outcome.counterexample is None else [outcome.counterexample]
        cases = outcome.counterexamples or fallback
        for index, case in enumerate(c for c in cases if c is not None):
            path = directory / counterexample_path(req.id, index)
            try:
                examples.mkdir(exist_ok=True)
                _write(path, pretty(counterexample_body(report, case)))
            except (OSError, TypeError, ValueError) as exc:
                problems.append(f"{path}: not written: {type(exc).__name__}: {exc}")
    return problems


def write_report(
    report: dict[str, Any], pairs: list[tuple[Requirement, Outcome]], directory: Path
) -> list[str]:
    """Write report.json, badge.json, certificate.md, junit.xml and the counterexamples.

    Returns one line per counterexample file that could not be written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    problems = write_counterexamples(report, pairs, directory)
    _write(directory / "report.json", pretty(to_plain(report)))
    _write(directory / "badge.json", pretty(render_badge(report)))
    _write(directory / "certificate.md", render_certificate(report, str(directory)))
    _write(directory / "junit.xml", render_junit(report))
    return problems


def pretty(value: Any) -> str:
    """Indented JSON text of plain data, ending in a newline."""
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _write(path: Path, text: str, *, durable: bool = True) -> None:
    """Replace *path* by *text* atomically (a rename); *durable* also syncs it to disk."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


VERDICT_LABEL = {"xfail": "XFAIL", "xpass": "XPASS"}


def verdict_line(
    req: Requirement, outcome: Outcome, expected: ExpectedFailures | None = None
) -> str:
    """One line per requirement (XFAIL/XPASS for expected failures), then its message."""
    shown = final_outcome(outcome, expected or ExpectedFailures.none())
    fault = f" [{outcome.fault}]" if outcome.fault else ""
    line = (
        f"{VERDICT_LABEL.get(shown, shown.upper()):<11} {req.id:<16} {outcome.examples:>4} "
        f"examples {outcome.duration_ms:>6} ms{fault}"
    )
    if shown in ("fail", "error", "xfail"):
        line += "\n" + textwrap.indent(readable(outcome.message, max_lines=6), " " * 12)
    elif shown == "xpass":
        line += "\n            passes, but is listed as an expected failure"
    return line


def is_interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")
