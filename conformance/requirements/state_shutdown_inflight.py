"""A signal that arrives while a request is in flight (docs/state.md § Shutdown): it is held
until the request's work is committed and its answer written, then the process ends with
status 128 + the signal, every store released without a commit and ``LOCK`` emptied; a
``state.soak`` ends once the iteration in flight is acknowledged, with no response; a second
signal is held like the first.

No time places the signal. The engine's output pipe does: the suite reads nothing past the
point it waits for, so the engine cannot write more than the pipe holds beyond it. A soak whose
events, or an answer whose bytes, exceed that capacity is therefore still in flight when the
suite sends the signal right after reading the soak's first ``begin`` event, or the answer's
first byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state.driver import Stores, load, scratch
from conformance.state.separate import SIGNALS, EngineProcess

SIGNAL_RUNS = (("SIGTERM",), ("SIGINT",), ("SIGTERM", "SIGINT"), ("SIGINT", "SIGINT"))
"""The signals sent, in order: one, or a second one held like the first."""
ITERATION_BYTES = 190
"""Fewer bytes than one soak iteration's two event lines take (each holds a 64-digit identity)."""
READ_AHEAD = 8192
"""More bytes than the suite reads before it signals: the first line and one read of 4096."""
ROW: EncodableObject = {"kind": "recognizer", "key": "in-flight", "pattern": "p", "weight": 1}
LATER: EncodableObject = {
    "kind": "recognizer",
    "key": "in-flight-later",
    "pattern": "q",
    "weight": 2,
}


def _status(sent: tuple[str, ...], status: int) -> None:
    """128 + a signal sent: two signals pending at once may be taken in either order."""
    expected = sorted({128 + SIGNALS[name] for name in sent})
    assert status in expected, f"{'+'.join(sent)} ended the engine with {status}, not {expected}"


def _released(engine: EngineClient, directory: Path, generation: int, identity: str) -> None:
    """``LOCK`` empty, and the directory's live generation is *generation* with *identity*."""
    lock = directory / "LOCK"
    holds = lock.read_bytes() if lock.exists() and not lock.is_symlink() else b""
    assert holds == b"", f"LOCK still holds {holds!r} after the signal"
    pointer = fmt.read_pointer((directory / "CURRENT").read_bytes())
    assert pointer == generation, f"CURRENT names generation {pointer}, not {generation}"
    loaded = load(engine, directory)
    got = (loaded["generation"], loaded["identity"])
    assert got == (generation, identity), f"the directory loads {got}, not {(generation, identity)}"


def _lines(data: bytes) -> list[dict[str, Any]]:
    assert data.endswith(b"\n"), f"the engine's output ended inside a line: {data[-120:]!r}"
    return [json.loads(line) for line in data.splitlines()]


@requirement(
    "STATE-SHUTDOWN-451",
    "a SIGTERM or SIGINT (and a second one) that arrives while a state.soak is in flight ends "
    "it once the iteration in flight is acknowledged: every begin gets its ack, the request "
    "gets no response, the process exits 128 + the signal, LOCK is emptied and the "
    "directory loads to the last acknowledged checkpoint",
    family="state",
    capabilities=("state", "state.soak"),
    seed="docs/state.md § Shutdown (state.soak ends once the iteration in flight is "
    "acknowledged; a second signal is held like the first)",
    strategy=lambda ctx: st.sampled_from(SIGNAL_RUNS),
    max_examples=len(SIGNAL_RUNS),
    cover=coverage.each("signals", SIGNAL_RUNS),
)
def soak_ends_after_the_iteration_in_flight(engine: EngineClient, sent: tuple[str, ...]) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        directory = root / "state"
        process = EngineProcess(command, engine.transcript)
        try:
            iterations = (process.pipe_capacity() + READ_AHEAD) // ITERATION_BYTES + 2
            request = process.send(
                "state.soak", {"dir": str(directory), "iterations": iterations, "seed": 7}
            )
            head = b""
            while b"\n" not in head:
                chunk = process.read(4096)
                assert chunk, f"the engine ended before the soak's first event: {head!r}"
                head += chunk
            first = json.loads(head.split(b"\n", 1)[0])
            assert first.get("event") == "begin" and first.get("id") == request["id"], (
                f"the soak's first line is {first}, not its begin event"
            )
            for name in sent:
                process.signal(name)
            data = head + process.read_to_end()
            status = process.wait()
        finally:
            process.kill()
        process.note(request, {"output": data.decode("utf-8", "replace")[-2000:], "status": status})
        lines = _lines(data)
        answered = [line for line in lines if "event" not in line]
        assert not answered, f"the soak in flight was answered after {'+'.join(sent)}: {answered}"
        assert len(lines) % 2 == 0 and len(lines) < 2 * iterations, (
            f"{len(lines)} events of {iterations} iterations: the soak did not end on an ack"
        )
        for begin, ack in zip(lines[::2], lines[1::2], strict=True):
            pair = (begin.get("event"), ack.get("event"))
            assert pair == ("begin", "ack"), f"events {begin} then {ack}, not a begin and its ack"
            said = [(e.get("id"), e.get("generation"), e.get("identity")) for e in (begin, ack)]
            assert said[0] == said[1], f"the ack {ack} is not that of {begin}"
        _status(sent, status)
        _released(engine, directory, lines[-1]["generation"], lines[-1]["identity"])


