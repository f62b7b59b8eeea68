"""Plug any engine in as a program speaking core-engine/1 over stdin/stdout.

A reader thread turns stdout into a bounded queue of bounded lines, so every
request has a timeout and no engine can grow the harness: a hung engine is killed
and reported, never waited on forever; an over-long line is a protocol fault.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from typing import IO

from conformance.canonical import RefusedJSON, read_json
from conformance.engines.base import EngineClient, EngineFault
from conformance.jsontypes import EncodableObject

MAX_LINE_BYTES = 8 * 1024 * 1024
"""Longest stdout line accepted from an engine; a longer one is a protocol fault."""
QUEUE_LINES = 16
"""Stdout lines buffered ahead of the harness; the reader waits when the queue is full."""
TAIL_LINES = 10
"""How many of the engine's last stderr and stdout lines a fault report shows."""
TAIL_LINE_CHARS = 200
CLOSE_GRACE_SECONDS = 5.0
"""How long a closed engine may take to exit on its own before it is killed."""

_EOF = object()


class _Overlong(bytes):
    """The first bytes of a stdout line longer than MAX_LINE_BYTES."""


def encode_request(request: EncodableObject) -> bytes:
    """*request* as one UTF-8 JSON line (without ``\\n``).

    A string holding a lone surrogate cannot be UTF-8: it is written as its ``\\uXXXX``
    escape, which is how such a request reaches an engine on the wire.
    """
    try:
        return json.dumps(request, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(request).encode("ascii")


def parse_command(command: str) -> list[str]:
    """Split an engine command line; an empty or unparsable one raises ValueError."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cannot parse the engine command {command!r}: {exc}") from None
    if not argv:
        raise ValueError("the engine command is empty")
    return argv


def _printable(line: bytes) -> str:
    text = line.rstrip(b"\r\n").decode("utf-8", "replace")
    return text if len(text) <= TAIL_LINE_CHARS else text[: TAIL_LINE_CHARS - 3] + "..."


class _Pump:
    """Reads one process's stdout into a bounded queue; keeps the last lines for reports."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.lines: queue.Queue[object] = queue.Queue(maxsize=QUEUE_LINES)
        self.tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self.stopped = threading.Event()
        self.ended = threading.Event()
        """Set once the stream has ended (or the pump was stopped)."""
        threading.Thread(target=self._run, args=(stream,), daemon=True).start()

    def _run(self, stream: IO[bytes]) -> None:
        try:
            self._read(stream)
        finally:
            self.ended.set()

    def _read(self, stream: IO[bytes]) -> None:
        while not self.stopped.is_set():
            line = stream.readline(MAX_LINE_BYTES + 1)
            if not line:
                break
            self.tail.append(_printable(line))
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                self._put(_Overlong(line[:120]))
                return
            self._put(line)
        self._put(_EOF)

    def _put(self, item: object) -> None:
        while not self.stopped.is_set():
            try:
                self.lines.put(item, timeout=0.5)
                return
            except queue.Full:
                continue


class _StderrTail:
    """Drains one process's stderr, keeping only its last lines (bounded memory, no file)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self.done = threading.Event()
        threading.Thread(target=self._run, args=(stream,), daemon=True).start()

    def _run(self, stream: IO[bytes]) -> None:
        for line in iter(lambda: stream.readline(MAX_LINE_BYTES), b""):
            self.lines.append(_printable(line))
        self.done.set()


class SubprocessEngine(EngineClient):
    """An engine program; restarted (up to ``max_restarts``) after a crash or hang."""

    def __init__(
        self,
        command: str,
        *,
        timeout: float = 10.0,
        strict: bool = False,
        max_restarts: int = 10,
        unavailable_hint: str = "",
    ) -> None:
        super().__init__(strict=strict)
        self.unavailable_hint = unavailable_hint
        self.argv = parse_command(command)
        self.command = command
        self.description = command
        self.timeout = timeout
        self.max_restarts = max_restarts
        self.restarts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._start_error: OSError | None = None
        self._ended = False
        self._start()

    def _start(self) -> None:
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )
        except OSError as exc:
            self._process, self._start_error = None, exc
            return
        assert self._process.stdout is not None and self._process.stderr is not None
        self._pump = _Pump(self._process.stdout)
        self._stderr = _StderrTail(self._process.stderr)
        self._ended = False

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote on stderr (all of them, once it has exited)."""
        if self._process is None:
            return []
        if self._process.poll() is not None:
            self._stderr.done.wait(CLOSE_GRACE_SECONDS)
        return list(self._stderr.lines)

    def output_tails(self) -> dict[str, list[str]]:
        stdout = list(self._pump.tail) if self._process is not None else []
        return {"stderr": self.stderr_tail(), "stdout": stdout}

    def _exchange(self, request: EncodableObject) -> object:
        self._write(encode_request(request) + b"\n")
        return self._read_response()

    def _exchange_lines(self, data: bytes, count: int) -> list[object]:
        """Write *data* from another thread while the responses are read: an engine that
        answers each line before it reads the next blocks on a full stdout pipe, and would
        wait forever on a harness still writing."""
        stdin = self._stdin()
        writer = threading.Thread(target=self._write_all, args=(stdin, data), daemon=True)
        writer.start()
        try:
            return [self._read_response() for _ in range(count)]
        finally:
            writer.join(self.timeout)

    def _write(self, data: bytes) -> None:
        """Write *data* to the running engine's stdin and flush it."""
        self._write_all(self._stdin(), data)

    def _stdin(self) -> IO[bytes]:
        """The running engine's stdin (EngineFault when it is not running)."""
        if self._process is None:
            raise EngineFault("crash", f"cannot start {self.argv[0]!r}: {self._start_error}")
        if self._ended or self._pump.stopped.is_set():
            status = self._process.poll()
            message = f"engine is not running (exit status {status})"
            raise EngineFault("crash", message, exit_status=status)
        stdin = self._process.stdin
        if stdin is None:
            raise EngineFault("crash", "the engine's stdin is not a pipe")
        return stdin

    @staticmethod
    def _write_all(stdin: IO[bytes], data: bytes) -> None:
        """Write and flush *data*; an engine gone meanwhile is noticed by the reader."""
        try:
            stdin.write(data)
            stdin.flush()
        except OSError:
            pass  # the engine has gone; what it printed before going tells what happened

    def _wait_briefly(self) -> int | None:
        """The engine's exit status if it exits within the grace period, else None.

        The end of its stdout is awaited first: it comes as the process exits, where
        polling for the exit alone would notice it up to 50 ms late.
        """
        assert self._process is not None
        deadline = time.monotonic() + CLOSE_GRACE_SECONDS
        self._pump.ended.wait(CLOSE_GRACE_SECONDS)
        try:
            return self._process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None

    def _read_response(self) -> object:
        try:
            line = self._pump.lines.get(timeout=self.timeout)
        except queue.Empty:
            self._kill()
            raise EngineFault("timeout", f"no response within {self.timeout:g} s") from None
        if line is _EOF:
            self._ended = True
            status = self._wait_briefly()
            raise EngineFault(
                "crash", f"engine exited with status {status} before answering", exit_status=status
            )
        if isinstance(line, _Overlong):
            self._kill()
            message = f"a stdout line is longer than {MAX_LINE_BYTES} bytes"
            raise EngineFault("protocol", message, offending=bytes(line))
        assert isinstance(line, bytes)
        try:
            message = read_json(line)
        except RefusedJSON as exc:
            self._kill()
            raise EngineFault(
                "protocol",
                f"not a JSON line on stdout ({exc}): {line[:120]!r}",
                offending=line[:120],
            ) from None
        self.check_wire(line, message)
        if isinstance(message, dict) and "event" in message and "ok" not in message:
            return self._read_response()
        return message

    def _kill(self) -> None:
        """SIGKILL the engine and anything it started (its own process group)."""
        if self._process is None:
            return
        self._pump.stopped.set()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def spawn_command(self) -> list[str]:
        return list(self.argv)

    def stdout_pipe(self) -> str | None:
        """The engine's stdout as the kernel names it (``pipe:[inode]``), None if not running."""
        if self._process is None:
            return None
        assert self._process.stdout is not None
        return f"pipe:[{os.fstat(self._process.stdout.fileno()).st_ino}]"

    def restart(self) -> None:
        """Kill the current process and start a fresh one, within the restart budget."""
        if self.restarts >= self.max_restarts:
            raise EngineFault("crash", f"engine restarted {self.restarts} times; giving up")
        self.restarts += 1
        self._kill()
        self._start()
        self._hello = None

    def abort(self) -> None:
        """Kill the engine's process group now: no grace period."""
        self._kill()

    def close(self) -> None:
        """Close stdin, give the engine a grace period to exit, then kill its process group."""
        if self._process is not None and self._process.poll() is None:
            assert self._process.stdin is not None
            with contextlib.suppress(OSError):
                self._process.stdin.close()
            self._wait_briefly()
        self._kill()
