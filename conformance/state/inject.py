"""Fail one system call of an engine's state session at a time, with strace (STATE-EIO-*).

A session is a list of requests. ``record`` runs it once under strace and lists the calls
it makes on the state directory; ``plan`` chooses which of them to fail and with which
errno (one call of each kind, by the request it serves, the path it touches and how that
path was opened: a later call of the same kind fails the same way), and ``inject`` runs
the session again in a fresh engine process with that one call failed
(``strace -e inject=<call>:error=<errno>:when=<n>``; an fsync may fail twice in a row).
Each run keeps the engine's answers, the calls strace failed and the file operations the
log shows, a failed fsync kept as ``fsync_failed``: what it was to make durable is
assumed lost, whatever a later fsync of the same file says (PostgreSQL, 2018).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import re
import select
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from conformance.engines.view import view
from conformance.jsontypes import EncodableObject
from conformance.state import strace
from conformance.state.crashstates import Image, apply, fate_menu, snapshot
from conformance.state.killer import ZYGOTES, Forked

ERRNOS = ("EIO", "ENOSPC", "EROFS")
TWICE = "EIO"
"""The errno of the injections that fail an fsync and the next one (its retry)."""
SESSION_TIMEOUT = 60.0
STORE = "$store"
"""Stands in a request's arguments for the store the session's ``state.open`` answered."""
_NUMBERED = re.compile(r"(gen-)[0-9]{8}|(staging-)[0-9]+")


@dataclass(frozen=True)
class Request:
    """One request of a session; ``STORE`` in its arguments is the open store's name."""

    op: str
    args: dict[str, Any]

    def bound(self, store: str | None) -> EncodableObject:
        return {k: store if v == STORE else v for k, v in self.args.items()}


@dataclass(frozen=True)
class Answer:
    """What the engine answered one request: its result, or its refusal."""

    result: dict[str, Any] | None = None
    code: str | None = None
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.code is None


@dataclass(frozen=True)
class Injection:
    """Fail invocation *number* of *call* (and, when *times* is 2, the next) with *errno*;
    *request* is the index of the request it serves, *path* what it touches."""

    call: str
    number: int
    errno: str
    path: str
    request: int
    times: int = 1

    @property
    def spec(self) -> str:
        last = f"..{self.number + 1}" if self.times == 2 else ""
        return f"{self.call}:error={self.errno}:when={self.number}{last}"

    def describe(self) -> str:
        twice = " twice in a row" if self.times == 2 else ""
        return f"{self.call} #{self.number} on {self.path} failed with {self.errno}{twice}"


@dataclass
class Run:
    """One session: the answers (None for a request never answered), the fault that ended
    it, the calls on the directory strace failed, the file operations on the directory,
    every call on it, and how many calls strace failed elsewhere (in a wrapper process,
    say: a run where that happened is not the engine's to answer for)."""

    answers: list[Answer | None]
    fault: str | None
    failed: list[strace.StateCall]
    ops: list[dict[str, Any]]
    calls: list[strace.StateCall] = field(default_factory=list)
    stray: int = 0


Session = list[Request]


def landed(injection: Injection, run: Run, requests: int | None = None) -> bool:
    """Whether the call strace failed first is the one planned: its kind, its path and the
    request it serves (of *requests*, a call after the last answer serving the last), and no
    call failed elsewhere. An engine whose calls differ from run to run (threads, lazily
    loaded code) may see the planned invocation number fall on another call; such a run says
    nothing about the call that was aimed at."""
    first = run.failed[0] if run.failed else None
    if run.stray or first is None or not first.paths:
        return False
    served = first.answers if requests is None else min(first.answers, requests - 1)
    return (first.name, first.paths[0], served) == (
        injection.call,
        injection.path,
        injection.request,
    )


class _Wire:
    """Request lines out, response lines in, for one engine process under strace."""

    def __init__(self, send: Callable[[bytes], None], stream: IO[bytes]) -> None:
        self.send = send
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.ids = itertools.count(1)
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in iter(stream.readline, b""):
                self.lines.put(line)
        self.lines.put(None)

    def call(self, op: str, args: EncodableObject) -> Answer:
        """One request's answer; ``_Ended`` when the engine ends, hangs or garbles it."""
        request_id = next(self.ids)
        with contextlib.suppress(OSError):
            self.send(json.dumps({"id": request_id, "op": op, "args": args}).encode() + b"\n")
        try:
            line = self.lines.get(timeout=SESSION_TIMEOUT)
        except queue.Empty:
            raise _Ended(f"timeout: no answer to {op} within {SESSION_TIMEOUT:g} s") from None
        if line is None:
            raise _Ended(f"crash: the engine ended instead of answering {op}")
        try:
            response = json.loads(line)
        except ValueError:
            raise _Ended(f"protocol: {op} was answered {line[:200]!r}") from None
        if not isinstance(response, dict) or response.get("id") != request_id:
            raise _Ended(f"protocol: {op} was answered {line[:200]!r}")
        if response.get("ok") is True and isinstance(response.get("result"), dict):
            return Answer(result=view(response["result"], f"{op} $.result"))
        error = response.get("error")
        error = error if isinstance(error, dict) else {}
        return Answer(code=str(error.get("code")), message=str(error.get("message", "")))


