"""The soak's event stream: begin and ack per checkpoint, carrying the request's id."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.protocol.validate import ProtocolViolation, validate_event, validate_response
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import load, scratch
from conformance.state.killer import soak_lines, spawner
from conformance.state.separate import EngineProcess

SOAK = ("state", "state.soak")
REQUEST_ID = 7
LEFTOVER = {"kind": "recognizer", "key": "left", "pattern": "p", "weight": 1}


def _events(lines: list[Any], iterations: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The event lines and the result of one soak; AssertionError naming the first fault."""
    assert lines and isinstance(lines[-1], dict) and "ok" in lines[-1], (
        f"the soak ended without a response: last line {lines[-1:]!r}"
    )
    response, events = lines[-1], lines[:-1]
    result = response.get("result")
    assert isinstance(result, dict), f"the soak's result is not an object: {response!r}"
    assert response.get("ok") is True and response.get("id") == REQUEST_ID, (
        f"the soak's response is not a success for id {REQUEST_ID}: {response!r}"
    )
    assert len(events) == 2 * iterations, (
        f"{iterations} iterations streamed {len(events)} event lines, not {2 * iterations}"
    )
    for index, event in enumerate(events):
        kind = "begin" if index % 2 == 0 else "ack"
        assert isinstance(event, dict) and event.get("event") == kind, (
            f"event line {index} is not a {kind} event: {event!r}"
        )
        assert event.get("id") == REQUEST_ID and "ok" not in event, (
            f"event line {index} must carry the request's id {REQUEST_ID} and no ok: {event!r}"
        )
        _schema_holds(validate_event, event, f"event line {index}")
    _schema_holds(functools.partial(validate_response, "state.soak"), response, "the response")
    return events, result


def _schema_holds(check: Callable[[object], None], message: object, what: str) -> None:
    try:
        check(message)
    except ProtocolViolation as exc:
        raise AssertionError(f"{what} of the soak breaks its schema: {exc}") from None


