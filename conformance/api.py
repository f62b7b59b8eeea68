"""The suite as a library: ``certify`` an engine, ``merge`` shard reports, get a ``Report``.

Everything here takes plain values and frozen dataclasses, never command-line
arguments: the CLI (``python -m conformance``), the pytest plugin and scripts all come
through these functions. Anything wrong with the inputs raises :class:`ConformanceError`
before any work starts; its ``code`` is stable and its message names the input.

    from conformance import Engine, certify
    report = certify(Engine(command="node ports/node/engine.js"), ["ALG-PROD-001"],
                     examples=5, report_dir="out/node")
    report.verdict, report.exit_status, report.outcomes()
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from conformance.certify import keywords, select, write_report
from conformance.engines import EngineClient
from conformance.merge import MergeError, merge_directories
from conformance.model import Requirement
from conformance.parallel import EngineSpec
from conformance.report.expected import ExpectedFailures, ExpectedFailuresError
from conformance.runner import PROFILES, Outcome, Profile
from conformance.scaled import Scale, ScaleError, Share
from conformance.stopping import Interrupted

Engine = EngineSpec
"""An engine to certify: ``Engine(command="CMD")`` (a program speaking core-engine/1),
``Engine(python="module:factory")`` (in-process), or ``Engine()`` (the reference's
``python -m reference serve``); ``timeout`` seconds per request, ``strict`` schemas."""

EXIT_FOR_VERDICT = MappingProxyType(
    {"certified": 0, "not-certified": 1, "partial": 3, "engine-unavailable": 4}
)
"""The exit status of each run verdict (docs/conformance.md § Run it)."""

OnResult = Callable[[Requirement, Outcome], None]


class ConformanceError(ValueError):
    """Inputs that cannot make a run: ``code`` is stable, the message names the input."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Selection:
    """Which requirements run: exact ``ids`` (all when empty), then those whose id or
    title contains ``keyword`` (or, given several, any of them)."""

    ids: tuple[str, ...] = ()
    keyword: str | tuple[str, ...] | None = None

    def requirements(self) -> list[Requirement]:
        """The selected requirements in id order; ConformanceError when an id is unknown
        or nothing matches."""
        try:
            chosen = select(self.ids, self.keyword)
        except KeyError as exc:
            raise ConformanceError("UNKNOWN_REQUIREMENT", str(exc.args[0])) from None
        if not chosen:
            wanted = " or ".join(repr(k) for k in keywords(self.keyword))
            raise ConformanceError(
                "EMPTY_SELECTION", f"no requirement id or title contains {wanted}"
            )
        return chosen


@dataclass(frozen=True)
class Report:
    """A finished run: ``data`` is report.json's content (plain JSON data), ``directory``
    where its files were written (None when not written), ``problems`` one line per
    counterexample file that could not be written."""

    data: Mapping[str, Any]
    directory: Path | None = None
    problems: tuple[str, ...] = ()

    @property
    def verdict(self) -> str:
        """``certified``, ``not-certified``, ``partial`` or ``engine-unavailable``."""
        verdict: str = self.data["summary"]["verdict"]
        return verdict

    @property
    def certified(self) -> bool:
        return self.verdict == "certified"

    @property
    def exit_status(self) -> int:
        """The CLI's exit status for this verdict: 0, 1, 3 or 4."""
        return EXIT_FOR_VERDICT[self.verdict]

    @property
    def engine(self) -> str:
        """The engine's command (``python:module:factory`` for an in-process engine)."""
        command: str = self.data["engine"]["command"]
        return command

    def outcomes(self) -> dict[str, str]:
        """Each requirement id that ran and its outcome (pass, fail, error, not-claimed,
        xfail, xpass)."""
        return {r["id"]: r["outcome"] for r in self.data["results"]}


