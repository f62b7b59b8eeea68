"""The cognition lane: cases, transcripts under a register, and the lane's metrics."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from reference.canonical import wire_json
from reference.runtime import ChatResponse, ChatRuntime, RuntimeConfig

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "lanes" / "cognition" / "cases"
REGISTERS = ("none", "default_neutral_v1", "terse_v1", "convivial_v1")
CLOSURE_BOUND = 1e-6
HOLDOUTS = ("holdout", "holdout2")
"""Sealed case sets: scored in aggregate only, changed only through a ratification."""
REFUSAL_OPENING = "I don't know"
_QUOTED_TERM = re.compile(r"(?<!\w)'[^']*'(?!\w)")


@dataclass(frozen=True)
class Turn:
    prompt: str
    expected_intent: str
    expected_terms: tuple[str, ...]
    expected_surface_contains: tuple[str, ...]


@dataclass(frozen=True)
class Case:
    """One cognition-lane case: a single prompt or a multi-turn script."""

    id: str
    category: str
    turns: tuple[Turn, ...]


def load_cases(name: str) -> tuple[Case, ...]:
    """Cases from ``lanes/cognition/cases/<name>.jsonl`` in file order."""
    cases = []
    for line in (CASES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        turns = tuple(
            Turn(
                t["prompt"],
                t["expected_intent"],
                tuple(t["expected_terms"]),
                tuple(t["expected_surface_contains"]),
            )
            for t in raw["turns"]
        )
        cases.append(Case(raw["id"], raw["category"], turns))
    return tuple(cases)


def register_id_of(register: str) -> str | None:
    """The register id a lane's register name stands for: ``"none"`` is no register."""
    return None if register == "none" else register


def run_case(case: Case, register: str) -> list[ChatResponse]:
    """Every turn of *case* in one fresh session under *register*."""
    runtime = ChatRuntime(RuntimeConfig(register_id=register_id_of(register)))
    return [runtime.chat(turn.prompt) for turn in case.turns]


def closure_class(condition: float) -> str:
    """A platform-stable description of a versor condition (a power-of-ten bound)."""
    for exponent in range(-12, -5):
        if condition < 10.0**exponent:
            return f"below 1e{exponent}"
    return f"ABOVE 1e-6 ({condition:.3e})"


def golden_record(case: Case, register: str, responses: Iterable[ChatResponse]) -> dict:
    """What the golden snapshot of one case under one register holds."""
    return {
        "case": case.id,
        "category": case.category,
        "register": register,
        "turns": [
            {
                "prompt": turn.prompt,
                "turn_idx": r.turn_idx,
                "intent": r.intent,
                "grounding_source": r.grounding_source,
                "trace_hash": r.trace_hash,
                "pre_decoration_surface": r.pre_decoration_surface,
                "surface": r.surface,
                "register_variant_id": r.register_variant_id,
                "versor_condition": closure_class(r.versor_condition),
            }
            for turn, r in zip(case.turns, responses, strict=True)
        ],
    }


@dataclass(frozen=True)
class Metrics:
    """Lane metrics for one register over a set of cases (rates in [0, 1])."""

    turns: int
    intent_accuracy: float
    term_capture: float
    groundedness: float
    closure: float
    deterministic: bool


def surface_grounded(turn: Turn, response: ChatResponse) -> bool:
    """Every expected fragment is in the surface; in a refusal, outside the quoted terms.

    A refusal ("I don't know 'river' yet ...") names what it could not ground; naming
    an expected word that way is not grounding it.
    """
    surface = response.surface
    if response.pre_decoration_surface.startswith(REFUSAL_OPENING):
        surface = _QUOTED_TERM.sub("''", surface)
    return all(fragment in surface for fragment in turn.expected_surface_contains)


def _rate(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def measure(cases: Iterable[Case], register: str) -> Metrics:
    """Run every case twice under *register* and score the first run."""
    intent = terms_hit = terms_total = grounded = closed = turns = 0
    deterministic = True
    for case in cases:
        first, second = run_case(case, register), run_case(case, register)
        deterministic &= [wire_json(r.as_json()) for r in first] == [
            wire_json(r.as_json()) for r in second
        ]
        for turn, response in zip(case.turns, first, strict=True):
            surface = response.surface.lower()
            turns += 1
            intent += response.intent == turn.expected_intent
            terms_total += len(turn.expected_terms)
            terms_hit += sum(term.lower() in surface for term in turn.expected_terms)
            grounded += surface_grounded(turn, response)
            closed += response.versor_condition < CLOSURE_BOUND
    return Metrics(
        turns,
        _rate(intent, turns),
        _rate(terms_hit, terms_total),
        _rate(grounded, turns),
        _rate(closed, turns),
        deterministic,
    )


def metrics_table(title: str, per_register: dict[str, Metrics]) -> str:
    """One table with the four registers side by side."""
    rows = [
        ("turns", lambda m: str(m.turns)),
        ("intent accuracy", lambda m: f"{m.intent_accuracy:.1%}"),
        ("term capture rate", lambda m: f"{m.term_capture:.1%}"),
        ("surface groundedness", lambda m: f"{m.groundedness:.1%}"),
        ("versor closure rate", lambda m: f"{m.closure:.1%}"),
        ("determinism (2 runs)", lambda m: "identical" if m.deterministic else "DIFFER"),
    ]
    header = f"{title:<22}" + "".join(f"{r:>20}" for r in per_register)
    lines = [header, "-" * len(header)]
    for label, cell in rows:
        lines.append(f"{label:<22}" + "".join(f"{cell(m):>20}" for m in per_register.values()))
    return "\n".join(lines)