def _checkpoints(events: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    pairs = []
    for begin, ack in zip(events[::2], events[1::2], strict=True):
        announced = (begin.get("generation"), begin.get("identity"))
        done = (ack.get("generation"), ack.get("identity"))
        assert announced == done, f"begin announced {announced}, ack acknowledged {done}"
        pairs.append(done)
    return pairs


@requirement(
    "STATE-SOAK-001",
    "a state.soak of N iterations streams N begin/ack event pairs carrying the request's id "
    "(and no ok) before its response; each ack names the generation and identity its begin "
    "announced, generations count up by one, the response names the last, the directory "
    "loads to it, and the same seed gives the same identities (in a forked engine, when the "
    "engine claims fork)",
    family="state",
    capabilities=SOAK,
    seed="docs/protocol.md § Framing (event lines), § state ops (state.soak) and § engine.fork; "
    "L10 brief § M4",
    strategy=lambda ctx: st.tuples(st.integers(1, 4), st.integers(0, 2**16)).map(list),
    max_examples=2,
)
def soak_stream(engine: EngineClient, scenario: list[int]) -> None:
    iterations, seed = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    runs = []
    started = spawner(command, forks=False)
    again = spawner(command, forks="fork" in engine.capabilities())
    with scratch() as root:
        for name, spawn in (("first", started), ("again", again)):
            directory = root / name
            directory.mkdir()
            args: EncodableObject = {"dir": str(directory), "iterations": iterations, "seed": seed}
            request: EncodableObject = {"id": REQUEST_ID, "op": "state.soak", "args": args}
            lines = soak_lines(spawn, request)
            engine.transcript.record(request, lines)
            events, result = _events(lines, iterations)
            pairs = _checkpoints(events)
            generations = [generation for generation, _ in pairs]
            assert generations == list(range(1, iterations + 1)), (
                f"a fresh directory's soak acknowledged generations {generations}"
            )
            last = {"generation": pairs[-1][0], "identity": pairs[-1][1]}
            answered = {key: result.get(key) for key in ("iterations", "generation", "identity")}
            assert answered == {"iterations": iterations, **last}, (
                f"the response {result!r} does not name the last acknowledged checkpoint {last}"
            )
            loaded = load(engine, directory)
            got = {"generation": loaded.get("generation"), "identity": loaded.get("identity")}
            assert got == last, f"after the soak the directory loads {got}, not {last}"
            runs.append(pairs)
    assert runs[0] == runs[1], f"the same seed {seed} gave other identities: {runs[0]} {runs[1]}"


@requirement(
    "STATE-SOAK-002",
    "in a directory where a crash left a valid generation past CURRENT, a state.soak's "
    "first checkpoint numbers past it, and each begin announces the generation and identity "
    "its checkpoint commits (the one its ack names)",
    family="state",
    capabilities=SOAK,
    seed="docs/protocol.md § Persisted-state ops (state.soak: begin before each checkpoint); "
    "docs/state.md § Commit protocol (N is one past every generation on disk)",
    max_examples=1,
)
def soak_past_leftover(engine: EngineClient, _: object) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        directory = root / "leftover"
        oracle.write_generation(directory, 1, oracle.encode_core([]))
        oracle.write_generation(directory, 3, oracle.encode_core([LEFTOVER]), point=False)
        args: EncodableObject = {"dir": str(directory), "iterations": 2, "seed": 1}
        request: EncodableObject = {"id": REQUEST_ID, "op": "state.soak", "args": args}
        lines = soak_lines(spawner(command, forks="fork" in engine.capabilities()), request)
        engine.transcript.record(request, lines)
        events, _ = _events(lines, 2)
        pairs = _checkpoints(events)
    generations = [generation for generation, _ in pairs]
    assert generations == [4, 5], (
        f"live generation 1 and a valid generation 3 past CURRENT: the soak acknowledged "
        f"generations {generations}, not 4 and 5"
    )


BATCHED_IDS: tuple[str | int, ...] = ("a", 2)
"""The ids of the two soaks of STATE-SOAK-003's batch: a string and a number, neither the
batch's own."""


def _alone(spawn: Callable[[], Any], directory: Any, iterations: int, seed: int) -> list[Any]:
    args: EncodableObject = {"dir": str(directory), "iterations": iterations, "seed": seed}
    lines = soak_lines(spawn, {"id": REQUEST_ID, "op": "state.soak", "args": args})
    events, _ = _events(lines, iterations)
    return [(e.get("event"), e.get("generation"), e.get("identity")) for e in events]


@requirement(
    "STATE-SOAK-003",
    "two state.soak requests inside one batch (ids a string and a number, neither the "
    "batch's) stream, before the batch's response, each soak's begin/ack events carrying "
    "that element's id, the first soak's all before the second's, the same events a soak "
    "sent alone streams; the batch's responses are each soak's own",
    family="state",
    capabilities=(*SOAK, "batch"),
    seed="docs/protocol.md § batch (each element exactly what it would get if sent on its own "
    "line at that point); § Framing (event lines carry the request's id, before that "
    "request's response); § Persisted-state ops (state.soak)",
    strategy=lambda ctx: st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(0, 2**16)).map(
        list
    ),
    max_examples=2,
)
def soak_in_batch(engine: EngineClient, scenario: list[int]) -> None:
    first, second, seed = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    spawn = spawner(command, forks=False)
    counts = (first, second)
    with scratch() as root:
        elements: list[EncodableObject] = []
        alone = []
        for number, (element_id, iterations) in enumerate(zip(BATCHED_IDS, counts, strict=True)):
            batched, single = root / f"batched{number}", root / f"alone{number}"
            batched.mkdir()
            single.mkdir()
            args: EncodableObject = {
                "dir": str(batched),
                "iterations": iterations,
                "seed": seed + number,
            }
            elements.append({"id": element_id, "op": "state.soak", "args": args})
            alone.append(_alone(spawn, single, iterations, seed + number))
        request: EncodableObject = {"id": REQUEST_ID, "op": "batch", "args": {"requests": elements}}
        lines = soak_lines(spawn, request)
        engine.transcript.record(request, lines)
    assert lines and isinstance(lines[-1], dict) and lines[-1].get("id") == REQUEST_ID, (
        f"the batch ended without its response: last line {lines[-1:]!r}"
    )
    events = lines[:-1]
    want = [
        {"id": element_id, "event": kind, "generation": generation, "identity": identity}
        for element_id, pairs in zip(BATCHED_IDS, alone, strict=True)
        for kind, generation, identity in pairs
    ]
    got = [
        {key: event.get(key) for key in ("id", "event", "generation", "identity")}
        if isinstance(event, dict)
        else event
        for event in events
    ]
    assert got == want, (
        f"a batch of two soaks ({first} and {second} iterations, ids {list(BATCHED_IDS)}) "
        f"streamed {got}; sent alone they stream {want}: each element's events carry its own "
        f"id, in element order, before the batch's response"
    )
    responses = (lines[-1].get("result") or {}).get("responses")
    ids = [r.get("id") if isinstance(r, dict) else r for r in responses or []]
    assert isinstance(responses, list) and ids == list(BATCHED_IDS), (
        f"the batch's responses {responses!r} are not one per soak with its id"
    )
    for response, pairs, iterations in zip(responses, alone, counts, strict=True):
        last = pairs[-1]
        want_result = {"iterations": iterations, "generation": last[1], "identity": last[2]}
        assert response.get("ok") is True and response.get("result") == want_result, (
            f"the batched soak's response {response!r}, alone it answers {want_result}"
        )


LARGEST_ITERATIONS = 2**53 - 1
"""The largest ``iterations`` docs/protocol.md § Persisted-state ops lets ``state.soak`` take."""


def _first_line(engine: EngineProcess) -> bytes:
    """The engine's first output line (what came before the end of its output, if none)."""
    read = b""
    while b"\n" not in read and (chunk := engine.read(1 << 12)):
        read += chunk
    return read.split(b"\n", 1)[0]


@requirement(
    "STATE-SOAK-004",
    "a state.soak of 2^53 - 1 iterations, the largest count it takes, is accepted: the first "
    "line the engine writes is its first begin event, carrying the request's id (the suite "
    "ends the engine there)",
    family="state",
    capabilities=SOAK,
    seed="docs/protocol.md § Persisted-state ops (state.soak: iterations an integer from 0 to "
    "2^53 - 1; a larger count is PROTOCOL_BAD_ARGS)",
    max_examples=1,
)
def soak_takes_the_largest_count(engine: EngineClient, _: object) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        soaking = EngineProcess(command, engine.transcript)
        try:
            args: EncodableObject = {
                "dir": str(root / "largest"),
                "iterations": LARGEST_ITERATIONS,
                "seed": 1,
            }
            request = soaking.send("state.soak", args)
            line = _first_line(soaking)
            soaking.note(request, line.decode("utf-8", "replace"))
        finally:
            soaking.kill()
    try:
        first = json.loads(line)
    except ValueError:
        first = None
    begins = isinstance(first, dict) and first.get("event") == "begin" and "ok" not in first
    assert begins and first.get("id") == request["id"], (
        f"a state.soak of {LARGEST_ITERATIONS} iterations: the engine's first line is "
        f"{line[:300]!r}, not the soak's first begin event"
    )
