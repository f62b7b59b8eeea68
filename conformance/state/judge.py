"""Judge a trace: build its distinct crash states, load each, and name what went wrong.

A crash after the first *k* operations may load the checkpoint acknowledged last before
*k* (or the state the trace started from) or the one in flight (acknowledged next);
anything else, a refusal included, is a failure. Equal images are loaded once, and must
load a state every crash that leaves them allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient
from conformance.state.crashstates import (
    CrashState,
    build,
    crash_states,
    expand,
    image_digest,
    materialise,
    prefix_images,
    settled_prefixes,
)
from conformance.state.driver import load_many
from conformance.state.traces import Trace

CHUNK = 400


@dataclass
class Distinct:
    """One distinct crash image: the first state that left it and what it may load."""

    state: CrashState
    image: dict[str, Any]
    allowed: set[tuple[int, str]]
    narrowed_by: CrashState | None = None


def allowed_at(ops: list[dict[str, Any]], start: tuple[int, str]) -> list[set[tuple[int, str]]]:
    """For each crash point 0..len(ops), the (generation, identity) pairs it may load."""
    acks = [
        (i, (op["generation"], op["identity"])) for i, op in enumerate(ops) if op["op"] == "ack"
    ]
    allowed = []
    for prefix in range(len(ops) + 1):
        done = [pair for i, pair in acks if i < prefix]
        pending = [pair for i, pair in acks if i >= prefix]
        allowed.append({done[-1] if done else start, *pending[:1]})
    return allowed


def distinct_states(
    trace: Trace, *, seed: int, samples: int
) -> tuple[list[Distinct], list[dict[str, Any]], int]:
    """The distinct crash images of *trace*, the expanded ops, and how many states made them.

    A state's image is built once per (settled prefix, fates): states that differ only by
    barriers at the end of their prefix, or that were drawn twice, leave the same image,
    and are only counted (and narrow what that image may load)."""
    unmodelled = sorted({op["call"] for op in trace.ops if op["op"] == "unmodelled"})
    if unmodelled:
        raise AssertionError(f"the engine used {unmodelled}, which the crash model does not cover")
    ops = expand(trace.image, trace.ops)
    allowed = allowed_at(ops, trace.start)
    prefixes = prefix_images(trace.image, ops)
    settled = settled_prefixes(ops)
    found: dict[str, Distinct] = {}
    digests: dict[tuple[int, tuple[tuple[int, str], ...]], str] = {}
    generated = 0
    for state in crash_states(ops, seed=seed, samples=samples):
        generated += 1
        same = (settled[state.prefix], state.fates)
        key = digests.get(same, "")
        if not key:
            image = build(prefixes, ops, state)
            key = digests[same] = image_digest(image)
        if key in found:
            seen = found[key]
            if not seen.allowed <= allowed[state.prefix]:
                seen.allowed &= allowed[state.prefix]
                seen.narrowed_by = state
        else:
            found[key] = Distinct(state, image, set(allowed[state.prefix]))
    return list(found.values()), ops, generated


def failures(
    engine: EngineClient, states: list[Distinct], ops: list[dict[str, Any]], root: Path
) -> list[str]:
    """Load every distinct state (materialised under *root*); describe each wrong load."""
    problems = []
    for start in range(0, len(states), CHUNK):
        chunk = states[start : start + CHUNK]
        directories = []
        for number, distinct in enumerate(chunk, start):
            directory = root / f"crash{number}"
            directory.mkdir()
            materialise(distinct.image, directory)
            directories.append(directory)
        for distinct, answer in zip(chunk, load_many(engine, directories), strict=True):
            problem = _judge(distinct, answer)
            if problem:
                also = distinct.narrowed_by
                where = f" (the same image as {also.describe(ops)})" if also else ""
                problems.append(f"{distinct.state.describe(ops)}{where}: {problem}")
    return problems


def _judge(distinct: Distinct, answer: dict[str, Any]) -> str | None:
    if "error" in answer:
        return f"refused {answer['error']} ({answer.get('message', '')[:120]})"
    got = answer["result"]
    pair = (got.get("generation"), got.get("identity"))
    if pair in distinct.allowed:
        return None
    oldest = min((g for g, _ in distinct.allowed), default=0)
    lost = " (an acknowledged checkpoint was lost)" if (pair[0] or 0) < oldest else ""
    return f"loaded generation {pair[0]}{lost}; allowed {sorted(distinct.allowed)}"
