"""Plug any engine in as a program speaking core-engine/1 over stdin/stdout.

A reader thread turns stdout into a queue of lines, so every request has a
timeout: a hung engine is killed and reported, never waited on forever.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import tempfile
import threading
from typing import Any

from conformance.engines.base import EngineClient, EngineFault

_EOF = object()


class SubprocessEngine(EngineClient):
    """An engine program; restarted (up to ``max_restarts``) after a crash or hang."""

    def __init__(
        self, command: str, *, timeout: float = 10.0, strict: bool = False, max_restarts: int = 10
    ) -> None:
        super().__init__(strict=strict)
        self.command = command
        self.description = command
        self.timeout = timeout
        self.max_restarts = max_restarts
        self.restarts = 0
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115  (lives as long as the engine)
        self._start()

    def _start(self) -> None:
        self._process = subprocess.Popen(
            shlex.split(self.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, args=(self._process, self._lines), daemon=True).start()

    @staticmethod
    def _pump(process: subprocess.Popen, lines: queue.Queue) -> None:
        for line in iter(process.stdout.readline, b""):
            lines.put(line)
        lines.put(_EOF)

    def stderr_tail(self, limit: int = 400) -> str:
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - limit))
        return self._stderr.read().decode("utf-8", "replace").strip().replace("\n", " | ")

    def _exchange(self, request: dict[str, Any]) -> Any:
        if self._process.poll() is not None:
            raise EngineFault("crash", f"engine is not running (exit {self._process.returncode})")
        try:
            self._process.stdin.write((json.dumps(request, ensure_ascii=False) + "\n").encode())
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFault(
                "crash", f"engine closed its stdin; stderr: {self.stderr_tail()}"
            ) from None
        return self._read_response()

    def _read_response(self) -> Any:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._kill()
            raise EngineFault("timeout", f"no response within {self.timeout:g} s") from None
        if line is _EOF:
            code = self._process.wait()
            raise EngineFault("crash", f"engine exited with {code}; stderr: {self.stderr_tail()}")
        try:
            message = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise EngineFault("protocol", f"not a JSON line on stdout: {line[:120]!r}") from None
        if isinstance(message, dict) and "event" in message and "ok" not in message:
            return self._read_response()
        return message

    def _kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def spawn_command(self) -> list[str]:
        return shlex.split(self.command)

    def restart(self) -> None:
        """Kill the current process and start a fresh one, within the restart budget."""
        if self.restarts >= self.max_restarts:
            raise EngineFault("crash", f"engine restarted {self.restarts} times; giving up")
        self.restarts += 1
        self._kill()
        self._start()
        self._hello = None

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._process.stdin.close()
                self._process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self._kill()
        self._stderr.close()
