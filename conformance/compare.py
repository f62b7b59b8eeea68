"""Several engines certified in one run, side by side (``python -m conformance compare``).

``compare`` certifies each engine in turn through :func:`conformance.api.certify`, on
the same selection and profile, writing each engine's report directory under one
directory (named by the engine's label), and returns the reports and their matrix
(:mod:`conformance.report.matrix`). ``engine_runs`` reads report directories back for
``python -m conformance report``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import api
from conformance.report.matrix import EngineRun, build_matrix, slug


@dataclass(frozen=True)
class Comparison:
    """The engines' reports (in the order given) and their matrix (plain data)."""

    reports: tuple[api.Report, ...]
    runs: tuple[EngineRun, ...]
    matrix: dict[str, Any]

    @property
    def verdict(self) -> str:
        """The worst engine's run verdict."""
        verdict: str = self.matrix["verdict"]
        return verdict

    @property
    def exit_status(self) -> int:
        return api.EXIT_FOR_VERDICT[self.verdict]


def labels(engines: Sequence[api.Engine]) -> list[str]:
    """A distinct short label per engine, from its command or factory, in order."""
    taken: list[str] = []
    for engine in engines:
        name = engine.command or (f"python:{engine.python}" if engine.python else "reference")
        taken.append(slug(name, taken))
    return taken


def compare(
    engines: Sequence[api.Engine],
    report_dir: str | Path,
    selection: api.Selection | Sequence[str] | None = None,
    profile: str = "ci",
    *,
    examples: int | None = None,
    kills: int | None = None,
    workers: int = 1,
    on_engine: Callable[[str, api.Report], None] = lambda label, report: None,
) -> Comparison:
    """Certify each of *engines* on the same *selection* and *profile* (as
    :func:`conformance.api.certify`), writing ``<report_dir>/<label>/`` for each; return
    the reports and their matrix. Every input is checked before the first engine runs.
    *on_engine* is called with each engine's label and report as it finishes."""
    if len(engines) < 1:
        raise api.ConformanceError("NO_ENGINE", "engines: name at least one engine to compare")
    root = api.check_report_dir(report_dir)
    names = labels(engines)
    plans = [
        api.plan(
            engine,
            selection,
            profile,
            examples=examples,
            kills=kills,
            workers=workers,
            report_dir=root / name,
        )
        for engine, name in zip(engines, names, strict=True)
    ]
    reports = []
    for name, run in zip(names, plans, strict=True):
        report = api.execute(run)
        on_engine(name, report)
        reports.append(report)
    runs = [
        EngineRun(name, dict(report.data), str(Path(report_dir) / name))
        for name, report in zip(names, reports, strict=True)
    ]
    return Comparison(tuple(reports), tuple(runs), build_matrix(runs))


class ReportDirError(ValueError):
    """A directory given to ``report`` that holds no readable report.json."""


def _read(directory: Path) -> dict[str, Any]:
    from conformance.inputs import InputFileError, display, read_input
    from conformance.report.validation import problem

    path = directory / "report.json"
    try:
        report: dict[str, Any] = read_input(path, None, "a report.json")
    except InputFileError as exc:
        raise ReportDirError(str(exc)) from None
    mismatch = problem("report", report)
    if mismatch:
        raise ReportDirError(f"{display(path)}: not a conformance report ({mismatch})")
    return report


def engine_runs(directories: Sequence[str]) -> list[EngineRun]:
    """The engine reports in *directories*, in order: a directory with a report.json is
    one engine's; one without is read as a ``compare`` directory (each subdirectory with
    a report.json, by name). Labels are the directory names, made distinct."""
    runs: list[EngineRun] = []
    for given in directories:
        path = Path(given)
        if (path / "report.json").is_file():
            found = [(path, given)]
        elif path.is_dir():
            found = [
                (sub, str(Path(given) / sub.name))
                for sub in sorted(path.iterdir())
                if (sub / "report.json").is_file()
            ]
            if not found:
                raise ReportDirError(f"{given}: no report.json in it or its subdirectories")
        else:
            raise ReportDirError(f"{given}: not a report directory")
        for directory, shown in found:
            label = slug(directory.resolve().name, [r.label for r in runs])
            runs.append(EngineRun(label, _read(directory), shown))
    return runs


def counterexamples(run: EngineRun) -> dict[str, Any]:
    """The counterexample files a report names, by path relative to its directory (a file
    that cannot be read is left out)."""
    from conformance.canonical import RefusedJSON, read_json

    found: dict[str, Any] = {}
    for result in run.report.get("results", []):
        paths = [c.get("path") for c in result.get("counterexamples") or []]
        for name in [result.get("counterexample"), *paths]:
            if not isinstance(name, str) or name in found:
                continue
            try:
                found[name] = read_json((Path(run.directory) / name).read_bytes())
            except (OSError, RefusedJSON):
                continue
    return found


def as_json(matrix: dict[str, Any]) -> str:
    """``compare --format json``: the matrix as one JSON document."""
    return json.dumps(matrix, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
