"""Failures over many cases, as a person reads them: one case per line, worst first, capped
with a count of what was left out, and every kind of disagreement shown at least once.

A requirement that judges many cases (the cognition corpus, crash states, injected
faults) collects what went wrong per case and raises one ``AssertionError`` whose message
:func:`listing` (or :func:`lines`, for plain strings) builds: a header line, then one
line per case shown. Kinds are ordered by how many cases share them (a systematic defect
first), so the cases that decide the verdict lead and are never the ones cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAX_LINES = 12
"""Case lines shown under a header; the rest are counted (every one is in report.json's
counterexample transcript)."""
MAX_LINE = 240
"""Characters of one case line; a longer one ends in an ellipsis."""


@dataclass(frozen=True)
class Disagreement:
    """One case that went wrong: its id, the kind of disagreement (cases of one kind share
    a cause: ``intent 'CORRECTION', labeled 'DEFINITION'``), the case in brief, and a
    rank among cases of its kind (lower first: a one-turn case before a longer one)."""

    case: str
    kind: str
    detail: str = ""
    rank: int = 0

    def line(self) -> str:
        text = f"{self.case}: {self.kind}" + (f" ({self.detail})" if self.detail else "")
        return _cut(text)


def _cut(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_LINE else flat[: MAX_LINE - 3] + "..."


def ordered(found: Sequence[Disagreement]) -> list[Disagreement]:
    """Worst first: kinds by how many cases share them (most first), then each kind's
    cases by rank and id; a kind's first case is shown before any kind's second."""
    by_kind: dict[str, list[Disagreement]] = {}
    for item in found:
        by_kind.setdefault(item.kind, []).append(item)
    kinds = sorted(by_kind.values(), key=lambda group: (-len(group), group[0].kind))
    for group in kinds:
        group.sort(key=lambda d: (d.rank, d.case))
    leaders = [group[0] for group in kinds]
    rest = [d for group in kinds for d in group[1:]]
    return leaders + rest


def listing(header: str, found: Sequence[Disagreement], cap: int = MAX_LINES) -> str:
    """*header*, then one line per case, worst first, at most *cap* lines and a count."""
    chosen = ordered(found)
    kinds = {d.kind: sum(1 for e in found if e.kind == d.kind) for d in chosen}
    shown = chosen[:cap]
    body = []
    for item in shown:
        share = kinds[item.kind]
        suffix = (
            f" [{share} cases of this kind]" if share > 1 and item is _first(chosen, item) else ""
        )
        body.append(f"- {item.line()}{suffix}")
    left = len(chosen) - len(shown)
    if left:
        hidden = len({d.kind for d in chosen[cap:]} - {d.kind for d in shown})
        more = f", {hidden} more kind(s)" if hidden else ""
        body.append(f"- ... and {left} more case(s){more}")
    return "\n".join([header, *body])


def _first(chosen: list[Disagreement], item: Disagreement) -> Disagreement:
    return next(d for d in chosen if d.kind == item.kind)


def lines(found: Sequence[str], header: str = "", cap: int = MAX_LINES) -> str:
    """Plain problem strings one per line, in the order given (the caller puts the worst
    first), at most *cap* and a count; *header* (default: how many) leads."""
    body = [f"- {_cut(text)}" for text in found[:cap]]
    if len(found) > cap:
        body.append(f"- ... and {len(found) - cap} more")
    return "\n".join([header or f"{len(found)} problem(s):", *body])


def readable(message: str, max_lines: int = MAX_LINES + 2, max_chars: int = 2000) -> str:
    """*message* for a terminal: whole lines only, at most *max_lines* and *max_chars*,
    and a count of the lines left out."""
    all_lines = message.splitlines() or [""]
    kept: list[str] = []
    size = 0
    for line in all_lines:
        if len(kept) == max_lines or (kept and size + len(line) > max_chars):
            break
        kept.append(line if len(line) <= max_chars else line[: max_chars - 3] + "...")
        size += len(line) + 1
    left = len(all_lines) - len(kept)
    return "\n".join(kept + ([f"  ({left} more line(s) in report.json)"] if left else []))
