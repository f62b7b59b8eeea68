"""The order of a budgeted run's work: steps ranked by expected defect-finding per second.

A budgeted run (:mod:`conformance.budget`) cuts each requirement's work into steps: one
coverage case, the first generated example (or the one fixed check), or "the rest" (its
remaining cases and the examples the profile asks). :class:`Planner` hands out the next
step; it never runs anything, so its order can be checked without an engine.

Tiers, each finished (or left as not fitting) before the next starts:

0. **First look** (class coverage first): one step of every requirement, its most
   valuable case (:func:`conformance.case_value.by_value`, which prefers, among cases
   adding new classes, those that found defects before) or its first example. Ranked by
   value per estimated second, value being 1 plus :data:`HIT_WEIGHT` per recorded defect
   the step exposed (:mod:`conformance.case_history`): cheap looks, and looks that found
   defects before, come first.
1. **History**: every remaining case that found a defect before, by recorded defects
   per estimated second.
2. **Classes**: the remaining cases that add a class the requirement has not exercised,
   round-robin across requirements (every requirement's second case before any third),
   cheapest first.
3. **The rest**: one step per requirement for all it still asks (cases adding nothing
   new, then the generated examples), cheapest per example first, each within a fair
   share of the time left (:attr:`Step.share`).

A step's estimate is its requests (from the history's per-requirement costs) times the
engine's measured rates (:class:`Rates`), scaled by how far the steps run so far
over- or under-ran their estimates. A step of tiers 0-2 estimated to take longer than
the time left is not started: what it would have run is left out and reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.case_history import DEFAULT_EXAMPLE, CaseHistory, Cost
from conformance.case_value import by_value, weight
from conformance.coverage import Case

FIRST, HISTORY, CLASSES, REST = range(4)
HIT_WEIGHT = 4.0
"""What one recorded defect a step exposed adds to its value, against the 1 of a first
look at a requirement: a defect an engine had is likelier than one none had."""
TIER_NAMES = ("first look", "history", "classes", "rest")


@dataclass(frozen=True)
class Rates:
    """Seconds per request measured on the engine under test: a chat turn, any other."""

    chat: float
    other: float

    def seconds(self, cost: Cost) -> float:
        return cost.chat * self.chat + cost.other * self.other + cost.ms / 1000


@dataclass
class Track:
    """One requirement's work in a budgeted run, and what of it has run."""

    req_id: str
    cases: Sequence[Case]
    order: list[int]
    """Case indices, in the requirement's own order (most valuable first)."""
    hits: list[int]
    """Recorded defects each case (by index) exposed."""
    case_cost: Cost
    """Per unit of case weight."""
    example_cost: Cost
    example_hits: int
    examples_asked: int
    """Generated examples the profile asks (0: none; a fixed check counts 1)."""
    ran: list[int] = field(default_factory=list)
    tried: set[int] = field(default_factory=set)
    """Cases a step started (-1: the first example); a case cut mid-way is not tried
    again before tier 3."""
    first_example: bool = False
    """Whether a step ran the first example (or the fixed check) alone."""
    examples_ran: bool = False
    """Whether all the generated examples asked (or the fixed check) ran."""
    rested: bool = False
    """Whether its tier-3 step ran (one per requirement: what it left stays left)."""
    done: bool = False
    """Settled (failed, errored, not claimed) or everything ran."""

    @property
    def left(self) -> list[int]:
        return [i for i in self.order if i not in self.ran]

    def new_classes(self, index: int) -> int:
        seen = {c for i in self.ran for c in self.cases[i].classes}
        return len(set(self.cases[index].classes) - seen)

    def cost_of_case(self, index: int) -> Cost:
        return self.case_cost.times(weight(self.cases[index].scenario))

    def complete(self) -> bool:
        """Whether every case and every asked example has run."""
        return not self.left and (self.examples_asked == 0 or self.examples_ran)

    @property
    def started(self) -> bool:
        return bool(self.tried)

    def record(self, step: Step, cases_run: int, cut: bool, settled: bool) -> None:
        """What *step* ran: its first *cases_run* cases, its examples unless *cut*; the
        track is done when *settled* (a verdict other than pass) or complete."""
        self.tried.update(step.cases or (-1,))
        self.ran += [i for i in step.cases[:cases_run] if i not in self.ran]
        if step.first_example:
            self.first_example = True
        if step.examples and not cut:
            self.examples_ran = step.share or self.examples_asked <= 1
        self.rested = self.rested or step.share
        self.done = settled or self.complete()


