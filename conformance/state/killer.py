"""SIGKILL an engine in the middle of a soak and record what it had acknowledged.

The engine's ``state.soak`` op writes a ``begin`` event before each checkpoint and an
``ack`` event once the checkpoint is durable. The harness waits for a chosen number
of acks, then for a chosen phase of the engine's own soak cycle (measured on the
events so far, so a slow engine is killed at every moment of its cycle as a fast one
is), sends SIGKILL, then drains every line the engine wrote before it died.
"""

from __future__ import annotations

import abc
import atexit
import contextlib
import itertools
import json
import os
import queue
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any

SOAK_ITERATIONS = 1_000_000
KILL_TIMEOUT = 60.0
"""Ceiling on the wait for one soak's acknowledgements: catches a hang, never paces a test."""


def kill_workers(kills: int) -> int:
    """Soaks run at once: twice the cores (a soak waits on fsync as much as it computes)."""
    return max(1, min(kills, 2 * (os.cpu_count() or 1)))


PHASES = 1000
"""A kill plan's phase is in per mille of :data:`PHASE_CYCLES` soak cycles."""
PHASE_CYCLES = 2
"""The kill lands within this many soak cycles after the chosen ack: every moment of a
checkpoint, from its start to its acknowledgement, is reachable."""
SOCKET_DIR_MAX = 60
"""Longest temporary directory a zygote's socket goes in (a Unix socket path has at most
107 bytes); past it, ``/tmp``."""
MIN_CYCLE = 0.001
"""Seconds: the shortest soak cycle assumed, however close together the events came."""


@dataclass(frozen=True)
class KillPlan:
    """When to kill: after *acks* acknowledged checkpoints, at *phase* per mille of
    :data:`PHASE_CYCLES` soak cycles (the engine's mean cycle so far) later."""

    seed: int
    acks: int
    phase: int

    def delay(self, cycle: float) -> float:
        """Seconds to wait after the last ack, for a soak cycle of *cycle* seconds."""
        return self.phase / PHASES * PHASE_CYCLES * max(cycle, MIN_CYCLE)


@dataclass(frozen=True)
class KillRecord:
    """The soak events seen before the kill: (generation, identity) pairs, in order.

    Each checkpoint's ``begin`` comes before its ``ack``, so the begin after the last ack
    (``begins[len(acks)]``) announces the checkpoint in flight, whatever its number: a
    correct engine numbers past a generation a crash left beyond ``CURRENT``.
    """

    begins: tuple[tuple[int, str], ...]
    acks: tuple[tuple[int, str], ...]
    error: str | None = None

    def in_flight(self) -> tuple[int, str] | None:
        """The (generation, identity) the checkpoint in flight announced, if one was begun."""
        return self.begins[len(self.acks)] if len(self.begins) > len(self.acks) else None

    def allowed(self) -> dict[int, str]:
        """Generation -> identity of every state a restart may load."""
        states = dict(self.acks[-1:])
        states.update(filter(None, [self.in_flight()]))
        return states

    def judge(self, loaded: dict[str, Any]) -> str:
        """``loaded_acknowledged``, ``loaded_in_flight``, ``lost`` or ``invalid`` for a restart
        that loaded *loaded* (a ``state.load`` result)."""
        last = self.acks[-1] if self.acks else (0, None)
        pair = (loaded.get("generation", 0), loaded.get("identity"))
        if pair == last or (not self.acks and loaded.get("fresh")):
            return "loaded_acknowledged"
        if pair == self.in_flight():
            return "loaded_in_flight"
        return "lost" if isinstance(pair[0], int) and pair[0] < last[0] else "invalid"


