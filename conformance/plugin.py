"""The pytest plugin: ``pytest --pyargs conformance.suite --engine CMD``.

Adds engine options and fixtures; ``conformance.suite`` turns every requirement
into one test item named by its stable id. Without an engine option the
reference engine is certified in-process.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conformance.engines import open_engine
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


@pytest.fixture(scope="session")
def conformance_engine(request: pytest.FixtureRequest):
    """The engine under test, opened once per test session (per xdist worker)."""
    option = request.config.getoption
    engine = open_engine(
        option("--engine"),
        option("--engine-python"),
        timeout=option("--engine-timeout"),
        strict=option("--engine-strict"),
    )
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def conformance_context(conformance_engine) -> SuiteContext:
    return SuiteContext.from_engine(conformance_engine)


@pytest.fixture(scope="session")
def conformance_expected(request: pytest.FixtureRequest) -> ExpectedFailures:
    path = request.config.getoption("--conformance-xfail")
    return ExpectedFailures.load(Path(path)) if path else ExpectedFailures.none()


@pytest.fixture(scope="session")
def conformance_options(request: pytest.FixtureRequest) -> dict:
    option = request.config.getoption
    profile = PROFILES[option("--conformance-profile")]
    if option("--conformance-kills") is not None:
        profile = dataclasses.replace(profile, kills=option("--conformance-kills"))
    return {
        "profile": profile,
        "examples": option("--conformance-examples"),
        "counterexamples": Path(option("--conformance-counterexamples")),
        "engine_flag": _engine_flag(option("--engine"), option("--engine-python")),
    }


def _engine_flag(command: str | None, python: str | None) -> str:
    if command:
        return f'--engine "{command}"'
    if python:
        return f'--engine-python "{python}"'
    return ""
