"""Maintainer sessions. ``nox -s conformance`` is the main job; ``nox -s tests`` runs the tests."""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["conformance", "tests", "lint"]
nox.options.reuse_existing_virtualenvs = True


def _install(session: nox.Session) -> None:
    session.install("-e", ".[test]")


@nox.session
def conformance(session: nox.Session) -> None:
    """Certify the reference engine over the subprocess protocol; print the certificate."""
    _install(session)
    session.run(
        "python",
        "-m",
        "conformance",
        "certify",
        "--engine",
        "python -m reference serve",
        "--report",
        "out/conformance",
        *session.posargs,
    )


@nox.session
def tests(session: nox.Session) -> None:
    """Every lane and the suite's self-test, in parallel."""
    _install(session)
    session.run(
        "pytest",
        "-n",
        "auto",
        "-p",
        "no:cacheprovider",
        "lanes/",
        "conformance/selftest/",
        *session.posargs,
    )


@nox.session
def lanes(session: nox.Session) -> None:
    """One curated lane by name (``nox -s lanes -- runtime``), or all of them."""
    _install(session)
    names = session.posargs or [""]
    session.run("pytest", "-n", "auto", *(f"lanes/{name}" for name in names))


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def demo(session: nox.Session) -> None:
    """A scripted chat, then the register tour across the four registers."""
    _install(session)
    session.run("python", "-m", "reference", "demo")
    session.run("python", "-m", "reference", "demo", "register-tour")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: medians and ratios, measured in one run."""
    _install(session)
    session.run("python", "tools/bench.py", *session.posargs)
    session.run("python", "tools/bench_algebra.py")


@nox.session
def cognition(session: nox.Session) -> None:
    """Cognition lane metrics, the four registers side by side (holdout in aggregate)."""
    _install(session)
    session.run("python", "tools/cognition_report.py")


@nox.session
def golden(session: nox.Session) -> None:
    """Ratify a golden change: ``nox -s golden -- --ratify ID --reason TEXT``."""
    _install(session)
    session.run("python", "tools/ratify_golden.py", *session.posargs)


@nox.session
def mutation(session: nox.Session) -> None:
    """Mutation score of the suite alone over the reference: ``nox -s mutation [-- sample]``.

    With no argument every mutant of reference/registers, realize, protocol and state is
    run. ``-- sample`` runs only the fixed sample in conformance/mutation/sample.txt (what
    CI runs) and fails if one of them survives. The score table is printed at the end.
    """
    _install(session)
    session.install("mutmut>=3.3,<4")
    if session.posargs[:1] == ["sample"]:
        sample = Path("conformance/mutation/sample.txt").read_text(encoding="utf-8").split()
        session.run("mutmut", "run", "--max-children", "2", *sample)
        session.run("python", "-m", "conformance.mutation.score", "report")
        session.run("python", "-m", "conformance.mutation.score", "check", *sample)
        return
    session.run("mutmut", "run", "--max-children", "2")
    session.run("python", "-m", "conformance.mutation.score", "report")
