"""One engine program speaking core-engine/1 over stdio: write a line, read its answer."""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import sys

from tools.differential.shared import ROOT, Json

REFERENCE = f"{shlex.quote(sys.executable)} -m reference serve"
NODE = "node ports/node/engine.js"
TIMEOUT = 30.0


class EngineStopped(Exception):
    """An engine died or did not answer a line within TIMEOUT seconds."""


class Engine:
    """One engine program: write a line, read its response line (event lines skipped)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command),
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._buffer = b""
        self.events: list[Json] = []
        """The event lines (``state.soak``) the last :meth:`send` read before its answer."""

    def _readline(self) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], TIMEOUT)
            chunk = os.read(fd, 1 << 16) if ready else b""
            if not chunk:
                raise EngineStopped(f"{self.command}: no answer")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def send(self, line: bytes) -> Json:
        """The response to *line*; raises EngineStopped when the engine cannot take it."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise EngineStopped(f"{self.command}: stdin closed") from None
        self.events = []
        while True:
            message = json.loads(self._readline())
            if "ok" in message:  # event lines (state.soak) carry no "ok"
                return message
            self.events.append(message)

    def close(self) -> None:
        """Close stdin and wait for the program to end (killed after 5 seconds)."""
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
