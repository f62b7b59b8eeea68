"""A separate process of the engine under test, for requirements about the process itself
(how it ends, what it creates under a given umask)."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
from typing import Any

from conformance.engines.base import Transcript
from conformance.jsontypes import EncodableObject

HANG = 60.0
"""Seconds after which an engine that has not ended is a hang (a ceiling, never a pace)."""
SIGNALS = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}
END_OF_INPUT = "end of input"


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
