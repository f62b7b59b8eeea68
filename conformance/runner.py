"""Run one requirement against one engine and turn what happens into a typed outcome."""

from __future__ import annotations

import hashlib
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

from conformance import details, shrink
from conformance.case_value import by_value
from conformance.coverage import Plan
from conformance.engines import view as view_module
from conformance.engines.base import EngineClient, EngineFault, EngineRefused
from conformance.model import NOT_CHECKABLE, NotCheckable, Requirement, SuiteContext
from conformance.stopping import Deadline, DeadlineReached
from conformance.surface_items import first_unsaid

SEARCH_PHASES = tuple(p for p in Phase if p != Phase.explain)
"""Every phase but ``explain``: it only annotates a failure and can cost most of the run."""
MAX_TRANSCRIPT = 400
MAX_DISTINCT = 3
"""How many distinct counterexamples (distinct by the check that failed) one outcome keeps."""


@dataclass(frozen=True)
class Profile:
    """How hard to search: ``ci`` is derandomized with no database; ``dev`` explores."""

    name: str
    max_examples: int
    derandomize: bool
    kills: int = 200
    seed: int | None = None
    example_range: tuple[int, int] | None = None
    """``seed`` fixes Hypothesis's seed; ``example_range`` runs only examples [start, stop)
    of the full sequence (a shard of one requirement), the others being drawn but skipped."""
    shrink: bool = True
    """Whether a failure is shrunk; without it the same examples find the same failures,
    each kept as it was found."""

    def settings(self, max_examples: int) -> settings:
        phases = (
            SEARCH_PHASES if self.shrink else tuple(p for p in SEARCH_PHASES if p != Phase.shrink)
        )
        return settings(
            max_examples=max_examples,
            derandomize=self.derandomize,
            deadline=None,
            database=None,
            print_blob=True,
            verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck),
            phases=phases,
        )


PROFILES = {
    "ci": Profile("ci", max_examples=25, derandomize=True),
    "dev": Profile("dev", max_examples=100, derandomize=False, kills=40),
}


@dataclass
class Outcome:
    """What happened when one requirement ran."""

    id: str
    verdict: str
    examples: int = 0
    duration_ms: int = 0
    message: str = ""
    fault: str | None = None
    counterexample: dict[str, Any] | None = None
    counterexamples: list[dict[str, Any]] = field(default_factory=list)
    cause: str | None = None
    coverage: dict[str, dict[str, int]] | None = None
    details: dict[str, Any] | None = None
    cases_run: int = 0
    """Coverage cases run (with :class:`Limits`, counted from ``cover_skip``)."""
    cut: bool = False
    """A deadline stopped the run before all its coverage cases and examples ran."""

    def __post_init__(self) -> None:
        self.message = unicode_text(self.message)