@requirement(
    "STATE-SHUTDOWN-452",
    "a SIGTERM or SIGINT (and a second one) that arrives while a request's answer is being "
    "written is held until that answer is whole: the batch that checkpointed a store and "
    "left it dirty is answered in full, then the process exits 128 + the signal, "
    "LOCK is emptied and the directory keeps the batch's checkpoint, nothing after it",
    family="state",
    capabilities=("state", "batch", "lexicon"),
    seed="docs/state.md § Shutdown (a signal while a turn is in flight is held until that "
    "turn is committed and its answer written)",
    strategy=lambda ctx: st.sampled_from(SIGNAL_RUNS),
    max_examples=len(SIGNAL_RUNS),
    cover=coverage.each("signals", SIGNAL_RUNS),
)
def answer_in_flight_is_written_whole(engine: EngineClient, sent: tuple[str, ...]) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    listing = len(json.dumps(engine.call("lexicon.list", {}), separators=(",", ":")))
    with scratch() as root, Stores(engine):
        directory = root / "state"
        process = EngineProcess(command, engine.transcript)
        try:
            store = process.call("state.open", {"dir": str(directory)})["store"]
            turn: list[EncodableObject] = [{"op": "put", "record": ROW}, {"op": "turn"}]
            process.call("state.apply", {"store": store, "mutations": turn})
            capacity = process.pipe_capacity()
            copies = capacity // max(listing, 1) + 2
            listings: list[EncodableObject] = [
                {"id": f"list{i}", "op": "lexicon.list", "args": {}} for i in range(copies)
            ]
            requests: list[EncodableObject] = [
                {"id": "checkpoint", "op": "state.checkpoint", "args": {"store": store}},
                {
                    "id": "dirty",
                    "op": "state.apply",
                    "args": {"store": store, "mutations": [{"op": "put", "record": LATER}]},
                },
                *listings,
            ]
            batch = process.send("batch", {"requests": requests})
            head = process.read(1)
            assert head, "the engine ended before answering the batch"
            for name in sent:
                process.signal(name)
            data = head + process.read_to_end()
            status = process.wait()
        finally:
            process.kill()
        process.note(batch, {"output": data.decode("utf-8", "replace")[-2000:], "status": status})
        lines = _lines(data)
        assert len(data) > 1 + capacity, (
            f"the answer ({len(data)} bytes) fit the pipe ({capacity}): the signal was not sent "
            "while it was written"
        )
        assert len(lines) == 1, f"{len(lines)} lines after the batch, not its one answer"
        (answer,) = lines
        assert answer.get("id") == batch["id"] and answer.get("ok") is True, f"the batch: {answer}"
        responses = answer["result"]["responses"]
        assert len(responses) == len(requests) and all(r.get("ok") for r in responses), (
            f"the batch's answer holds {len(responses)} responses, not {len(requests)} accepted"
        )
        checkpoint = responses[0]["result"]
        _status(sent, status)
        _released(engine, directory, checkpoint["generation"], checkpoint["identity"])