def _pump(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    for line in iter(stream.readline, b""):
        lines.put(line)
    lines.put(None)


def mean_cycle(first_begin: float, last_ack: float, acks: int) -> float:
    """The mean soak cycle: from the first checkpoint's start to the last ack, per ack."""
    return (last_ack - first_begin) / max(acks, 1)


def _parsed(line: bytes) -> object:
    """*line* parsed as JSON, or None when it is not JSON."""
    try:
        return json.loads(line)
    except ValueError:
        return None


Process = subprocess.Popen[bytes]


def start(command: list[str]) -> Process:
    """An engine process in its own session, stdin and stdout piped, stderr discarded."""
    return subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


class SpawnFailed(Exception):
    """No engine process could be had for a soak; the message says why."""


class Soaker(abc.ABC):
    """One engine process for one soak: its pid leads its process group."""

    pid: int
    stdout: IO[bytes]

    @abc.abstractmethod
    def send(self, line: bytes) -> None:
        """Write *line* to the engine's input (a dead engine's refusal is ignored)."""

    @abc.abstractmethod
    def kill(self) -> None:
        """SIGKILL the engine, then wait until it has ended."""


class Started(Soaker):
    """An engine process started from its command."""

    def __init__(self, process: Process) -> None:
        assert process.stdout is not None
        self.process, self.pid, self.stdout = process, process.pid, process.stdout

    def send(self, line: bytes) -> None:
        with contextlib.suppress(BrokenPipeError):
            _send(self.process, line)

    def kill(self) -> None:
        _kill(self.process)


class Forked(Soaker):
    """An engine process forked by a :class:`Zygote`, serving core-engine/1 on *conn*.

    It is not the harness's child: it is killed and awaited through a pidfd, which
    names that process and no later one that reuses its pid.
    """

    def __init__(self, pid: int, conn: socket.socket) -> None:
        self.pid, self.conn = pid, conn
        self.pidfd = os.pidfd_open(pid)
        self.stdout = conn.makefile("rb")

    def send(self, line: bytes) -> None:
        with contextlib.suppress(OSError):
            self.conn.sendall(line)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        ended = select.select([self.pidfd], [], [], KILL_TIMEOUT)[0]
        os.close(self.pidfd)
        self.conn.close()
        if not ended:
            raise SpawnFailed(
                f"the forked engine {self.pid} did not end {KILL_TIMEOUT:g} s after SIGKILL"
            )


class WarmStarts:
    """Engine processes started ahead of the soaks that take them.

    Starting an engine is most of what a kill costs; a process started ahead loads
    while earlier soaks run and are checked. A process waits on its stdin until it is
    taken, so the soak's timing is unchanged. One command's processes are kept at a
    time; the rest are ended by :meth:`close` (also at exit).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._command: list[str] = []
        self._ready: deque[Process] = deque()
        atexit.register(self.close)

    def take(self, command: list[str], ahead: int) -> Process:
        """A started process of *command*; *ahead* more are started to follow it."""
        with self._lock:
            if command != self._command:
                self._end_all()
                self._command = list(command)
            process = self._ready.popleft() if self._ready else start(command)
            while len(self._ready) < ahead:
                self._ready.append(start(command))
        return process

    def close(self) -> None:
        """End every process not yet taken."""
        with self._lock:
            self._end_all()

    def forget(self) -> None:
        """In a forked harness: drop the processes the parent started; they stay the parent's."""
        self._lock = threading.Lock()
        self._command = []
        self._ready = deque()

    def _end_all(self) -> None:
        while self._ready:
            process = self._ready.popleft()
            _kill(process)
            if process.stdout is not None:
                process.stdout.close()


class Zygote:
    """An engine process kept only to fork soak engines from (``engine.fork``).

    Each fork is a fresh engine serving core-engine/1 on a connection to this zygote's
    listening Unix socket: a fork instead of a whole process start per kill. Forks are
    asked for one at a time, so the connection accepted is the child just answered.
    """

    def __init__(self, command: list[str]) -> None:
        self._process = start(command)
        self._answers = _ask(self._process, None)
        short = "/tmp" if len(tempfile.gettempdir()) > SOCKET_DIR_MAX else None
        self._directory = tempfile.mkdtemp(prefix="core-fork-", dir=short)
        self._path = os.path.join(self._directory, "fork.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self._path)
        self._listener.listen()
        self._listener.settimeout(KILL_TIMEOUT)
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    @property
    def socket_path(self) -> str:
        return self._path

    def ended(self) -> bool:
        """Whether the zygote process has exited."""
        return self._process.poll() is not None

    def stdio_pipes(self) -> set[int]:
        """The inodes of the pipes that are the zygote's stdin and stdout."""
        streams = (self._process.stdin, self._process.stdout)
        return {os.fstat(stream.fileno()).st_ino for stream in streams if stream is not None}

    def call(self, op: str, args: Mapping[str, object]) -> dict[str, Any]:
        """Send one request to the zygote over its stdin; its response object."""
        with self._lock:
            return self._call(op, args)

    def _call(self, op: str, args: Mapping[str, object]) -> dict[str, Any]:
        request_id = next(self._ids)
        request = {"id": request_id, "op": op, "args": args}
        with contextlib.suppress(BrokenPipeError):
            _send(self._process, json.dumps(request).encode() + b"\n")
        try:
            line = self._answers.get(timeout=KILL_TIMEOUT)
        except queue.Empty:
            raise SpawnFailed(f"the zygote did not answer {op} within {KILL_TIMEOUT:g} s") from None
        if line is None:
            raise SpawnFailed(f"the zygote exited instead of answering {op}")
        response = _parsed(line)
        if not isinstance(response, dict) or response.get("id") != request_id:
            raise SpawnFailed(f"the zygote answered {op} with {line[:200]!r}")
        return response

    def fork(self) -> Forked:
        """A fresh engine forked from the zygote, leading its own process group."""
        with self._lock:
            response = self._call("engine.fork", {"socket": self._path})
            pid = response.get("result", {}).get("pid") if response.get("ok") is True else None
            if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
                raise SpawnFailed(f"engine.fork was answered {json.dumps(response)[:200]}")
            return self.accept(pid)

    def accept(self, pid: int) -> Forked:
        """The connection of the child *pid* just answered for; SpawnFailed when it never
        connects, ends at once, or does not lead its own process group."""
        try:
            conn, _ = self._listener.accept()
        except TimeoutError:
            raise SpawnFailed(f"the forked engine {pid} never connected") from None
        try:
            forked = Forked(pid, conn)
            leads = os.getpgid(pid) == pid
        except ProcessLookupError:
            conn.close()
            raise SpawnFailed(f"the forked engine {pid} ended before it was used") from None
        if not leads:
            forked.kill()
            raise SpawnFailed(f"the forked engine {pid} does not lead its own process group")
        return forked

    def close(self) -> None:
        _kill(self._process)
        self._listener.close()
        shutil.rmtree(self._directory, ignore_errors=True)


class Zygotes:
    """The zygote of one command at a time (another command, or its exit, ends it and
    the next ``get`` starts one afresh), ended at exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: tuple[list[str], Zygote] | None = None
        atexit.register(self.close)

    def get(self, command: list[str]) -> Zygote:
        with self._lock:
            if self._kept is not None and (self._kept[0] != command or self._kept[1].ended()):
                self._kept[1].close()
                self._kept = None
            if self._kept is None:
                self._kept = (list(command), Zygote(command))
            return self._kept[1]

    def close(self) -> None:
        with self._lock:
            if self._kept is not None:
                self._kept[1].close()
                self._kept = None

    def forget(self) -> None:
        """In a forked harness: the parent's zygote stays the parent's."""
        self._lock = threading.Lock()
        self._kept = None


WARM = WarmStarts()
"""The processes started ahead for STATE-KILL-001 in this harness process."""
ZYGOTES = Zygotes()
"""The zygote STATE-KILL-001 forks from, for an engine that claims ``fork``."""
os.register_at_fork(after_in_child=WARM.forget)
os.register_at_fork(after_in_child=ZYGOTES.forget)

Spawn = Callable[[], Soaker]
"""Gives the engine process for one soak."""


def spawner(command: list[str], forks: bool, ahead: int = 0) -> Spawn:
    """Soak engines of *command*: forked from its zygote when *forks* (the engine claims
    ``fork``) and this system has pidfds to await a process that is not the harness's
    child (Linux 5.3), else started, with *ahead* more started to follow each one."""
    if forks and hasattr(os, "pidfd_open"):
        return lambda: ZYGOTES.get(command).fork()
    if ahead:
        return lambda: Started(WARM.take(command, ahead))
    return lambda: Started(start(command))


def soak_and_kill(spawn: Spawn, directory: str, plan: KillPlan, timeout: float) -> KillRecord:
    """Run ``state.soak`` in *directory* on an engine from *spawn*, SIGKILL it per *plan*,
    return what it acknowledged."""
    try:
        process = spawn()
    except SpawnFailed as failure:
        return KillRecord((), (), str(failure))
    args = {"dir": directory, "iterations": SOAK_ITERATIONS, "seed": plan.seed}
    lines = _ask(process, {"id": 1, "op": "state.soak", "args": args})
    begins: list[tuple[int, str]] = []
    acks: list[tuple[int, str]] = []
    error: str | None = None
    ended = False
    first_begin = None
    deadline = time.monotonic() + timeout
    while len(acks) < plan.acks and error is None:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            error = f"timeout: fewer than {plan.acks} acks within {timeout:g} s"
            break
        ended = line is None
        error = _record(line, begins, acks)
        if begins and first_begin is None:
            first_begin = time.monotonic()
    now = time.monotonic()
    time.sleep(plan.delay(mean_cycle(first_begin or now, now, len(acks))))
    try:
        process.kill()
    except SpawnFailed as failure:
        return KillRecord(tuple(begins), tuple(acks), str(failure))
    while not ended and (line := lines.get(timeout=timeout)) is not None:
        if not line.endswith(b"\n"):
            break  # a line the kill cut short: never received, so nothing it says counts
        error = error or _record(line, begins, acks)
    return KillRecord(tuple(begins), tuple(acks), error)


def soak_lines(spawn: Spawn, request: Mapping[str, object]) -> list[object]:
    """Every stdout line (parsed; a line that is not JSON as its bytes) an engine from
    *spawn* writes for one whole ``state.soak`` *request*, up to its response."""
    try:
        process = spawn()
    except SpawnFailed as failure:
        return [str(failure)]
    lines = _ask(process, request)
    seen: list[object] = []
    try:
        while (line := lines.get(timeout=KILL_TIMEOUT)) is not None:
            try:
                message: object = json.loads(line)
            except ValueError:
                message = line
            seen.append(message)
            if isinstance(message, dict) and "ok" in message:
                break
    except queue.Empty:
        seen.append(f"no response within {KILL_TIMEOUT:g} s")
    finally:
        with contextlib.suppress(SpawnFailed):
            process.kill()
    return seen


def _ask(
    process: Soaker | Process, request: Mapping[str, object] | None
) -> queue.Queue[bytes | None]:
    """Send *request* (if any) to *process*; its output lines, then None at the end,
    arrive on the queue.

    A dead engine refuses the line; its output then ends, which the caller sees.
    """
    lines: queue.Queue[bytes | None] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    if request is not None:
        line = json.dumps(request).encode() + b"\n"
        if isinstance(process, Soaker):
            process.send(line)
        else:
            with contextlib.suppress(BrokenPipeError):
                _send(process, line)
    return lines


def _record(
    line: bytes | None, begins: list[tuple[int, str]], acks: list[tuple[int, str]]
) -> str | None:
    if line is None:
        return "the engine exited before it was killed"
    message = _parsed(line)
    if not isinstance(message, dict):
        return f"not a JSON object on stdout: {line[:80]!r}"
    event = message.get("event")
    if event in ("begin", "ack"):
        (begins if event == "begin" else acks).append((message["generation"], message["identity"]))
        return None
    return f"soak ended or failed before the kill: {json.dumps(message)[:200]}"


def _send(process: Process, line: bytes) -> None:
    assert process.stdin is not None
    process.stdin.write(line)
    process.stdin.flush()


def _kill(process: Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    if process.stdin is not None:
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
