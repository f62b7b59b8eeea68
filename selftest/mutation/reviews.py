"""The reviewed list (``equivalent.txt``): mutants the suite is not asked to kill, with reasons.

One line per review, ``<target>  <kind>[ <citation>]: <reason>``:

* ``<target>`` is a mutant key ``<function>#<digest>`` (:mod:`selftest.mutation.keys`) or a
  function alone, which reviews every mutant of that function;
* ``<kind>`` is ``equivalent`` (no behaviour differs), ``not normative`` (the behaviour
  differs only where the docs leave it to the engine) or ``unreachable`` (no request of
  core-engine/1 can make the mutated code run or matter);
* a ``not normative`` review cites the row of the freedoms table of docs/spec.md that
  grants the difference (``FREE-NNN``) or, when no sentence of docs/ grants it, the spec
  gap it waits on (``GAP-NNN``, listed in ``open-gaps.txt``); a gap is not a verdict, so
  such a line documents the mutant but the score still counts it as a survivor.

A target that names no current mutant (the mutated lines or the function changed) is
**stale**: ``score check`` reports it; it never reviews anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from selftest.mutation.keys import Mutant

HERE = Path(__file__).resolve().parent
REVIEWS = HERE / "equivalent.txt"
GAPS = HERE / "open-gaps.txt"
KINDS = ("equivalent", "not normative", "unreachable")
LINE = re.compile(
    r"^(?P<target>\S+)\s+(?P<kind>equivalent|not normative|unreachable)"
    r"(?: (?P<cite>(?:FREE|GAP)-\d{3}))?: (?P<reason>\S.*)$"
)


@dataclass(frozen=True)
class Review:
    target: str
    kind: str
    cite: str | None
    reason: str
    line: int


class ReviewSyntaxError(ValueError):
    pass


def parse(text: str) -> list[Review]:
    """Every review line of *text*; ``#`` lines and blank lines are comments."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = LINE.match(line)
        if match is None:
            raise ReviewSyntaxError(f"equivalent.txt:{number}: not a review line: {line!r}")
        out.append(Review(match["target"], match["kind"], match["cite"], match["reason"], number))
    return out


def load(path: Path = REVIEWS) -> list[Review]:
    return parse(path.read_text("utf-8"))


def gap_ids(path: Path = GAPS) -> set[str]:
    """The ``GAP-NNN`` ids ``open-gaps.txt`` defines (a line starting with the id)."""
    return set(re.findall(r"^(GAP-\d{3})\b", path.read_text("utf-8"), re.MULTILINE))


def reviewed_names(reviews: list[Review], table: dict[str, Mutant]) -> dict[str, Review]:
    """mutmut name -> the review that covers it, for the mutants generated now. A review
    citing a spec gap covers nothing: until the gap is closed its mutants count as survivors."""
    by_key = {m.key: m.name for m in table.values()}
    by_function: dict[str, list[str]] = {}
    for mutant in table.values():
        by_function.setdefault(mutant.function, []).append(mutant.name)
    covered: dict[str, Review] = {}
    for review in reviews:
        if review.cite is not None and review.cite.startswith("GAP-"):
            continue
        if "#" in review.target:
            name = by_key.get(review.target)
            if name is not None:
                covered[name] = review
        else:
            for name in by_function.get(review.target, []):
                covered[name] = review
    return covered


def stale(reviews: list[Review], table: dict[str, Mutant]) -> list[Review]:
    """Reviews whose target names no mutant generated now."""
    keys = {m.key for m in table.values()}
    functions = {m.function for m in table.values()}
    return [
        r
        for r in reviews
        if (r.target not in keys if "#" in r.target else r.target not in functions)
    ]