@dataclass(frozen=True)
class Plan:
    """A checked certify run, before any work: what ``certify`` will do. ``share`` is
    the part of ``requirements`` this run covers (all, or its shard's)."""

    engine: EngineSpec
    share: Share
    requirements: tuple[Requirement, ...]
    profile: Profile
    expected: ExpectedFailures
    scale: Scale
    max_examples: int | None = None
    fail_fast: bool = False
    report_dir: Path | None = None


def resolve_profile(profile: str | Profile, kills: int | None = None) -> Profile:
    """The profile named *profile* (or given), with *kills* for STATE-KILL-001 when set."""
    if isinstance(profile, str):
        if profile not in PROFILES:
            raise ConformanceError(
                "UNKNOWN_PROFILE", f"profile: {profile!r} is not one of {sorted(PROFILES)}"
            )
        profile = PROFILES[profile]
    if kills is not None:
        if kills < 1:
            raise ConformanceError("BAD_NUMBER", f"kills: {kills} must be 1 or more")
        profile = dataclasses.replace(profile, kills=kills)
    return profile


def _selection(selection: Selection | Sequence[str] | None) -> Selection:
    if selection is None:
        return Selection()
    if isinstance(selection, Selection):
        return selection
    if isinstance(selection, str):
        return Selection((selection,))
    return Selection(tuple(selection))


def _expected(expected: ExpectedFailures | str | Path | None) -> ExpectedFailures:
    if expected is None:
        return ExpectedFailures.none()
    if isinstance(expected, ExpectedFailures):
        return expected
    try:
        return ExpectedFailures.load(Path(expected))
    except ExpectedFailuresError as exc:
        raise ConformanceError("BAD_EXPECTED_FAILURES", str(exc)) from None


def check_report_dir(path: str | Path, option: str = "report_dir") -> Path:
    """*path* as a report directory, created now; a non-directory or no access is a
    ConformanceError naming *option*."""
    directory = Path(path)
    if directory.exists() and not directory.is_dir():
        raise ConformanceError("BAD_REPORT_DIR", f"{option} {path}: exists and is not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConformanceError(
            "BAD_REPORT_DIR", f"{option} {path}: cannot create it: {exc.strerror or exc}"
        ) from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ConformanceError("BAD_REPORT_DIR", f"{option} {path}: not writable")
    return directory


def plan(
    engine: EngineSpec | None = None,
    selection: Selection | Sequence[str] | None = None,
    profile: str | Profile = "ci",
    *,
    examples: int | None = None,
    kills: int | None = None,
    expected: ExpectedFailures | str | Path | None = None,
    fail_fast: bool = False,
    workers: int = 1,
    shard: str | None = None,
    budget: str | None = None,
    durations_from: str | None = None,
    report_dir: str | Path | None = None,
) -> Plan:
    """Check every input of a certify run (see :func:`certify`) and return its plan;
    ConformanceError for the first bad one. Creates *report_dir*."""
    engine = engine or EngineSpec()
    if not engine.timeout > 0:
        raise ConformanceError("BAD_NUMBER", f"timeout: {engine.timeout} must be above 0")
    if examples is not None and examples < 1:
        raise ConformanceError("BAD_NUMBER", f"examples: {examples} must be 1 or more")
    requirements = _selection(selection).requirements()
    chosen = resolve_profile(profile, kills)
    checked = _expected(expected)
    try:
        scale = Scale.parse(workers, shard, budget, durations_from)
    except ScaleError as exc:
        raise ConformanceError("BAD_SCALE", str(exc)) from None
    directory = None if report_dir is None else check_report_dir(report_dir)
    return Plan(
        engine=engine,
        requirements=tuple(requirements),
        profile=chosen,
        expected=checked,
        scale=scale,
        max_examples=examples,
        fail_fast=fail_fast,
        report_dir=directory,
        share=scale.share(requirements, chosen),
    )


def engine_options(engine: EngineSpec) -> dict[str, Any]:
    """The options that name *engine* and shape every exchange (recorded for replay)."""
    return {
        "engine": engine.command,
        "engine_python": engine.python,
        "timeout": engine.timeout if engine.command is not None else None,
        "strict": engine.strict,
    }