def unicode_text(message: str) -> str:
    """*message* as Unicode text: a lone surrogate (quoted from a request or an engine's
    answer) written as its ``\\udXXX`` escape, so every report can hold it as text."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True)
class Limits:
    """How far one run may go (a budgeted run's step): no new case or example starts after
    *deadline* (the first one always does); coverage cases are taken in *order* (indices
    into the plan; default most valuable first, :mod:`conformance.case_value`), the first
    *cover_skip* of them skipped (an earlier run of the same requirement ran them) and at
    most *cover_take* run; generated examples run after them only with *examples*."""

    deadline: Deadline = Deadline()
    cover_skip: int = 0
    hard: Deadline = Deadline()
    """No request at all after this one (the budget's end): the case or example running
    then stops mid-way and does not count."""
    order: tuple[int, ...] | None = None
    cover_take: int | None = None
    examples: bool = True
    shrink_s: float | None = None
    """Seconds a failing coverage case's shrink may take from its start (None: no bound);
    the smallest failure found when it ends is kept."""
    plan: Plan | None = None
    """The requirement's coverage plan, when the caller built it already."""


class _EngineDown(BaseException):
    """Raised through Hypothesis to stop at once: a faulted engine is not shrunk.

    Shrinking would restart a crashed, hung or garbled engine for every attempt and
    could use up its restart budget; the first scenario that faulted it is kept as the
    counterexample.
    """

    def __init__(self, fault: EngineFault) -> None:
        super().__init__(fault.message)
        self.fault = fault


@dataclass
class _Attempt:
    """Failures seen so far, one per distinct check, in the order they were first seen."""

    examples: int = 0
    failures: dict[str, dict[str, Any]] = field(default_factory=dict)
    fault: str | None = None
    coverage: dict[str, dict[str, int]] | None = None
    drawn: int = 0
    deadline: Deadline = Deadline()
    bodies: int = 0
    cases_run: int = 0
    cut: bool = False

    def due(self) -> bool:
        """Whether the deadline stops the next case or example (never the run's first)."""
        if self.bodies and self.deadline.passed():
            self.cut = True
        return self.cut

    def skips(self, window: tuple[int, int] | None) -> bool:
        """Whether the next drawn example lies outside *window* (never once one failed)."""
        index, self.drawn = self.drawn, self.drawn + 1
        return window is not None and self.failure is None and not (window[0] <= index < window[1])

    def record(self, key: str, failure: dict[str, Any]) -> None:
        """Keep the latest (so, after shrinking, the smallest) failure of each distinct check."""
        if key in self.failures or len(self.failures) < MAX_DISTINCT:
            self.failures[key] = {**failure, "check": key}

    @property
    def failure(self) -> dict[str, Any] | None:
        return next(iter(self.failures.values()), None)


class _Refused(AssertionError):
    """The engine refused a request the requirement expected it to answer."""

    def __init__(self, refusal: EngineRefused) -> None:
        super().__init__(f"engine refused: {refusal}")
        self.code = refusal.code


def _failing_frame(exc: BaseException) -> traceback.FrameSummary | None:
    """The frame of the failing check: the innermost outside the runner and the views."""
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if f.filename not in (__file__, view_module.__file__)] or frames
    return inner[-1] if inner else None


def check_key(exc: BaseException) -> str:
    """Which check failed: a refusal's code, else the place of the failing assertion."""
    if isinstance(exc, _Refused):
        return f"refused {exc.code}"
    frame = _failing_frame(exc)
    return f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else "assert"


def failure_message(exc: AssertionError) -> str:
    """What a failed check says: its message, else (an assertion without one) the place and
    source of the failing assertion, so no failure is reported without words."""
    said = str(exc)
    if said.strip():
        return said
    frame = _failing_frame(exc)
    if frame is None:
        return "a check failed"
    return f"failed: {(frame.line or '').strip()} ({check_key(exc)})"


def _transcript(engine: EngineClient) -> list[dict[str, Any]]:
    exchanges = engine.transcript.exchanges
    if len(exchanges) <= MAX_TRANSCRIPT:
        return list(exchanges)
    return [
        *exchanges[: MAX_TRANSCRIPT // 2],
        {"truncated": len(exchanges) - MAX_TRANSCRIPT},
        *exchanges[-MAX_TRANSCRIPT // 2 :],
    ]


UNREADABLE = (LookupError, TypeError, AttributeError, ValueError, ArithmeticError)
"""What reading engine output of an unexpected form raises in Python."""


def check_once(req: Requirement, engine: EngineClient, scenario: Any) -> None:
    """Run the check on one scenario; engine refusals count as failures of the requirement,
    and so does a response that broke its op's schema (once the check itself passed, or as
    the reason the check could not read it: the suite's own exception is then a FAIL)."""
    try:
        req.check(engine, scenario)
    except EngineRefused as refusal:
        raise _Refused(refusal) from None
    except UNREADABLE as exc:
        if not engine.off_schema:
            raise
        raise AssertionError(
            f"a response broke the protocol: {engine.off_schema[0]} "
            f"(reading it then raised {type(exc).__name__}: {str(exc)[:120]})"
        ) from None
    if engine.off_schema:
        raise AssertionError(f"a response broke the protocol: {engine.off_schema[0]}")
    unsaid = first_unsaid(engine.transcript.exchanges)
    if unsaid is not None and _claims(engine, "answers"):
        raise AssertionError(unsaid)


def _claims(engine: EngineClient, capability: str) -> bool:
    """Whether *engine* claims *capability*; ``False`` when it cannot say (stopped, faulted)."""
    try:
        return capability in engine.capabilities()
    except (EngineFault, EngineRefused, DeadlineReached):
        return False


def _body(
    req: Requirement,
    engine: EngineClient,
    attempt: _Attempt,
    window: tuple[int, int] | None = None,
) -> Callable[[Any], None]:
    def body(scenario: Any) -> None:
        if attempt.skips(window):
            return
        if attempt.due():
            raise DeadlineReached
        attempt.bodies += 1
        attempt.examples += 1
        engine.begin_example()
        try:
            check_once(req, engine, scenario)
        except AssertionError as exc:
            attempt.record(check_key(exc), _failure(req, engine, scenario, failure_message(exc)))
            raise
        except EngineFault as fault:
            attempt.fault = fault.kind
            attempt.record(f"fault {fault.kind}", _failure(req, engine, scenario, str(fault)))
            raise _EngineDown(fault) from None
        except DeadlineReached:
            attempt.examples -= 1
            attempt.cut = True
            raise

    body.__name__ = body.__qualname__ = req.id.replace("-", "_")
    return body


def _failure(req: Requirement, engine: EngineClient, scenario: Any, message: str) -> dict[str, Any]:
    return {
        "requirement": req.id,
        "scenario": scenario,
        "message": unicode_text(message),
        "transcript": _transcript(engine),
    }


def run_requirement(
    req: Requirement,
    engine: EngineClient,
    ctx: SuiteContext,
    profile: Profile,
    max_examples: int | None = None,
    limits: Limits | None = None,
) -> Outcome:
    """Certify one requirement: pass, fail (with a shrunk counterexample), error, not-claimed
    (also when the requirement cannot be checked here: ``details.not_checkable`` says why).

    With *limits* the run stops at their deadline (``Outcome.cut``): what it found
    until then is its verdict."""
    try:
        missing = sorted(set(req.capabilities) - engine.capabilities())
    except EngineFault as fault:
        _restart_quietly(engine)
        return Outcome(req.id, "error", message=f"hello failed: {fault}", fault=fault.kind)
    if missing:
        return Outcome(req.id, "not-claimed", message=f"capabilities not claimed: {missing}")
    attempt = _Attempt(deadline=limits.deadline if limits else Deadline())
    body = _body(req, engine, attempt, profile.example_range)
    started = time.perf_counter()
    collecting = details.start()
    engine.stop_at = limits.hard if limits else Deadline()
    try:
        shrink_s = limits.shrink_s if limits else None
        shrinker = _case_shrinker(req, engine, attempt, shrink_s) if profile.shrink else None
        try:
            _run_cover(req, ctx, body, attempt, limits, shrinker)
            if limits is None or limits.examples:
                _run_examples(req, ctx, profile, max_examples, body)
        except DeadlineReached:
            attempt.cut = True
        finally:
            engine.stop_at = Deadline()
        if attempt.failure is not None:
            raise AssertionError(attempt.failure["message"])
        verdict, message = "pass", ""
    except _EngineDown as stop:
        verdict, message = "error", str(stop.fault)
        _restart_quietly(engine)
    except EngineFault as fault:
        verdict, message, attempt.fault = "error", str(fault), fault.kind
        _restart_quietly(engine)
    except NotCheckable as exc:
        verdict, message = "not-claimed", f"{NOT_CHECKABLE}: {exc}"
        details.note(not_checkable=str(exc))
    except Exception as exc:  # AssertionError, or Hypothesis reporting several failures at once
        verdict, message = _verdict_of(attempt, exc)
    figures = details.finish(collecting)
    elapsed = int((time.perf_counter() - started) * 1000)
    failed = verdict != "pass"
    found = list(attempt.failures.values()) if failed else []
    return Outcome(
        req.id,
        verdict,
        examples=attempt.examples,
        duration_ms=elapsed,
        message=message,
        fault=attempt.fault if failed else None,
        counterexample=found[0] if found else None,
        counterexamples=found,
        cause=root_cause(attempt) if failed else None,
        coverage=attempt.coverage,
        details=figures or None,
        cases_run=attempt.cases_run,
        cut=attempt.cut,
    )


def _run_examples(
    req: Requirement,
    ctx: SuiteContext,
    profile: Profile,
    max_examples: int | None,
    body: Callable[[Any], None],
) -> None:
    """The requirement's generated examples (or its one fixed check when it has neither a
    strategy nor a coverage plan)."""
    if req.strategy is None:
        if req.cover is None:
            body(None)
        return
    examples = _examples(req, profile, max_examples)
    runner = profile.settings(examples)(given(req.strategy(ctx))(body))
    if profile.seed is not None:
        runner = seed(profile.seed)(runner)
    elif profile.derandomize:
        runner = seed(requirement_seed(req))(runner)
    runner()


def requirement_seed(req: Requirement) -> int:
    """The Hypothesis seed of a derandomized run: a function of the requirement id alone.

    Hypothesis would otherwise derive it from the source of the function under test,
    so an edit of the runner would change every requirement's examples.
    """
    return int.from_bytes(hashlib.sha256(f"core-conformance/{req.id}".encode()).digest()[:8])


def _run_cover(
    req: Requirement,
    ctx: SuiteContext,
    body: Callable[[Any], None],
    attempt: _Attempt,
    limits: Limits | None = None,
    shrinker: Callable[[Any, str], None] | None = None,
) -> None:
    """Run the requirement's coverage plan, every case even after a failure; record coverage.

    With *limits*, cases run most valuable first, from ``cover_skip`` on, until the
    deadline (``attempt.cases_run`` counts them). With *shrinker*, a failing case is shrunk
    (:mod:`conformance.shrink`) before the plan goes on."""
    if req.cover is None:
        return
    plan = limits.plan if limits is not None and limits.plan is not None else req.cover(ctx)
    if limits is not None:
        order = limits.order if limits.order is not None else by_value(plan.cases)
        plan = replace(plan, cases=tuple(plan.cases[i] for i in order))
    skip = limits.cover_skip if limits is not None else 0
    take = limits.cover_take if limits is not None else None
    stop = len(plan.cases) if take is None else min(len(plan.cases), skip + take)
    for ran, case in enumerate(plan.cases[skip:stop], start=skip + 1):
        if attempt.due():
            raise DeadlineReached
        attempt.coverage = plan.coverage(ran)
        try:
            body(case.scenario)
        except AssertionError as exc:
            attempt.cases_run = ran - skip
            if shrinker is not None:
                shrinker(case.scenario, check_key(exc))
        attempt.cases_run = ran - skip
    attempt.coverage = plan.coverage(stop)


def _case_shrinker(
    req: Requirement, engine: EngineClient, attempt: _Attempt, seconds: float | None = None
) -> Callable[[Any, str], None]:
    """Shrink a failing coverage case; the smallest failure of the same check is recorded
    as the counterexample. An engine fault while shrinking ends the shrink quietly (the
    original failure stands), and so does the end of *seconds* from its start."""

    def shrink_case(scenario: Any, key: str) -> None:
        until = Deadline() if seconds is None else Deadline.after(seconds)

        def fails(candidate: Any) -> bool:
            if until.passed():
                raise _StopShrinking
            engine.begin_example()
            try:
                check_once(req, engine, candidate)
            except AssertionError as exc:
                if check_key(exc) != key:
                    return False
                attempt.record(key, _failure(req, engine, candidate, failure_message(exc)))
                return True
            except EngineFault:
                _restart_quietly(engine)
                raise _StopShrinking from None
            except Exception:  # the candidate broke the check's reading of its scenario
                return False
            return False

        if key not in attempt.failures:
            return
        try:
            _, runs = shrink.shrink(scenario, fails)
        except _StopShrinking:
            runs = 0
        details.count(shrink_runs=runs)

    return shrink_case


class _StopShrinking(Exception):
    """The engine faulted on a shrink candidate: keep the failure found so far."""


def root_cause(attempt: _Attempt) -> str | None:
    """The engine error behind a failure (a refusal code or a fault kind), if there is one.

    A requirement that fails its own assertion has no shared cause; one whose engine
    refused or faulted shares its cause with every other requirement that met the same
    error, so the report can group them.
    """
    if attempt.fault:
        return f"engine fault: {attempt.fault}"
    key = next(iter(attempt.failures), "")
    if not key.startswith("refused "):
        return None
    return f"engine refused with {key.removeprefix('refused ')}"


def _examples(req: Requirement, profile: Profile, override: int | None) -> int:
    """Examples of *req* to run: from its unit scale, else *override*, its own or the profile's."""
    if req.scale is not None:
        return req.scale.examples_for(profile)
    return override or req.max_examples or profile.max_examples


def _verdict_of(attempt: _Attempt, exc: Exception) -> tuple[str, str]:
    if attempt.failure is None:
        first = (str(exc).strip().splitlines() or [""])[0]
        return "error", f"{type(exc).__name__}: {first}"
    message = attempt.failure["message"]
    if len(attempt.failures) > 1:
        message += f" (and {len(attempt.failures) - 1} more distinct failure(s))"
    return ("error" if attempt.fault else "fail"), message


def _restart_quietly(engine: EngineClient) -> None:
    try:
        engine.restart()
    except EngineFault:
        return
