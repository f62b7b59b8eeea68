"""Traced sessions: a damaged directory opened, then checkpointed three times, recorded.

``damaged_directory`` builds the debris a crashed writer leaves (a valid generation
newer than the one ``CURRENT`` names, a staging directory, ``CURRENT.tmp``, a torn
journal tail). ``strace_session`` runs a fresh engine process on it under strace and
returns the operations its system calls show; ``reported_session`` asks the engine
itself (``state.trace_checkpoint``) and cannot see the open. Either way the result is
the directory image before the trace and the operations, with an ``ack`` after each
acknowledged checkpoint naming its generation and identity.
"""

from __future__ import annotations

import base64
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient, Transcript
from conformance.engines.subprocess import SubprocessEngine
from conformance.engines.view import MemberError, member, shown
from conformance.state import format as fmt
from conformance.state import oracle, strace
from conformance.state.crashstates import Image, snapshot

SESSION_TIMEOUT = 120.0


@dataclass(frozen=True)
class Trace:
    """The image before the trace, its operations, and the state it started from."""

    image: Image
    ops: list[dict[str, Any]]
    start: tuple[int, str]
    source: str


def damaged_directory(
    directory: Path, live: list[dict[str, Any]], unacknowledged: list[dict[str, Any]]
) -> tuple[int, str]:
    """Write a crashed writer's directory; return the (generation, identity) it must load."""
    core = oracle.encode_core(live)
    oracle.write_generation(directory, 1, core)
    oracle.write_generation(directory, 2, oracle.encode_core(unacknowledged), point=False)
    (directory / "staging-2").mkdir()
    (directory / "staging-2" / "core.jsonl").write_bytes(b'{"kind":"tor')
    (directory / "CURRENT.tmp").write_bytes(b"gen-0000")
    pending = oracle.frame({"claim": "c", "lemma": "l"})
    (directory / "proposals.journal").write_bytes(pending + pending[:11])
    return 1, oracle.identity(3, core)


def _mutations(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"op": "put", "record": record} for record in records]


