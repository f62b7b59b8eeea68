"""The pytest plugin: ``pytest --pyargs conformance.suite --engine CMD``.

Adds engine options and fixtures; ``conformance.suite`` turns every requirement
into one test item named by its stable id. Without an engine option the suite runs
``python -m reference serve`` (the reference engine, when it is installed).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.api import Engine, resolve_profile
from conformance.engines import EngineClient, EngineFault, EngineRefused
from conformance.report.expected import ExpectedFailures
from conformance.requirements import SuiteContext
from conformance.runner import PROFILES


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "CORE conformance suite")
    group.addoption("--engine", metavar="CMD", help="engine program speaking core-engine/1")
    group.addoption("--engine-python", metavar="MODULE:FACTORY", help="in-process engine")
    group.addoption("--engine-timeout", type=float, default=10.0, help="seconds per request")
    group.addoption("--engine-strict", action="store_true", help="validate message schemas")
    group.addoption("--conformance-profile", choices=sorted(PROFILES), default="ci")
    group.addoption("--conformance-examples", type=int, help="examples per requirement")
    group.addoption("--conformance-kills", type=int, help="SIGKILLs for STATE-KILL-001")
    group.addoption("--conformance-xfail", metavar="FILE", help="expected failures file")
    group.addoption(
        "--conformance-counterexamples",
        metavar="DIR",
        default="conformance-counterexamples",
        help="where shrunk counterexamples are written",
    )


def engine_of(config: pytest.Config) -> Engine:
    """The engine the options name, as the library API's :data:`conformance.api.Engine`."""
    option = config.getoption
    return Engine(
        option("--engine"),
        option("--engine-python"),
        option("--engine-timeout"),
        option("--engine-strict"),
    )


def _open_from(config: pytest.Config) -> EngineClient:
    return engine_of(config).open()


def check_engine_options(config: pytest.Config) -> None:
    """Open the named engine once and ask hello; anything wrong is one usage error."""
    option = config.getoption
    for name in ("--conformance-examples", "--conformance-kills"):
        if option(name) is not None and option(name) < 1:
            raise pytest.UsageError(f"{name} must be 1 or more, not {option(name)}")
    if option("--engine") is None and option("--engine-python") is None:
        return
    timeout = option("--engine-timeout")
    if not timeout > 0:
        raise pytest.UsageError(f"--engine-timeout must be above 0, not {timeout}")
    try:
        engine = _open_from(config)
    except (ValueError, ImportError, AttributeError) as exc:
        raise pytest.UsageError(f"cannot open the engine: {exc}") from None
    try:
        engine.hello()
    except (EngineFault, EngineRefused) as fault:
        tails = engine.output_tails()
        stderr = " | ".join(tails["stderr"][-3:])
        detail = f" (stderr: {stderr})" if stderr else ""
        raise pytest.UsageError(f"the engine cannot answer hello: {fault}{detail}") from None
    finally:
        engine.close()


def pytest_configure(config: pytest.Config) -> None:
    """Check the engine options once, in the main process, before any test is collected."""
    if not hasattr(config, "workerinput"):
        check_engine_options(config)


@pytest.fixture(scope="session")
def conformance_engine(request: pytest.FixtureRequest) -> Iterator[EngineClient]:
    """The engine under test, opened once per test session (per xdist worker)."""
    engine = _open_from(request.config)
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def conformance_context(conformance_engine: EngineClient) -> SuiteContext:
    """The suite context from the engine's hello; an engine that cannot answer ends the run."""
    try:
        return SuiteContext.from_engine(conformance_engine)
    except (EngineFault, EngineRefused) as fault:
        message = conformance_engine.explain_unavailable(f"the engine cannot answer hello: {fault}")
        pytest.exit(message, returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def conformance_expected(request: pytest.FixtureRequest) -> ExpectedFailures:
    path = request.config.getoption("--conformance-xfail")
    if not path:
        return ExpectedFailures.none()
    return ExpectedFailures.load(Path(path), "--conformance-xfail")


@pytest.fixture(scope="session")
def conformance_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    option = request.config.getoption
    profile = resolve_profile(option("--conformance-profile"), option("--conformance-kills"))
    return {
        "profile": profile,
        "examples": option("--conformance-examples"),
        "counterexamples": Path(option("--conformance-counterexamples")),
        "engine_flag": _engine_flag(option),
    }


def _engine_flag(option: Callable[[str], Any]) -> str:
    """The replay options naming the engine and shaping its exchanges, shell-quoted."""
    words = []
    if option("--engine") is not None:
        words = ["--engine", option("--engine"), "--timeout", f"{option('--engine-timeout'):g}"]
    elif option("--engine-python") is not None:
        words = ["--engine-python", option("--engine-python")]
    if option("--engine-strict"):
        words.append("--strict")
    return shlex.join(words)
