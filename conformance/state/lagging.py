"""A ``state.soak`` whose reader stops reading, then a SIGKILL.

docs/protocol.md: ``state.soak`` streams each checkpoint's ``begin`` before that checkpoint
(docs/state.md: once N is chosen, before step 2) and its ``ack`` once it is durable. An
engine that writes to its stdout pipe and blocks when the pipe is full keeps that promise
however slowly its reader reads. One that queues its lines in memory and goes on (an
asynchronous writer whose completion it never awaits) commits checkpoints whose ``begin``
no reader can ever receive: killed then, it restarts past every ``begin`` that reached the
pipe.

The harness reads the soak until a few checkpoints are acknowledged, shrinks the pipe to
one page, stops reading, watches ``CURRENT`` for as many soak cycles as the pipe can hold
lines (and a margin), then SIGKILLs the engine and drains the pipe: what was written is
what any reader could have received.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from conformance.canonical import canonical_json
from conformance.state import format as fmt
from conformance.state.killer import KILL_TIMEOUT, MIN_CYCLE, SOAK_ITERATIONS, KillRecord

PIPE_BYTES = 4096
"""The pipe size asked for (one page): the fewer lines it holds, the sooner a soak whose
begins never reach it gets ahead of them."""
REQUEST_ID = 1
SMALLEST_CHECKPOINT_LINES = (
    len(canonical_json({"event": "begin", "generation": 1, "id": REQUEST_ID, "identity": "0" * 64}))
    + len(canonical_json({"event": "ack", "id": REQUEST_ID}))
    + 2
)
"""The fewest bytes one checkpoint's two event lines can take (a begin with its identity,
the shortest ack): an engine writes more, never less."""
MARGIN_CYCLES = 16
"""Soak cycles watched past those the pipe can hold the lines of."""
MIN_WATCH = 0.5
"""The shortest watch, in seconds, whatever the engine's pace."""
POLL = 0.005


@dataclass(frozen=True)
class LagRecord:
    """What a lagging reader saw: every event line the engine wrote before its kill (read
    before the lag or drained after the kill), and what ``CURRENT`` named at the kill."""

    record: KillRecord
    lead: int
    """Checkpoints acknowledged before the reader stopped reading."""
    pipe_bytes: int
    current_at_kill: int | None


def _pipe_size(fd: int) -> int:
    """Shrink the pipe behind *fd* to :data:`PIPE_BYTES` where the system allows; its size."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    try:
        return int(fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ))
    except (OSError, AttributeError):
        return 65536


def _current(directory: Path) -> int | None:
    try:
        return fmt.read_pointer((directory / "CURRENT").read_bytes())
    except (OSError, fmt.FormatError):
        return None


class _Lines:
    """Complete lines read from a pipe, without reading ahead of what is asked."""

    def __init__(self, fd: int) -> None:
        self.fd, self.partial, self.lines = fd, b"", list[bytes]()

    def read(self, timeout: float) -> bool:
        """Read what the pipe holds (waiting up to *timeout*); False at its end or when
        nothing came within *timeout*."""
        if not select.select([self.fd], [], [], max(timeout, 0.0))[0]:
            return False
        chunk = os.read(self.fd, 65536)
        *whole, self.partial = (self.partial + chunk).split(b"\n")
        self.lines.extend(line + b"\n" for line in whole)
        return bool(chunk)


def _events(lines: list[bytes]) -> tuple[KillRecord, str | None]:
    begins: list[tuple[int, str]] = []
    acks: list[tuple[int, str]] = []
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            return KillRecord((), ()), f"not JSON on stdout: {line[:80]!r}"
        if not isinstance(message, dict) or message.get("event") not in ("begin", "ack"):
            return KillRecord((), ()), f"not a soak event before the kill: {line[:200]!r}"
        pair = (message.get("generation"), message.get("identity"))
        (begins if message["event"] == "begin" else acks).append(pair)  # type: ignore[arg-type]
    return KillRecord(tuple(begins), tuple(acks)), None


def _read_lead(lines: _Lines, lead: int) -> float | None:
    """Read until *lead* acks (or anything but soak events, or :data:`KILL_TIMEOUT`); the
    mean soak cycle from the first begin to the last ack read, None when *lead* acks never
    came."""
    deadline = time.monotonic() + KILL_TIMEOUT
    first_begin = None
    while True:
        seen, error = _events(lines.lines)
        if error is not None:
            return None
        if first_begin is None and seen.begins:
            first_begin = time.monotonic()
        if len(seen.acks) >= lead:
            return max((time.monotonic() - (first_begin or deadline)) / lead, MIN_CYCLE)
        if not lines.read(deadline - time.monotonic()):
            return None


def _watch(directory: Path, last_begin: int, ahead: int, seconds: float) -> None:
    """Watch ``CURRENT`` for *seconds*, or until it names a generation more than *ahead*
    past *last_begin* (a checkpoint no begin on the pipe can have announced)."""
    until = time.monotonic() + seconds
    while time.monotonic() < until and (_current(directory) or 0) <= last_begin + ahead:
        time.sleep(POLL)


def soak_unread(command: list[str], directory: Path, seed: int, lead: int) -> LagRecord:
    """Soak in *directory* on a fresh process of *command*, read until *lead* acks, stop
    reading, watch, SIGKILL, drain: the events written and ``CURRENT`` at the kill."""
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    fd = process.stdout.fileno()
    lines = _Lines(fd)
    try:
        pipe_bytes = _pipe_size(fd)
        args = {"dir": str(directory), "iterations": SOAK_ITERATIONS, "seed": seed}
        request = {"id": REQUEST_ID, "op": "state.soak", "args": args}
        process.stdin.write(json.dumps(request).encode() + b"\n")
        process.stdin.flush()
        cycle = _read_lead(lines, lead)
        if cycle is not None:
            ahead = pipe_bytes // SMALLEST_CHECKPOINT_LINES + 1
            begins = _events(lines.lines)[0].begins
            last = max([g for g, _ in begins if isinstance(g, int)], default=0)
            seconds = min(KILL_TIMEOUT, max(MIN_WATCH, (ahead + MARGIN_CYCLES) * cycle))
            _watch(directory, last, ahead, seconds)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    current = _current(directory)
    while lines.read(KILL_TIMEOUT):
        pass
    record, error = _events(lines.lines)
    if error is None and len(record.acks) < lead:
        error = f"fewer than {lead} acks within {KILL_TIMEOUT:g} s"
    if error is None and process.returncode != -signal.SIGKILL:
        error = f"the engine ended with status {process.returncode} before it was killed"
    with contextlib.suppress(BrokenPipeError):
        process.stdin.close()
    process.stdout.close()
    return LagRecord(KillRecord(record.begins, record.acks, error), lead, pipe_bytes, current)
