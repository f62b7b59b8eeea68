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
        """Read what the pipe holds now (waiting up to *timeout*); False at its end."""
        if not select.select([self.fd], [], [], timeout)[0]:
            return True
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
        started = time.monotonic()
        deadline = started + KILL_TIMEOUT
        first_begin = None
        while len(_events(lines.lines)[0].acks) < lead and time.monotonic() < deadline:
            if not lines.read(deadline - time.monotonic()):
                break
            if first_begin is None and _events(lines.lines)[0].begins:
                first_begin = time.monotonic()
        cycle = max((time.monotonic() - (first_begin or started)) / max(lead, 1), MIN_CYCLE)
        ahead = pipe_bytes // SMALLEST_CHECKPOINT_LINES + 1
        seen = _events(lines.lines)[0]
        last = max([g for g, _ in seen.begins if isinstance(g, int)], default=0)
        watch_until = time.monotonic() + max(MIN_WATCH, (ahead + MARGIN_CYCLES) * cycle)
        current = _current(directory)
        while time.monotonic() < watch_until and (current or 0) <= last + ahead:
            time.sleep(POLL)
            current = _current(directory)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 9)
        process.wait()
    current = _current(directory)
    while lines.read(KILL_TIMEOUT):
        pass
    record, error = _events(lines.lines)
    if error is None and process.returncode != -9:
        error = f"the engine ended with status {process.returncode} before it was killed"
    with contextlib.suppress(BrokenPipeError):
        process.stdin.close()
    process.stdout.close()
    return LagRecord(KillRecord(record.begins, record.acks, error), lead, pipe_bytes, current)
