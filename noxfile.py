"""Maintainer sessions. ``nox -s conformance`` is the main job; ``nox -s tests`` runs the tests.

Virtualenvs are built with uv when it is installed (next to nox or on PATH), else with venv.
"""

from __future__ import annotations

import os
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv|venv"
nox.options.sessions = ["conformance", "tests", "lint"]
nox.options.reuse_existing_virtualenvs = True


EDITABLE = ("--config-settings", "editable_mode=compat")
"""A path entry in a ``.pth`` file, not an import hook: every engine process starts faster."""


def _install(session: nox.Session, extras: str = "test") -> None:
    # uv installs without bytecode unless asked, and PYTHONDONTWRITEBYTECODE (set on this
    # machine) keeps Python from caching it: every process would compile numpy, hypothesis
    # and the rest from source at each start.
    session.env["UV_COMPILE_BYTECODE"] = "1"
    session.install("-e", f".[{extras}]", *EDITABLE)
    # Engine processes (hundreds per certification) then read bytecode instead of
    # compiling the sources at every start, even where PYTHONDONTWRITEBYTECODE is set.
    session.run("python", "-m", "compileall", "-q", "reference", "conformance")


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
def ports(session: nox.Session) -> None:
    """The Node.js port: its tests, then certification over stdio, in full and with the
    algebra capability alone (an algebra substrate is certified on algebra); the report
    page of both (and of the reference's run, when there is one) in out/ports/index.html."""
    _install(session)
    session.run("node", "--test", "ports/node/test/", external=True)
    for name, command in (
        ("node", "node ports/node/engine.js"),
        ("node-algebra", "node ports/node/engine.js --only algebra"),
    ):
        session.run(
            "python",
            "-m",
            "conformance",
            "certify",
            "--engine",
            command,
            "--strict",
            "--report",
            f"out/ports/{name}",
            *session.posargs,
        )
    # The reports side by side on one page, with the reference's when nox -s conformance
    # wrote one (CI runs it first).
    reference = ["out/conformance"] if Path("out/conformance/report.json").is_file() else []
    directories = [*reference, "out/ports/node", "out/ports/node-algebra"]
    html = "out/ports/index.html"
    session.run("python", "-m", "conformance", "report", *directories, "--html", html)


PYTEST_ENV = {"PYTHONDONTWRITEBYTECODE": ""}
"""pytest rewrites the asserts of every package of a distribution that registers a plugin
(hypothesis, this project) and caches the result as bytecode; where PYTHONDONTWRITEBYTECODE
is set that cache is never written, and every pytest process, xdist worker and pytest
subprocess rewrites them all again (seconds each)."""


@nox.session
def tests(session: nox.Session) -> None:
    """Every lane and the suite's self-test, in parallel; the slowest tests are listed.

    The browser extra drives the report page's lane in Debian's headless Chromium
    (``apt-get install chromium chromium-driver``; .ci/run installs them). The completion
    extra lets the shell-completion lane run rather than skip.

    ``--dist worksteal`` lets an idle worker take queued tests from a busy one, so a few
    long tests do not leave the other cores idle at the end of the run.
    """
    _install(session, "test,browser,mutation,completion")
    session.run(
        "pytest",
        "-n",
        "auto",
        "--dist",
        "worksteal",
        "--durations",
        "20",
        "-p",
        "no:cacheprovider",
        "lanes/",
        "selftest/",
        *session.posargs,
        env=PYTEST_ENV,
    )


@nox.session
def lanes(session: nox.Session) -> None:
    """One curated lane by name (``nox -s lanes -- runtime``), or all of them."""
    _install(session, "test,browser")
    names = session.posargs or [""]
    lanes = (f"lanes/{name}" for name in names)
    session.run("pytest", "-n", "auto", "--dist", "worksteal", *lanes, env=PYTEST_ENV)


@nox.session
def campaign(session: nox.Session) -> None:
    """The campaign lane (shards, merge, budgets, Dask campaigns) with the campaign extra."""
    _install(session, "test,campaign")
    session.run(
        "pytest", "-p", "no:cacheprovider", "lanes/campaign", *session.posargs, env=PYTEST_ENV
    )


