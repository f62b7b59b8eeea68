"""A separate process of the engine under test, for requirements about the process itself
(how it ends, what it creates under a given umask)."""

from __future__ import annotations

import fcntl
import functools
import json
import os
import select
import signal
import subprocess
from typing import Any

from conformance.engines.base import Transcript
from conformance.jsontypes import EncodableObject

HANG = 60.0
"""Seconds after which an engine that has not ended is a hang (a ceiling, never a pace)."""
SIGNALS = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}
END_OF_INPUT = "end of input"
PIPE_CEILING = 1 << 20
"""The capacity assumed of a pipe whose capacity the OS does not report (Linux's default
``pipe-max-size``)."""


class EngineProcess:
    """A separate engine process spoken to line by line; its exchanges go to *transcript*.

    With *umask*, the process starts with that file mode creation mask."""

    def __init__(
        self, command: list[str], transcript: Transcript, umask: int | None = None
    ) -> None:
        self.transcript = transcript
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=None if umask is None else functools.partial(os.umask, umask),
        )
        self.ids = 0

    def call(self, op: str, args: EncodableObject) -> dict[str, Any]:
        """Send one request and return its result; a refusal fails the check."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.ids += 1
        request: EncodableObject = {"id": self.ids, "op": op, "args": args}
        self.process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline() or b"null")
        self.transcript.record(request, answer)
        assert isinstance(answer, dict) and answer.get("ok"), f"{op} was not answered: {answer}"
        result: dict[str, Any] = answer["result"]
        return result

    def send(self, op: str, args: EncodableObject) -> EncodableObject:
        """Send one request without reading its answer; the request (to :meth:`note` with
        what came of it)."""
        assert self.process.stdin is not None
        self.ids += 1
        request: EncodableObject = {"id": self.ids, "op": op, "args": args}
        self.process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
        self.process.stdin.flush()
        return request

    def refused(self, op: str, args: EncodableObject) -> str:
        """Send one request that must be refused and return its error code; an answer that
        is not a refusal fails the check."""
        assert self.process.stdout is not None
        request = self.send(op, args)
        answer = json.loads(self.process.stdout.readline() or b"null")
        self.note(request, answer)
        error = answer.get("error") if isinstance(answer, dict) else None
        assert isinstance(answer, dict) and answer.get("ok") is False and isinstance(error, dict), (
            f"{op} was not refused: {answer}"
        )
        return str(error.get("code"))

    def note(self, request: EncodableObject, outcome: object) -> None:
        """Record in the transcript what came of a request :meth:`send` sent."""
        self.transcript.record(request, outcome)

    def read(self, size: int) -> bytes:
        """At most *size* bytes of the engine's output, read from the pipe itself (b"" at
        its end); AssertionError when none come within :data:`HANG` seconds."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], HANG)
        assert ready, f"the engine wrote nothing within {HANG:.0f}s"
        return os.read(fd, size)

    def read_to_end(self) -> bytes:
        """Everything the engine writes until it closes its output."""
        chunks = []
        while chunk := self.read(1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)

    def pipe_capacity(self) -> int:
        """The bytes the engine's output pipe holds before a write blocks."""
        assert self.process.stdout is not None
        query = getattr(fcntl, "F_GETPIPE_SZ", None)
        if query is None:
            return PIPE_CEILING
        return int(fcntl.fcntl(self.process.stdout.fileno(), query))

    def signal(self, name: str) -> None:
        """Send the signal *name* (a key of :data:`SIGNALS`) to the engine."""
        self.process.send_signal(SIGNALS[name])

    def wait(self) -> int:
        """The engine's exit status, once it has ended (a hang past :data:`HANG` fails)."""
        try:
            return self.process.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the engine did not end within {HANG:.0f}s") from None

    def end(self, ending: str) -> int:
        """End the process by *ending*; its exit status (the engine's, not the suite's)."""
        assert self.process.stdin is not None
        if ending in SIGNALS:
            self.process.send_signal(SIGNALS[ending])
        else:
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the engine did not end within {HANG:.0f}s of {ending}") from None

    def kill(self) -> None:
        """SIGKILL the process group (cleanup)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
