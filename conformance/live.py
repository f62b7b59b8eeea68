"""The report of a run while it runs: rewritten as requirements end.

:class:`LiveReport` collects outcomes as the run streams them and rewrites
``report.json`` (compact JSON; the final one is indented) and ``certificate.md``, each
by an atomic rename, as requirements end (at most once a second, and at most 5% of the
run's time), with ``scope.ended`` ``running``: a run stopped at any moment, even by
SIGKILL, leaves a valid report that is at best PARTIAL. A stop signal turns it into the
final report of the run (``scope.ended`` ``interrupted``), written with every file of a
full report.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.certify import (
    _write,
    scoped_report,
    write_counterexamples,
    write_report,
)
from conformance.engines import EngineClient, EngineFault
from conformance.report.certificate import render_certificate
from conformance.report.expected import ExpectedFailures
from conformance.report.plain import to_plain
from conformance.requirements import Requirement
from conformance.runner import Outcome, Profile

REWRITE_S = 1.0
"""The running report is rewritten at most this often (the final one always)..."""
WRITE_SHARE = 20
"""... and at most once per this many times its last write took, so rewriting costs a
run no more than 5% of its time whatever the size of the report and the machine."""

Pairs = Sequence[tuple[Requirement, Outcome]]


@dataclass
class LiveReport:
    """Outcomes so far of the selected *requirements*, and the files that show them."""

    directory: Path
    engine: EngineClient
    requirements: list[Requirement]
    profile: Profile
    expected: ExpectedFailures
    options: dict[str, Any] | None = None
    max_examples: int | None = None
    plan: Mapping[str, tuple[Profile, int | None]] | None = None
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    problems: list[str] = field(default_factory=list)
    cleared: bool = False
    interval: float = REWRITE_S
    write_s: float = 0.0
    written: float = float("-inf")

    @property
    def pairs(self) -> list[tuple[Requirement, Outcome]]:
        """(requirement, outcome) so far, in selection order."""
        return [(r, self.outcomes[r.id]) for r in self.requirements if r.id in self.outcomes]

    def add(self, req: Requirement, outcome: Outcome) -> None:
        """Record an outcome and rewrite the report, at most once per ``interval`` seconds
        (a fast engine ends many requirements a second); its counterexamples are written
        at once. A write that fails is noted once."""
        self.outcomes[req.id] = outcome
        now = time.monotonic()
        due = now - self.written >= max(self.interval, WRITE_SHARE * self.write_s)
        try:
            if not due:
                clear, self.cleared = not self.cleared, True
                report = {
                    "engine": {"command": self.engine.description},
                    "options": self.options or {},
                }
                self.problems += write_counterexamples(
                    report, [(req, outcome)], self.directory, clear=clear
                )
                return
            self.written = now
            self.write("running", durable=False, fresh=[(req, outcome)])
            self.write_s = time.monotonic() - now
        except OSError as exc:
            note = f"{self.directory}: the running report could not be written: {exc}"
            if note not in self.problems:
                self.problems.append(note)

    def report(self, ended: str) -> dict[str, Any]:
        """The report of the outcomes so far; *ended* is ``running`` or ``interrupted``."""
        return scoped_report(
            self.engine,
            self._hello(),
            self.requirements,
            self.pairs,
            profile=self.profile,
            expected=self.expected,
            options=self.options,
            max_examples=self.max_examples,
            plan=self.plan,
            ended=ended,
        )

    def write(self, ended: str, *, durable: bool, fresh: Pairs = ()) -> dict[str, Any]:
        """Write the report of the outcomes so far; the final one (*durable*) with every
        file of a full report, a running one as report.json and certificate.md (and the
        counterexamples of the *fresh* outcomes; the first clears a past run's)."""
        report = self.report(ended)
        if durable:
            self.problems += write_report(report, self.pairs, self.directory)
            return report
        self.directory.mkdir(parents=True, exist_ok=True)
        clear, self.cleared = not self.cleared, True
        self.problems += write_counterexamples(report, list(fresh), self.directory, clear=clear)
        compact = json.dumps(to_plain(report), ensure_ascii=False, allow_nan=False) + "\n"
        _write(self.directory / "report.json", compact, durable=False)
        certificate = render_certificate(report, str(self.directory))
        _write(self.directory / "certificate.md", certificate, durable=False)
        return report

    def progress(self) -> str:
        """A heartbeat line: how far the run is and how long it has been going."""
        done, total = len(self.outcomes), len(self.requirements)
        return (
            f"... running: {done} of {total} requirements done, "
            f"{int(time.monotonic() - self.started)} s"
        )

    def _hello(self) -> dict[str, Any]:
        try:
            return self.engine.hello()
        except EngineFault:
            return {}
