"""Two faults of one kind at once, where the docs order them within a step.

docs/protocol.md § Error codes: of several unknown argument names the first in sorted
order answers; of several missing arguments the first the op's ``Args``
lists answers; of several mistyped ones any may be named (free), but one of them is;
every argument check comes before the op itself (``algebra.rotor``'s bivector rule, a
state op's store handle). docs/state.md § Refusals: of several bad mutations the first
is named.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

WITHIN = "docs/protocol.md § Error codes (within these steps)"

SEED_ARGS: dict[str, Any] = {"trace_hash": "0" * 64, "register_id": "r", "turn_idx": 0}
SELECT: dict[str, Any] = {"bucket": ["a"], **SEED_ARGS, "bucket_name": "openings"}
DECORATE: dict[str, Any] = {
    "surface": "s",
    "discourse_markers": {"openings": ["o"], "closings": []},
    "register_id": "r",
    "trace_hash": "0" * 64,
    "turn_idx": 0,
}


def _drop(args: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k not in names}


MISSING: dict[str, tuple[str, EncodableObject, str]] = {
    "variation.select without trace_hash and bucket_name": (
        "variation.select",
        _drop(SELECT, "trace_hash", "bucket_name"),
        "trace_hash",
    ),
    "variation.select without bucket_name and turn_idx": (
        "variation.select",
        _drop(SELECT, "bucket_name", "turn_idx"),
        "turn_idx",
    ),
    "variation.decorate without turn_idx and register_id": (
        "variation.decorate",
        _drop(DECORATE, "turn_idx", "register_id"),
        "register_id",
    ),
    "variation.decorate without trace_hash and discourse_markers": (
        "variation.decorate",
        _drop(DECORATE, "trace_hash", "discourse_markers"),
        "discourse_markers",
    ),
    "session.chat without session and text": ("session.chat", {}, "session"),
}
"""Two missing arguments: the first in the op's Args order answers."""

UNKNOWN: dict[str, tuple[str, EncodableObject, str]] = {
    "variation.select with unknown zz then aa (sorted: aa)": (
        "variation.select",
        {**SELECT, "zz": 1, "aa": 2},
        "aa",
    ),
    "session.chat with unknown text_ and Text (sorted by code point: Text)": (
        "session.chat",
        {"text_": 1, "Text": 2, "session": "never-opened", "text": "t"},
        "Text",
    ),
}
"""Two unknown argument names, the later one sent first: the first in sorted order answers."""

MISTYPED: dict[str, tuple[str, EncodableObject, frozenset[str]]] = {
    "variation.select with bucket a string and turn_idx a bool": (
        "variation.select",
        {**SELECT, "bucket": "a", "turn_idx": True},
        frozenset({"bucket", "turn_idx"}),
    ),
    "variation.decorate with surface a number and trace_hash null": (
        "variation.decorate",
        {**DECORATE, "surface": 5, "trace_hash": None},
        frozenset({"surface", "trace_hash"}),
    ),
    "session.chat with session and text numbers": (
        "session.chat",
        {"session": 1, "text": 2},
        frozenset({"session", "text"}),
    ),
}
"""Two mistyped arguments: either may be named, but one of them is."""

ARG_CASES = sorted([*MISSING, *MISTYPED, *UNKNOWN])


def _refusal(engine: EngineClient, name: str, op: str, args: EncodableObject) -> EngineRefused:
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        return refusal
    raise AssertionError(f"{name}: {op} with two faults was answered with ok")


@requirement(
    "PROTO-ORDER-005",
    "of two unknown argument names the first in sorted order is named; of two missing "
    "arguments the first the op's Args lists is named; of two mistyped "
    "arguments one of them is named (PROTOCOL_BAD_ARGS)",
    family="protocol",
    capabilities=("variation", "sessions"),
    seed=WITHIN,
    strategy=lambda ctx: st.sampled_from(ARG_CASES),
    cover=coverage.each("two faults of one step", ARG_CASES),
)
def within_argument_steps(engine: EngineClient, name: str) -> None:
    if name in MISSING or name in UNKNOWN:
        op, args, field = MISSING[name] if name in MISSING else UNKNOWN[name]
        fields = frozenset({field})
    else:
        op, args, fields = MISTYPED[name]
    refusal = _refusal(engine, name, op, args)
    assert refusal.code == "PROTOCOL_BAD_ARGS" and refusal.field in fields, (
        f"{name}: refused with {refusal.code} naming {refusal.field!r}; the docs name "
        f"{' or '.join(sorted(fields))} (PROTOCOL_BAD_ARGS)"
    )