@dataclass(frozen=True)
class Step:
    """One unit of a budgeted run's work."""

    track: Track
    tier: int
    cases: tuple[int, ...]
    """Case indices to run, in order."""
    examples: bool
    """Whether the generated examples (all the profile asks) run after the cases."""
    first_example: bool = False
    """Only the first generated example (or the fixed check)."""
    estimate_s: float = 0.0
    share: bool = False
    """Tier 3: the step gets a fair share of the time left, not its estimate."""


def track_for(
    req_id: str,
    cases: Sequence[Case],
    history: CaseHistory,
    examples_asked: int,
    example_prior: Cost | None = None,
) -> Track:
    """A requirement's track: its cases in value order (history breaking ties); an
    example costs what the history says, else *example_prior*, else the default."""
    hits = [history.hits(req_id, case.scenario) for case in cases]
    return Track(
        req_id,
        cases,
        by_value(cases, hits),
        hits,
        history.case_cost(req_id),
        history.example_cost(req_id, example_prior or DEFAULT_EXAMPLE),
        history.example_hits(req_id),
        examples_asked,
    )


@dataclass
class Planner:
    """Hands out the next step of a budgeted run (see the module docstring)."""

    tracks: list[Track]
    rates: Rates
    estimated_s: float = 0.0
    actual_s: float = 0.0

    @property
    def drift(self) -> float:
        """How much slower than estimated the steps ran so far (1 until a second of
        estimates has run; kept within [1/4, 4])."""
        if self.estimated_s < 1.0:
            return 1.0
        return min(4.0, max(0.25, self.actual_s / self.estimated_s))

    def seconds(self, cost: Cost) -> float:
        return self.rates.seconds(cost) * self.drift

    def ran(self, step: Step, seconds: float) -> None:
        """Account a finished step's time against its estimate."""
        if not step.share:
            self.estimated_s += step.estimate_s
            self.actual_s += seconds

    def next_step(self, left_s: float) -> Step | None:
        """The most valuable step that fits in *left_s* seconds, or None."""
        for tier in (FIRST, HISTORY, CLASSES):
            steps = [s for s in self._candidates(tier) if s.estimate_s <= left_s]
            if steps:
                return min(steps, key=lambda s: self._rank(s))
        rest = [s for s in self._candidates(REST)]
        return min(rest, key=lambda s: self._rank(s)) if rest else None

    def waiting(self) -> int:
        """Tier-3 steps still to run (the fair share of the time left divides by it)."""
        return len(self._candidates(REST))

    def _candidates(self, tier: int) -> list[Step]:
        steps = []
        for track in self.tracks:
            if track.done:
                continue
            fresh = [i for i in track.left if i not in track.tried]
            if tier == FIRST and not track.started:
                steps.append(self._first(track))
            elif tier == HISTORY and track.started:
                steps += [self._case(track, i, HISTORY) for i in fresh if track.hits[i]]
            elif tier == CLASSES and track.started:
                steps += [self._case(track, i, CLASSES) for i in fresh if track.new_classes(i)][:1]
            elif tier == REST and track.started and not track.rested and not track.complete():
                steps.append(self._rest(track))
        return steps

    def _first(self, track: Track) -> Step:
        if track.order:
            return self._case(track, track.order[0], FIRST)
        estimate = self.seconds(track.example_cost)
        return Step(track, FIRST, (), examples=True, first_example=True, estimate_s=estimate)

    def _case(self, track: Track, index: int, tier: int) -> Step:
        estimate = self.seconds(track.cost_of_case(index))
        return Step(track, tier, (index,), examples=False, estimate_s=estimate)

    def _rest(self, track: Track) -> Step:
        units = sum(weight(track.cases[i].scenario) for i in track.left)
        cost = track.case_cost.times(units)
        examples = track.example_cost.times(track.examples_asked)
        estimate = self.seconds(cost) + self.seconds(examples)
        return Step(track, REST, tuple(track.left), examples=True, estimate_s=estimate, share=True)

    def _rank(self, step: Step) -> tuple[Any, ...]:
        """Smaller is sooner: seconds per unit of value (tiers 0 and 1), then round and
        seconds per new class (tier 2), or seconds per example (tier 3); then the id."""
        track = step.track
        seconds = max(step.estimate_s, 1e-6)
        if step.tier == FIRST:
            hits = track.example_hits if step.first_example else track.hits[step.cases[0]]
            return (seconds / (1 + HIT_WEIGHT * hits), track.req_id)
        if step.tier == HISTORY:
            return (seconds / track.hits[step.cases[0]], track.req_id)
        if step.tier == CLASSES:
            new = track.new_classes(step.cases[0])
            return (len(track.ran), seconds / new, track.req_id)
        bodies = len(step.cases) + track.examples_asked
        return (seconds / max(1, bodies), track.req_id)