def open_planned(run: Plan) -> EngineClient:
    """The engine of *run*, opened; a factory or command that cannot be opened is a
    ConformanceError."""
    try:
        return run.engine.open()
    except (ValueError, ImportError, AttributeError) as exc:
        raise ConformanceError("ENGINE_NOT_OPENED", f"cannot open the engine: {exc}") from None


def execute(
    run: Plan,
    on_result: OnResult = lambda req, outcome: None,
    engine: EngineClient | None = None,
    *,
    started: float | None = None,
) -> Report:
    """Run a checked *run* and write its report files (when it has a report directory).

    *engine* is the opened engine (opened from the plan when None) and is closed here
    (killed at once when a stop signal, :class:`conformance.stopping.Interrupted`, ends
    the run). A budget counts from *started* (a moment on the monotonic clock; default
    when the run starts).
    """
    client = engine if engine is not None else open_planned(run)
    try:
        report, pairs = run.scale.certify(
            run.engine,
            client,
            run.share,
            run.profile,
            run.expected,
            on_result,
            max_examples=run.max_examples,
            fail_fast=run.fail_fast,
            options=engine_options(run.engine),
            started=started,
        )
    except ScaleError as exc:
        raise ConformanceError("BAD_SCALE", str(exc)) from None
    except Interrupted:
        client.abort()
        raise
    finally:
        client.close()
    report = run.scale.label(report, [r.id for r in run.requirements], run.share)
    problems: list[str] = []
    if run.report_dir is not None:
        problems = write_report(report, pairs, run.report_dir)
    return Report(report, run.report_dir, tuple(problems))


def certify(
    engine: EngineSpec | None = None,
    selection: Selection | Sequence[str] | None = None,
    profile: str | Profile = "ci",
    *,
    examples: int | None = None,
    kills: int | None = None,
    expected: ExpectedFailures | str | Path | None = None,
    fail_fast: bool = False,
    workers: int = 1,
    shard: str | None = None,
    budget: str | None = None,
    durations_from: str | None = None,
    report_dir: str | Path | None = None,
    on_result: OnResult = lambda req, outcome: None,
) -> Report:
    """Certify *engine* and return its :class:`Report`.

    *engine*: an :data:`Engine` (default: the reference's server as a program).
    *selection*: a :class:`Selection` or requirement ids (default: every requirement).
    *profile*: ``"ci"``, ``"dev"`` or a Profile; *examples* per generated requirement and
    *kills* for STATE-KILL-001 override it. *expected*: expected failures (an
    ExpectedFailures or the path of a ``[{id, reason}]`` file). *workers* engine
    processes at once, *shard* ``"K/N"``, *budget* ``"90s"``, *durations_from* an
    earlier report.json: as certify's ``-n``, ``--shard``, ``--budget`` and
    ``--durations-from`` (docs/campaigns.md). *report_dir*: where report.json,
    certificate.md, junit.xml, badge.json and counterexamples/ are written (nothing is
    written when None). *on_result* is called with each requirement and its outcome as
    it finishes.
    """
    run = plan(
        engine,
        selection,
        profile,
        examples=examples,
        kills=kills,
        expected=expected,
        fail_fast=fail_fast,
        workers=workers,
        shard=shard,
        budget=budget,
        durations_from=durations_from,
        report_dir=report_dir,
    )
    return execute(run, on_result)


def merge(shards: Sequence[str | Path], report_dir: str | Path) -> Report:
    """Join the shard report directories *shards* into the whole run's report, written to
    *report_dir*; ConformanceError (``MERGE``) when they are not the shards of one run."""
    directory = check_report_dir(report_dir)
    try:
        data = merge_directories([Path(s) for s in shards], directory)
    except MergeError as exc:
        raise ConformanceError("MERGE", str(exc)) from None
    return Report(data, directory)