def _blade(*pairs: tuple[int, float]) -> list[float]:
    values = [0.0] * 32
    for index, value in pairs:
        values[index] = value
    return values


NON_SIMPLE = _blade((3, 1.0), (24, 1.0))
"""e12 + e45: its square has a grade-4 part, so it is not simple."""

ROTOR_CASES: dict[str, dict[str, Any]] = {
    "a non-simple bivector and an angle past 64": {"bivector": NON_SIMPLE, "angle": 65},
    "a non-simple bivector and an angle that is a string": {"bivector": NON_SIMPLE, "angle": "1"},
    "a vector part and an angle past -64": {"bivector": _blade((1, 1.0)), "angle": -64.5},
    "the zero bivector and an angle that is a bool": {"bivector": _blade(), "angle": True},
    "a scalar part and an angle of 1e300": {"bivector": _blade((0, 2.0), (3, 1.0)), "angle": 1e300},
}
"""A bivector the op refuses, beside an angle the argument checks refuse."""


@requirement(
    "ALG-ORDER-001",
    "algebra.rotor with a bivector it refuses (not simple, zero, outside grade 2) and a bad "
    "angle answers PROTOCOL_BAD_ARGS naming angle: argument checks come before the op",
    family="algebra",
    capabilities=("algebra",),
    seed=WITHIN,
    strategy=lambda ctx: st.sampled_from(sorted(ROTOR_CASES)),
    cover=coverage.each("refused bivectors beside bad angles", sorted(ROTOR_CASES)),
)
def rotor_angle_first(engine: EngineClient, name: str) -> None:
    refusal = _refusal(engine, name, "algebra.rotor", ROTOR_CASES[name])
    assert (refusal.code, refusal.field) == ("PROTOCOL_BAD_ARGS", "angle"), (
        f"{name}: refused with {refusal.code} naming {refusal.field!r}; the argument checks "
        "come first: PROTOCOL_BAD_ARGS naming 'angle'"
    )


TURN: dict[str, Any] = {"op": "turn"}
BATCHES: dict[str, tuple[list[Any], str]] = {
    "a number at 1 and an unknown op at 3": ([TURN, 5, TURN, {"op": "nope"}], "mutations[1]"),
    "an unknown op at 1 and a number at 2": ([TURN, {"op": "nope"}, 7], "mutations[1].op"),
    "a list at 0 and a delete without key at 1": (
        [[], {"op": "delete", "kind": "session"}],
        "mutations[0]",
    ),
}
"""Batches with two bad mutations, and the field of the first."""

HANDLES = ("closed", "never opened")
STATE_CASES = sorted([f"{h} store, {b}" for h in HANDLES for b in BATCHES] + list(BATCHES))


@requirement(
    "STATE-MUTORDER-001",
    "state.apply names the first of two bad mutations (mutations[i], the lowest i), and a "
    "closed or unknown store answers STATE_NOT_OPEN before any bad mutation",
    family="state",
    capabilities=("state",),
    seed=f"{WITHIN}; docs/state.md § Refusals",
    strategy=lambda ctx: st.sampled_from(STATE_CASES),
    cover=coverage.each("two bad mutations, open or not", STATE_CASES),
)
def state_apply_order(engine: EngineClient, name: str) -> None:
    handle, _, batch_name = name.rpartition(" store, ")
    mutations, field = BATCHES[batch_name]
    with scratch() as workdir:
        if handle == "never opened":
            store = "never-opened-by-the-suite"
            want = ("STATE_NOT_OPEN", "store")
        else:
            store = engine.call("state.open", {"dir": str(workdir / "state")})["store"]
            want = ("STATE_BAD_MUTATION", field)
            if handle == "closed":
                engine.call("state.close", {"store": store})
                want = ("STATE_NOT_OPEN", "store")
        try:
            refusal = _refusal(
                engine, name, "state.apply", {"store": store, "mutations": mutations}
            )
        finally:
            if handle == "":
                engine.call("state.close", {"store": store})
    assert (refusal.code, refusal.field) == want, (
        f"{name}: refused with {refusal.code} naming {refusal.field!r}; the docs say "
        f"{want[0]} naming {want[1]!r}"
    )
