"""Two bad mutations of different kinds in one state.apply batch: the refusal names the first
(docs/state.md § Refusals: "Of a batch with several bad mutations, the refusal names the
first (the lowest *i*)").

Each fault of STATE-APPLY-002 is paired with a fault of another kind, in both orders: a
malformed record before an unknown op, a missing member after a bad key, and so on. A port
that checks every mutation's shape before any put's record, or that validates puts before
deletes, names the later mutation in some pair.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.state_apply import BAD_MUTATIONS
from conformance.state.driver import scratch

TURN: dict[str, Any] = {"op": "turn"}
SHAPE_FAULT, OTHER_SHAPE_FAULT = "unknown op", "mutation not an object"
RECORD_FAULT, OTHER_RECORD_FAULT = "record missing a field", "record status unknown"


def _later(first: str) -> str:
    return OTHER_SHAPE_FAULT if first == SHAPE_FAULT else SHAPE_FAULT


def _earlier(second: str) -> str:
    return OTHER_RECORD_FAULT if second == RECORD_FAULT else RECORD_FAULT


PAIRS = sorted(
    {(name, _later(name)) for name in BAD_MUTATIONS}
    | {(_earlier(name), name) for name in BAD_MUTATIONS}
)
"""Every fault before a shape fault, and after a record fault."""

pairs = st.tuples(
    st.sampled_from(sorted(BAD_MUTATIONS)), st.sampled_from(sorted(BAD_MUTATIONS))
).filter(lambda pair: pair[0] != pair[1])


@requirement(
    "STATE-MUTORDER-002",
    "state.apply with two bad mutations of different kinds (any fault of a record, a delete, "
    "a member or an op, in either order, valid turns around them) names the first: "
    "STATE_BAD_MUTATION at mutations[i] of the lowest i",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Refusals (of a batch with several bad mutations, the refusal names "
    "the first, the lowest i)",
    strategy=lambda ctx: st.tuples(
        pairs, st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)
    ).map(lambda drawn: [list(drawn[0]), *drawn[1:]]),
    cover=coverage.each("two bad mutations", [[list(pair), 1, 0, 1] for pair in PAIRS]),
)
def first_of_two_faults_named(engine: EngineClient, case: list[Any]) -> None:
    (first, second), lead, gap, tail = case
    first_bad, first_path = BAD_MUTATIONS[first]
    second_bad, _ = BAD_MUTATIONS[second]
    batch: list[Any] = [*[TURN] * lead, first_bad, *[TURN] * gap, second_bad, *[TURN] * tail]
    want = f"mutations[{lead}]{first_path}"
    with scratch() as workdir:
        store = engine.call("state.open", {"dir": str(workdir / "state")})["store"]
        try:
            engine.call("state.apply", {"store": store, "mutations": batch}, checked=False)
        except EngineRefused as refusal:
            got = (refusal.code, refusal.field)
        else:
            got = ("applied", None)
        finally:
            engine.call("state.close", {"store": store})
    assert got == ("STATE_BAD_MUTATION", want), (
        f"{first} at {lead}, then {second} at {lead + gap + 1}: answered {got[0]} naming "
        f"{got[1]!r}; the docs say STATE_BAD_MUTATION naming the first bad mutation, {want!r}"
    )