class _Ended(Exception):
    """The engine stopped answering: it crashed, hung or broke the framing."""


def _drive(wire: _Wire, session: Session) -> tuple[list[Answer | None], str | None]:
    answers: list[Answer | None] = [None] * len(session)
    store = None
    for index, request in enumerate(session):
        try:
            answer = wire.call(request.op, request.bound(store))
        except _Ended as ended:
            return answers, str(ended)
        answers[index] = answer
        if request.op == "state.open":
            if not answer.ok:
                break
            store = (answer.result or {}).get("store")
    return answers, None


@dataclass(frozen=True)
class _Ran:
    answers: list[Answer | None]
    fault: str | None
    stream: str | None
    """How strace names the descriptor the engine answers on (``pipe:[n]``, ``socket:[n]``)."""


class Launcher:
    """Starts the engine process a session runs in, under strace: forked from the zygote
    of *command* when the engine claims ``fork`` (strace attaches to the child), else a
    fresh process (strace starts it). Either way invocation numbers count from what the
    process does under strace, as in the recording of a session by the same launcher."""

    def __init__(self, command: list[str], forks: bool) -> None:
        self.command = command
        self.forks = forks and hasattr(os, "pidfd_open")

    def run(self, log: Path, inject: str | None, session: Session) -> _Ran:
        """Run *session* under strace logging to *log*, failing what *inject* names."""
        if self.forks:
            return self._forked(log, inject, session)
        return self._started(log, inject, session)

    def _started(self, log: Path, inject: str | None, session: Session) -> _Ran:
        process = subprocess.Popen(
            strace.traced(self.command, log, inject),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert process.stdin is not None and process.stdout is not None
        stdin = process.stdin
        pipe = f"pipe:[{os.fstat(process.stdout.fileno()).st_ino}]"

        def send(line: bytes) -> None:
            stdin.write(line)
            stdin.flush()

        try:
            answers, fault = _drive(_Wire(send, process.stdout), session)
        finally:
            with contextlib.suppress(OSError):
                stdin.close()
            _end(process)
        return _Ran(answers, fault, pipe)

    def _forked(self, log: Path, inject: str | None, session: Session) -> _Ran:
        child = ZYGOTES.get(self.command).fork()
        stream = _socket_of(child.pid)
        tracer = subprocess.Popen(
            attached(child.pid, log, inject),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _await_attach(tracer, child.pid)
            answers, fault = _drive(_Wire(child.conn.sendall, child.stdout), session)
        except _Ended as ended:
            answers, fault = [None] * len(session), str(ended)
        finally:
            with contextlib.suppress(OSError):
                child.conn.shutdown(socket.SHUT_WR)
            _await_exit(child)
            _end(tracer)
        return _Ran(answers, fault, stream)


def attached(pid: int, log: Path, inject: str | None) -> list[str]:
    """strace attaching to *pid* (and what it forks), logging as :func:`strace.traced`
    does; it says on stderr when it has attached."""
    traced = strace.traced(["true"], log, inject)
    options = [arg for arg in traced[1 : traced.index("--")] if arg not in ("--seccomp-bpf", "-qq")]
    options = [f"{o},{strace.SOCKET_CALLS}" if o.startswith("trace=") else o for o in options]
    return [traced[0], *options, "-p", str(pid)]


def _socket_of(pid: int) -> str | None:
    """The socket a forked engine serves on, as the kernel names it (``socket:[n]``)."""
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:"):
                return target
    return None


def _await_attach(tracer: subprocess.Popen[bytes], pid: int) -> None:
    """Wait for strace to say it attached to *pid*."""
    assert tracer.stderr is not None
    line = tracer.stderr.readline()
    if f"Process {pid} attached".encode() not in line:
        raise _Ended(f"strace did not attach to the engine: {line[:200]!r}")


def _await_exit(child: Forked) -> None:
    """Wait for a forked engine to end once its input ended; SIGKILL it past the ceiling."""
    if not select.select([child.pidfd], [], [], SESSION_TIMEOUT)[0]:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(child.pidfd, signal.SIGKILL)
        select.select([child.pidfd], [], [], SESSION_TIMEOUT)
    os.close(child.pidfd)
    child.conn.close()


def _end(process: subprocess.Popen[bytes]) -> None:
    try:
        process.wait(timeout=SESSION_TIMEOUT)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def run_session(
    launcher: Launcher, directory: Path, session: Session, injection: Injection | None
) -> Run:
    """Run *session* on *directory* in a fresh engine under strace, failing *injection*."""
    dirs = {path for path, value in snapshot(directory).items() if value is None} | {"."}
    with tempfile.TemporaryDirectory(prefix="core-eio-") as logs:
        log = Path(logs) / "strace.log"
        ran = launcher.run(log, injection.spec if injection else None, session)
        text = log.read_text("ascii", errors="replace")
    calls = strace.state_calls(text, directory, ran.stream)
    ops = strace.file_ops(text, directory, dirs, ran.stream, failed_syncs=True)
    failed = [call for call in calls if call.injected]
    stray = sum(1 for _, call in strace.calls(text) if call.injected) - len(failed)
    return Run(ran.answers, ran.fault, failed, ops, calls, stray)


def _shape(path: str) -> str:
    """*path* with generation and staging numbers taken out: one checkpoint's calls are
    the next one's with other numbers."""
    return _NUMBERED.sub(lambda m: (m.group(1) or m.group(2)) + "N", path)


def errnos_for(call: strace.StateCall) -> tuple[str, ...]:
    """Each of :data:`ERRNOS` for a call that changes the directory (an open for writing
    included); EIO alone for an open to read and a close: these fail one way whatever
    the errno (the call did not happen), so the others would repeat the same run."""
    return ERRNOS if strace.changes(call.name, call.flags) else (TWICE,)


"""Calls each of which is failed where it falls: a line written in two writes may tear."""


def plannable(call: strace.StateCall, calls: list[strace.StateCall]) -> bool:
    """Whether *call* (of the recorded *calls*) may be chosen to fail: a call of the first
    process (the engine's, not a wrapper's), and not an ``lstat`` of the state directory's
    own path, which the caller chose and may be a link."""
    return call.pid == calls[0].pid and not (call.name in strace.STATS and call.paths == (".",))


def plan(calls: list[strace.StateCall], session: Session) -> list[Injection]:
    """One injection per errno for the first call of each kind (the op of its request,
    the call, the shapes of its paths, its open flags (a ``close``: those its descriptor was
    opened with, and whether a change was made through it); for a write, also how many writes
    to that path the request made before it, and for an ``lstat`` how many of that path's
    shape: a checkpoint examines its live generation's files, then step 6 each generation
    it may remove; the entries beneath the state directory, not the directory's own path,
    which the caller chose and may be a link), and, for each such fsync, one that fails it
    and the next fsync; in the order the calls were made."""
    seen: set[tuple[Any, ...]] = set()
    writes: dict[tuple[int, tuple[str, ...]], int] = {}
    stats: dict[tuple[int, tuple[str, ...]], int] = {}
    chosen: list[Injection] = []
    for call in calls:
        if not plannable(call, calls):
            continue
        request = min(call.answers, len(session) - 1)
        shapes = tuple(map(_shape, call.paths))
        nth = 0
        counted = (
            writes if call.name in strace.WRITES else stats if call.name in strace.STATS else None
        )
        if counted is not None:
            nth = counted[request, shapes] = counted.get((request, shapes), 0) + 1
        key = (session[request].op, call.name, shapes, call.flags, call.changed, nth)
        if key in seen:
            continue
        seen.add(key)
        chosen += _failing(call, request, errnos_for(call))
    return chosen


def _failing(call: strace.StateCall, request: int, errnos: tuple[str, ...]) -> list[Injection]:
    """*call* failed with each of *errnos*, and an fsync also with the next fsync."""
    made = [Injection(call.name, call.number, errno, call.paths[0], request) for errno in errnos]
    if call.name in ("fsync", "fdatasync"):
        made.append(Injection(call.name, call.number, TWICE, call.paths[0], request, times=2))
    return made


def plan_every(calls: list[strace.StateCall], session: Session) -> list[Injection]:
    """Every call on the state directory failed with each of :data:`ERRNOS`, and each
    fsync also with the next one: :func:`plan` without its deduplication (for figures)."""
    chosen: list[Injection] = []
    for call in calls:
        if call.pid != calls[0].pid:
            continue
        chosen += _failing(call, min(call.answers, len(session) - 1), ERRNOS)
    return chosen


Planner = Callable[[list[strace.StateCall], Session], list[Injection]]


def answered_at(ops: list[dict[str, Any]]) -> list[int]:
    """Where in *ops* each answer was written: the operations before the n-th answer are
    ``ops[:answered_at(ops)[n]]``."""
    return [index for index, op in enumerate(ops) if op["op"] == "answer"]


def durable_image(image: Image, ops: list[dict[str, Any]]) -> Image:
    """The directory a power cut right after *ops* leaves when everything not made durable
    is lost: data whose fsync did not come, or failed (no later fsync revives it), and
    entries whose directory's fsync did not come, or failed."""
    file_ops = [op for op in ops if op["op"] not in ("answer", "ack")]
    unmodelled = sorted({op["call"] for op in file_ops if op["op"] == "unmodelled"})
    if unmodelled:
        raise AssertionError(f"the engine used {unmodelled}, which the crash model does not cover")
    result = dict(image)
    end = len(file_ops)
    for index, op in enumerate(file_ops):
        menu = fate_menu(file_ops, index, end)
        fate = "lost" if "lost" in menu else "empty" if "empty" in menu else "applied"
        apply(result, op, fate)
    return result


Prepare = Callable[[Path], None]


def copy_image(image: Image) -> Prepare:
    """A preparation that writes *image* into an empty directory."""
    from conformance.state.crashstates import materialise

    return lambda directory: materialise(image, directory)


def live_image(directory: Path) -> Image:
    """The directory as the engine left it (``LOCK`` included)."""
    return snapshot(directory)