@nox.session
def docfigures(session: nox.Session) -> None:
    """Rewrite the marked figures in README.md and docs/ (``-- --check``: report stale ones)."""
    _install(session)
    session.run("python", "-m", "tools.docfigures", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, the architecture contracts (import-linter) and
    mypy --strict on the engine (settings in pyproject.toml's [tool.mypy])."""
    session.install("-e", ".[lint]", *EDITABLE)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("lint-imports")
    session.run("mypy")


@nox.session
def demo(session: nox.Session) -> None:
    """A scripted chat, then the register tour across the four registers."""
    _install(session)
    session.run("python", "-m", "reference", "demo")
    session.run("python", "-m", "reference", "demo", "register-tour")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: medians and ratios, measured in one run, recorded in docs/figures/*.json
    and rendered into docs/benchmarks.md (commit both)."""
    _install(session)
    session.run("python", "-m", "tools.bench", *session.posargs)
    session.run("python", "-m", "tools.bench_anchors")
    session.run("python", "-m", "tools.bench_session")
    session.run("python", "-m", "tools.bench_algebra")
    session.run("python", "-m", "tools.bench_tests")
    session.run("python", "-m", "tools.bench_instructions")
    session.run("python", "-m", "tools.docfigures")


@nox.session
def soak(session: nox.Session) -> None:
    """The no-drift soak of one continuous life (not in CI): ``nox -s soak -- --turns 100000
    --kills 100 --record``, then ``python -m tools.docfigures``
    renders the figures into docs/benchmarks.md. One engine and its driver take turns, so it
    holds about one core."""
    _install(session)
    session.run(
        "nice", "-n", "15", "python", "-m", "tools.soak_life", *session.posargs, external=True
    )


@nox.session
def cognition(session: nox.Session) -> None:
    """Cognition lane metrics, the four registers side by side (holdout in aggregate)."""
    _install(session)
    session.run("python", "-m", "tools.cognition_report")


@nox.session
def golden(session: nox.Session) -> None:
    """Ratify a golden change: ``nox -s golden -- --ratify ID --reason TEXT``."""
    _install(session)
    session.run("python", "-m", "tools.ratify_golden", *session.posargs)


@nox.session
def mutation(session: nox.Session) -> None:
    """Mutation score of the suite alone over reference/: ``nox -s mutation [-- MODE]``.

    Every run first generates the mutants and gives back to mutmut each stored verdict that
    still holds (``selftest/mutation/verdicts.json``, keyed by mutant key, function source
    hash and suite hash), so unchanged code is not run again; at the end it stores the new
    verdicts and prints the score table. Modes:

    * none: every mutant without a verdict;
    * ``pending`` (or ``unreviewed``): only the mutants the score still needs (not reviewed,
      not run or reached by no test);
    * ``sample [BASE]``: the CI sample, ``sample.txt`` plus the mutants of every function
      changed since BASE (default ``$CORE_MUTATION_BASE``, else ``HEAD~1``: on main, what
      the last merge changed; at most 40 of them) plus a weekly
      rotating set of stored kills; fails if one survives, never runs or is stale.

    * ``fast [PATTERN ...]``: the mutants matching the patterns (fnmatch on mutmut names,
      default every one) without a verdict, certified by :mod:`selftest.mutation.fastrun`
      (the requirements that reach the mutated function only, in one warm process; it
      records again who reaches what first when that record is missing or stale).

    * ``node [STRYKER ARGS]``: the Node engine under StrykerJS (``npm ci`` in ports/node
      first), each mutant certified by the suite (docs/mutation.md § Node engine).

    ``$CORE_MUTATION_CHILDREN`` sets mutmut's ``--max-children`` (default 2).
    """
    if session.posargs[:1] == ["node"]:
        _install(session)
        _mutate_node(session)
        return
    _install(session, "test,mutation")
    children = os.environ.get("CORE_MUTATION_CHILDREN", "2")
    score = ("python", "-m", "selftest.mutation.score")
    mode = session.posargs[:1]
    session.run("python", "-m", "selftest.mutation.generate")
    session.run(*score, "recall")
    if mode == ["sample"]:
        default = os.environ.get("CORE_MUTATION_BASE", "HEAD~1")
        base = session.posargs[1] if len(session.posargs) > 1 else default
        output = str(session.run(*score, "sample", base, silent=True)).split()
        names = [n for n in output if n.startswith("reference.") and "#" not in n]
        session.run("mutmut", "run", "--max-children", children, *names)
        session.run(*score, "remember")
        session.run(*score, "check", *names)
        return
    if mode == ["fast"]:
        session.run("python", "-m", "selftest.mutation.fastrun", "run", *session.posargs[1:])
        session.run(*score, "remember")
        session.run(*score, "figures")
        session.run(*score, "report")
        return
    if mode in (["pending"], ["unreviewed"]):
        output = str(session.run(*score, "pending", silent=True)).split()
        names = [n for n in output if n.startswith("reference.")]
        if names:
            session.run("mutmut", "run", "--max-children", children, *names)
    else:
        session.run("mutmut", "run", "--max-children", children)
    session.run(*score, "remember")
    session.run(*score, "report")


def _mutate_node(session: nox.Session) -> None:
    """StrykerJS over ports/node; each mutant certified by ``python -m selftest.mutation.node``."""
    root = Path(__file__).resolve().parent
    session.run("npm", "ci", "--no-audit", "--no-fund", "--prefix", "ports/node", external=True)
    env = {"PYTHONPATH": str(root)}
    with session.chdir("ports/node"):
        session.run("npx", "stryker", "run", *session.posargs[1:], external=True, env=env)
