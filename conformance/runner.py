"""Run one requirement against one engine and turn what happens into a typed outcome."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

from conformance import details
from conformance.engines.base import EngineClient, EngineFault, EngineRefused
from conformance.requirements.registry import Requirement, SuiteContext

SEARCH_PHASES = tuple(p for p in Phase if p != Phase.explain)
"""Every phase but ``explain``: it only annotates a failure and can cost most of the run."""
MAX_TRANSCRIPT = 400


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

    def settings(self, max_examples: int) -> settings:
        return settings(
            max_examples=max_examples,
            derandomize=self.derandomize,
            deadline=None,
            database=None,
            print_blob=True,
            verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck),
            phases=SEARCH_PHASES,
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
    details: dict[str, Any] | None = None


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
    examples: int = 0
    failure: dict[str, Any] | None = None
    fault: str | None = None
    messages: list[str] = field(default_factory=list)
    drawn: int = 0

    def skips(self, window: tuple[int, int] | None) -> bool:
        """Whether the next drawn example lies outside *window* (never once one failed)."""
        index, self.drawn = self.drawn, self.drawn + 1
        return window is not None and self.failure is None and not (window[0] <= index < window[1])


def _transcript(engine: EngineClient) -> list[dict[str, Any]]:
    exchanges = engine.transcript.exchanges
    if len(exchanges) <= MAX_TRANSCRIPT:
        return list(exchanges)
    return [
        *exchanges[: MAX_TRANSCRIPT // 2],
        {"truncated": len(exchanges) - MAX_TRANSCRIPT},
        *exchanges[-MAX_TRANSCRIPT // 2 :],
    ]


def check_once(req: Requirement, engine: EngineClient, scenario: Any) -> None:
    """Run the check on one scenario; engine refusals count as failures of the requirement."""
    try:
        req.check(engine, scenario)
    except EngineRefused as refusal:
        raise AssertionError(f"engine refused: {refusal}") from None


def _body(req: Requirement, engine: EngineClient, attempt: _Attempt, window=None):
    def body(scenario: Any) -> None:
        if attempt.skips(window):
            return
        attempt.examples += 1
        engine.begin_example()
        try:
            check_once(req, engine, scenario)
        except AssertionError as exc:
            attempt.fault = None
            attempt.failure = _failure(req, engine, scenario, str(exc))
            raise
        except EngineFault as fault:
            attempt.fault = fault.kind
            attempt.failure = _failure(req, engine, scenario, str(fault))
            raise _EngineDown(fault) from None

    body.__name__ = body.__qualname__ = req.id.replace("-", "_")
    return body


def _failure(req: Requirement, engine: EngineClient, scenario: Any, message: str) -> dict:
    return {
        "requirement": req.id,
        "scenario": scenario,
        "message": message,
        "transcript": _transcript(engine),
    }


def run_requirement(
    req: Requirement,
    engine: EngineClient,
    ctx: SuiteContext,
    profile: Profile,
    max_examples: int | None = None,
) -> Outcome:
    """Certify one requirement: pass, fail (with a shrunk counterexample), error, not-claimed."""
    try:
        missing = sorted(set(req.capabilities) - engine.capabilities())
    except EngineFault as fault:
        _restart_quietly(engine)
        return Outcome(req.id, "error", message=f"hello failed: {fault}", fault=fault.kind)
    if missing:
        return Outcome(req.id, "not-claimed", message=f"capabilities not claimed: {missing}")
    attempt = _Attempt()
    body = _body(req, engine, attempt, profile.example_range)
    started = time.perf_counter()
    collecting = details.start()
    try:
        if req.strategy is None:
            body(None)
        else:
            examples = _examples(req, profile, max_examples)
            runner = profile.settings(examples)(given(req.strategy(ctx))(body))
            if profile.seed is not None:
                runner = seed(profile.seed)(runner)
            runner()
        verdict, message = "pass", ""
    except _EngineDown as stop:
        verdict, message = "error", str(stop.fault)
        _restart_quietly(engine)
    except EngineFault as fault:
        verdict, message, attempt.fault = "error", str(fault), fault.kind
        _restart_quietly(engine)
    except Exception as exc:  # AssertionError, or Hypothesis reporting several failures at once
        verdict, message = _verdict_of(attempt, exc)
    figures = details.finish(collecting)
    elapsed = int((time.perf_counter() - started) * 1000)
    failed = verdict != "pass"
    return Outcome(
        req.id,
        verdict,
        examples=attempt.examples,
        duration_ms=elapsed,
        message=message,
        fault=attempt.fault if failed else None,
        counterexample=attempt.failure if failed else None,
        details=figures or None,
    )


def _examples(req: Requirement, profile: Profile, override: int | None) -> int:
    if req.scale == "kills":
        from conformance.requirements.state_crash import kill_examples

        return kill_examples(profile.kills)
    return override or req.max_examples or profile.max_examples


def _verdict_of(attempt: _Attempt, exc: Exception) -> tuple[str, str]:
    if attempt.failure is None:
        first = (str(exc).strip().splitlines() or [""])[0]
        return "error", f"{type(exc).__name__}: {first}"
    return ("error" if attempt.fault else "fail"), attempt.failure["message"]


def _restart_quietly(engine: EngineClient) -> None:
    try:
        engine.restart()
    except EngineFault:
        return
