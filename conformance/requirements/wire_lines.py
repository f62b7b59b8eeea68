"""Every response line of a session and of a state store is canonical JSON.

docs/protocol.md § Framing: responses are written as canonical JSON (docs/spec.md § Canonical
JSON: keys sorted by code point, no whitespace, only the fixed escapes), finite non-integer
numbers allowed. PROTO-WIRE-001 reads variation.select, hello, variation.decorate and
lexicon.list lines; this requirement reads the lines a separate engine process writes for the
ops a client uses most: session.open, session.chat (its results' members are listed in
protocol.md in no sorted order, so a port that serialises a struct in that order writes them
unsorted) and session.close, then, when the engine claims ``state``, state.open, state.apply,
state.digest, state.propose, state.checkpoint and state.close. A number with a fraction or an
exponent is compared as the engine spelled it (its shortest form is free); everything else
must be the canonical JSON of the parsed line, byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.canonical import RefusedJSON, read_json
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch
from conformance.state.separate import EngineProcess

CHAT = ("What is light?", 'Tell me about "light" <b> & \U0001f600 \u2028 now.')
"""Two turns: the second echoes characters an encoder might escape into its normalised text."""


class _Spelt(float):
    """A non-integer number as the engine spelt it."""

    literal: str

    def __new__(cls, literal: str) -> _Spelt:
        number = super().__new__(cls, literal)
        number.literal = literal
        return number


def _wire(value: object) -> str:
    """Canonical JSON of *value*, each non-integer number as it was spelt."""
    if isinstance(value, _Spelt):
        return value.literal
    if isinstance(value, dict):
        keys = sorted(value)
        return "{" + ",".join(f"{_wire(k)}:{_wire(value[k])}" for k in keys) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_wire(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _canonical_line(line: bytes, what: str) -> Any:
    """The response *line* parsed, once it is known to be its own wire form."""
    assert line.endswith(b"\n"), f"{what}: the response {line[:120]!r} has no newline"
    body = line[:-1]
    try:
        read_json(body)
    except RefusedJSON as exc:
        raise AssertionError(f"{what}: not a JSON line ({exc}): {body[:120]!r}") from None
    value = json.loads(body.decode("utf-8"), parse_float=_Spelt)
    want = _wire(value).encode("utf-8")
    assert body == want, (
        f"{what}: the response line is not canonical JSON: {body[:200]!r}, canonical {want[:200]!r}"
    )
    return value


class _Lines:
    """A separate engine process whose response lines are checked as they come."""

    def __init__(self, engine: EngineClient) -> None:
        command = engine.spawn_command()
        assert command is not None, "the engine cannot be started as a program"
        self.process = EngineProcess(command, engine.transcript)
        self.pending = b""

    def _line(self) -> bytes:
        """The next line on stdout (b"" at its end), read from the pipe with a ceiling."""
        while b"\n" not in self.pending:
            data = self.process.read(1 << 16)
            if not data:
                line, self.pending = self.pending, b""
                return line
            self.pending += data
        line, _, self.pending = self.pending.partition(b"\n")
        return line + b"\n"

    def call(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        request = self.process.send(op, args)
        line = self._line()
        answer = _canonical_line(line, op) if line else None
        self.process.note(request, answer)
        assert isinstance(answer, dict) and answer.get("ok") is True, f"{op}: {answer}"
        result = answer.get("result")
        assert isinstance(result, dict), f"{op}: result {result!r}"
        return result

    def close(self) -> None:
        process = self.process.process
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


@requirement(
    "PROTO-WIRE-462",
    "every response line of a session (open, two chats whose text holds quotes, <, &, an "
    "astral character and U+2028, close) and, when state is claimed, of a store (open, apply, "
    "digest, propose, checkpoint, close) is canonical JSON: members sorted by code point, no "
    "whitespace, only the fixed escapes (non-integer numbers as the engine spells them)",
    family="protocol",
    capabilities=("sessions",),
    seed="docs/protocol.md § Framing (responses are canonical JSON); docs/spec.md § Canonical JSON",
)
def session_and_store_lines(engine: EngineClient, _: object) -> None:
    lines = _Lines(engine)
    try:
        session = lines.call("session.open", {"register_id": "convivial_v1"})["session"]
        for text in CHAT:
            lines.call("session.chat", {"session": session, "text": text})
        lines.call("session.close", {"session": session})
        if "state" not in engine.capabilities():
            return
        with scratch() as directory:
            store = lines.call("state.open", {"dir": str(directory)})["store"]
            record = {"kind": "recognizer", "key": "k<&>", "pattern": "p\u2028", "weight": 1}
            lines.call(
                "state.apply", {"store": store, "mutations": [{"op": "put", "record": record}]}
            )
            lines.call("state.digest", {"store": store})
            lines.call("state.propose", {"store": store, "proposal": {"b": 1, "a": "<&>"}})
            lines.call("state.checkpoint", {"store": store})
            lines.call("state.close", {"store": store})
    finally:
        lines.close()