def _acks(ops: list[dict[str, Any]], answers: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """Replace the n-th ``answer`` by an ``ack`` when the n-th answer acknowledged a commit."""
    marked, seen = [], 0
    for op in ops:
        if op["op"] != "answer":
            marked.append(op)
            continue
        answer = answers[seen] if seen < len(answers) else None
        seen += 1
        if answer is not None:
            marked.append({"op": "ack", **answer})
    return marked


def strace_session(
    command: list[str], directory: Path, batches: list[list[dict[str, Any]]], transcript: Transcript
) -> Trace:
    """Open *directory* in a fresh engine under strace and checkpoint each batch.

    The traced engine's exchanges are added to *transcript*.
    """
    start = oracle_start(directory)
    image = snapshot(directory)
    with tempfile.TemporaryDirectory(prefix="core-strace-") as logs:
        log = Path(logs) / "strace.log"
        engine = SubprocessEngine(
            shlex.join(strace.traced(command, log)), timeout=SESSION_TIMEOUT, max_restarts=0
        )
        pipe = engine.stdout_pipe()
        try:
            answers = _drive(engine, directory, batches)
        finally:
            engine.close()
            transcript.exchanges += engine.transcript.exchanges
        text = log.read_text("ascii", errors="replace")
    dirs = {path for path, value in image.items() if value is None} | {"."}
    ops = _acks(strace.file_ops(text, directory, dirs, pipe), answers)
    return Trace(image, ops, start, "strace")


def _drive(
    engine: EngineClient, directory: Path, batches: list[list[dict[str, Any]]]
) -> list[dict[str, Any] | None]:
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    answers: list[dict[str, Any] | None] = [None]
    for batch in batches:
        engine.call("state.apply", {"store": store, "mutations": _mutations(batch)})
        done = engine.call("state.checkpoint", {"store": store})
        answers += [None, {"generation": done["generation"], "identity": done["identity"]}]
    engine.call("state.close", {"store": store})
    return [*answers, None]


def oracle_start(directory: Path) -> tuple[int, str]:
    """The generation ``CURRENT`` names in *directory* and its identity, by the oracle."""
    name = (directory / "CURRENT").read_text("ascii").strip()
    core = fmt.generation_core(directory / name)
    return int(name[4:]), oracle.identity(oracle.manifest_version(directory / name), core)


OP_MEMBERS = {"path": "string", "src": "string", "dst": "string", "data": "string"}
OP_NUMBERS = ("size", "offset", "mode")


def reported_ops(traced: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``ops`` of a ``state.trace_checkpoint`` result, each checked to name its files by
    strings (``path``, or ``src`` and ``dst`` of a rename), its ``data`` as base64 text and
    its numbers as integers (docs/protocol.md); anything else is a FAIL naming the member."""
    ops = member(traced, "ops", "array")
    for op in ops:
        member(op, "op", "string")
        names = ("src", "dst") if op["op"] == "rename" else ("path",)
        for name in names:
            member(op, name, "string")
        for name, kind in OP_MEMBERS.items():
            if name in op:
                member(op, name, kind)
        if "data" in op:
            try:
                base64.b64decode(op["data"], validate=True)
            except ValueError:
                message = f"{op.path}.data: expected base64, got {shown(op['data'])}"
                raise MemberError(message) from None
        for name in OP_NUMBERS:
            if name in op:
                member(op, name, "integer")
    return list(ops)


def reported_session(
    engine: EngineClient, directory: Path, batches: list[list[dict[str, Any]]]
) -> Trace:
    """Open *directory* and checkpoint each batch with ``state.trace_checkpoint``."""
    start = oracle_start(directory)
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    image, ops = snapshot(directory), []
    try:
        for batch in batches:
            engine.call("state.apply", {"store": store, "mutations": _mutations(batch)})
            traced = engine.call("state.trace_checkpoint", {"store": store})
            ack = {"generation": traced["generation"], "identity": traced["identity"]}
            ops += [*reported_ops(traced), {"op": "ack", **ack}]
    finally:
        engine.call("state.close", {"store": store})
    return Trace(image, ops, start, "self-reported")


@dataclass(frozen=True)
class TwoTraces:
    """One checkpoint as the engine reported it and as strace saw it, and the image before."""

    image: Image
    reported: list[dict[str, Any]]
    observed: list[dict[str, Any]]
    modes: dict[str, int]


def file_modes(directory: Path) -> dict[str, int]:
    """The permission bits of every regular file under *directory*, by relative path."""
    return {
        path.relative_to(directory).as_posix(): path.stat().st_mode & 0o7777
        for path in sorted(directory.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def plant_debris(directory: Path) -> None:
    """Leave what a crashed checkpoint leaves: ``CURRENT.tmp`` and a ``staging-*`` tree."""
    (directory / "CURRENT.tmp").write_bytes(b"gen-0000")
    staging = directory / "staging-planted"
    staging.mkdir()
    (staging / "core.jsonl").write_bytes(b"{}\n")


def both_traces(
    command: list[str],
    directory: Path,
    batch: list[dict[str, Any]],
    transcript: Transcript,
    *,
    debris: bool = False,
    reported: bool = True,
) -> TwoTraces:
    """Open *directory* in a fresh engine under strace and ``state.trace_checkpoint`` *batch*
    (``state.checkpoint`` unless *reported*: the reported ops are then empty), with a crashed
    checkpoint's debris planted after the open when *debris* is set; the store must then
    apply and checkpoint again like any open store.

    The traced engine's exchanges are added to *transcript*.
    """
    with tempfile.TemporaryDirectory(prefix="core-strace-") as logs:
        log = Path(logs) / "strace.log"
        engine = SubprocessEngine(
            shlex.join(strace.traced(command, log)), timeout=SESSION_TIMEOUT, max_restarts=0
        )
        pipe = engine.stdout_pipe()
        try:
            store = engine.call("state.open", {"dir": str(directory)})["store"]
            engine.call("state.apply", {"store": store, "mutations": _mutations(batch)})
            if debris:
                plant_debris(directory)
            image = snapshot(directory)
            op = "state.trace_checkpoint" if reported else "state.checkpoint"
            answer = engine.call(op, {"store": store})
            said = answer["ops"] if reported else []
            modes = file_modes(directory)
            engine.call("state.apply", {"store": store, "mutations": _mutations(batch)})
            engine.call("state.checkpoint", {"store": store})
            engine.call("state.close", {"store": store})
        finally:
            engine.close()
            transcript.exchanges += engine.transcript.exchanges
        text = log.read_text("ascii", errors="replace")
    dirs = {path for path, value in image.items() if value is None} | {"."}
    ops = strace.file_ops(text, directory, dirs, pipe)
    answers = [i for i, op in enumerate(ops) if op["op"] == "answer"]
    return TwoTraces(image, said, ops[answers[1] + 1 : answers[2]], modes)
