"""What the suite needs from an engine, and the typed ways an engine can let it down."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

from conformance.canonical import wire_form
from conformance.engines.view import ObjectView, member, view
from conformance.jsontypes import EncodableObject, JSONEncodable, Result
from conformance.stopping import Deadline, DeadlineReached


def split_lines(data: bytes) -> list[bytes]:
    """The lines of *data* as an engine's line reader sees them, each without its ``\\n``.

    A final piece without a ``\\n`` is a line too (the protocol answers it at EOF).
    """
    pieces = data.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    return pieces


class EngineFault(Exception):
    """The engine crashed, hung or broke the protocol; ``kind`` is ``crash``, ``timeout`` or
    ``protocol``.

    ``exit_status`` is the process's exit status when it is known to have ended;
    ``offending`` holds the first bytes of a line that broke the protocol.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        exit_status: int | None = None,
        offending: bytes | None = None,
    ) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.exit_status = exit_status
        self.offending = offending


class EngineRefused(Exception):
    """The engine answered with a well-formed error response."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field


@dataclass
class Transcript:
    """Requests and responses of the current example, in order."""

    exchanges: list[dict[str, Any]] = field(default_factory=list)

    def record(self, request: EncodableObject, response: object) -> None:
        self.exchanges.append({"request": request, "response": response})


def shape_of(value: object) -> object:
    """The JSON shape of a parsed JSON *value*: its keys in order and JSON types, recursively
    (a list by the set of its items' shapes), an integer also by whether it is negative;
    hashable. A view of engine output has the shape of what it wraps; any other type is a
    shape of its own, named by its type."""
    kind = type(value)
    leaf = _LEAVES.get(kind)
    if leaf is not None:
        return leaf
    if kind is int:
        return "int<0" if value < 0 else "int"  # type: ignore[operator]  # an int: kind is int
    if isinstance(value, dict):
        return tuple([(k, shape_of(v)) for k, v in dict.items(value)])
    if isinstance(value, list):
        return frozenset([shape_of(v) for v in list.__iter__(value)])
    return kind.__name__


_LEAVES: dict[type, str] = {str: "str", float: "float", bool: "bool", type(None): "NoneType"}
"""The shapes of JSON's scalars other than integers, by exact type."""


def shape_with(value: object, known: dict[int, object]) -> object:
    """:func:`shape_of` *value*, taking the shape of each object found in *known* (by
    ``id``) from there instead of walking it again."""
    if id(value) in known:
        return known[id(value)]
    if isinstance(value, dict):
        return tuple([(k, shape_with(v, known)) for k, v in dict.items(value)])
    if isinstance(value, list):
        return frozenset([shape_with(v, known) for v in list.__iter__(value)])
    return shape_of(value)


SHOWN_CHARACTERS = 60
"""How much of an op name or id a message quotes: a test of a long name sends one of 64 KiB."""


def shown(value: object) -> str:
    """*value* as a message quotes it: at most :data:`SHOWN_CHARACTERS` characters, with the
    length of the whole when it is cut."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= SHOWN_CHARACTERS:
        return text
    return f"{text[: SHOWN_CHARACTERS - 20]}... ({len(text):,} characters)"


def _inner_responses(response: object) -> list[Any]:
    """The inner responses of a batch response, as parsed (none when it has no such list)."""
    result = response.get("result") if isinstance(response, dict) else None
    items = result.get("responses") if isinstance(result, dict) else None
    return list(items) if isinstance(items, list) else []


class EngineClient(abc.ABC):
    """Base of every engine adapter: numbered requests, recorded transcripts, typed failures.

    Subclasses implement :meth:`_exchange`, which sends one request object and
    returns the raw response object (or raises :class:`EngineFault`). Every response
    to :meth:`call` of a shape this client has not yet seen pass is checked against its
    op's schema, and a violation is kept in :attr:`off_schema` for the runner to fail the
    example with once the requirement's own checks pass; in strict mode every response is
    checked, and a violation is a protocol fault at once.
    """

    description = "engine"
    unavailable_hint = ""
    """Said after the fault when this engine cannot start or answer hello (empty: nothing)."""

    def __init__(self, *, strict: bool = False) -> None:
        self.strict = strict
        self.transcript = Transcript()
        self._next_id = 0
        self._hello: Result | None = None
        self._shapes_passed: set[tuple[str, object]] = set()
        self.off_schema: list[str] = []
        """Schema violations of the responses of the current example, in order."""
        self.stop_at = Deadline()
        """No request is sent after this moment: :class:`DeadlineReached` instead (the
        end of a budgeted run)."""

    @abc.abstractmethod
    def _exchange(self, request: EncodableObject) -> object:
        """Send one request object; return the raw response object."""

    def explain_unavailable(self, message: str) -> str:
        """*message* about this engine failing to start or answer, followed by its hint."""
        return f"{message} ({self.unavailable_hint})" if self.unavailable_hint else message

    @abc.abstractmethod
    def _exchange_lines(self, data: bytes, count: int) -> list[Any]:
        """Write *data* as is; return the next *count* raw response objects."""

    def close(self) -> None:  # noqa: B027  (nothing to release by default)
        """Release the engine (a subprocess is terminated)."""

    def abort(self) -> None:
        """Stop the engine at once, without the grace of :meth:`close` (a stop signal)."""
        self.close()

    @abc.abstractmethod
    def restart(self) -> None:
        """Bring a faulted engine back to a fresh state."""

    def output_tails(self) -> dict[str, list[str]]:
        """The last lines the engine wrote on stderr and stdout (empty in-process)."""
        return {"stderr": [], "stdout": []}

    def spawn_command(self) -> list[str] | None:
        """A command that starts a fresh process of this engine (for kill and lock tests)."""
        return None

    def begin_example(self) -> None:
        """Start a fresh transcript for the next generated example."""
        self.transcript = Transcript()
        self.off_schema = []

    def raw(self, request: EncodableObject, *, checked: bool = True) -> object:
        """Send a request object as is; return the raw response (for protocol requirements),
        as a :func:`~conformance.engines.view.view` (a missing member read is a FAIL).

        In strict mode the request is validated against the schemas first, unless
        ``checked`` is false (a requirement sending a deliberately malformed request).
        """
        return view(self._send(request, checked=checked))

    def _send(self, request: EncodableObject, *, checked: bool) -> object:
        """:meth:`raw`'s work: the response as parsed, recorded in the transcript."""
        if self.strict and checked:
            from conformance.protocol.validate import validate_request

            validate_request(request)
        if self.stop_at.passed():
            raise DeadlineReached
        try:
            response = self._exchange(request)
        except EngineFault:
            self.transcript.record(request, None)
            raise
        self.transcript.record(request, response)
        return response

    def raw_lines(self, data: bytes) -> list[Any]:
        """Write the bytes *data* to the engine as they are; return one response per line.

        *data* ends with ``\\n``: an unterminated line is answered only at EOF. The
        transcript records the bytes as text (undecodable bytes as ``\\xNN`` escapes).
        """
        if not data.endswith(b"\n"):
            raise ValueError("raw lines must end with a newline")
        record = {"raw_lines": data.decode("utf-8", "backslashreplace")}
        if self.stop_at.passed():
            raise DeadlineReached
        try:
            responses = self._exchange_lines(data, len(split_lines(data)))
        except EngineFault:
            self.transcript.record(record, None)
            raise
        self.transcript.record(record, {"responses": responses})
        return [view(response, f"$[{index}]") for index, response in enumerate(responses)]

    def call(self, op: str, args: EncodableObject | None = None, *, checked: bool = True) -> Result:
        """Send ``op`` with ``args``; return the result or raise EngineRefused/EngineFault."""
        self._next_id += 1
        request: dict[str, JSONEncodable] = {"id": self._next_id, "op": op, "args": args or {}}
        response = self._send(request, checked=checked)
        return self.unwrap(op, request["id"], response)

    def call_batch(self, op: str, arg_list: list[dict[str, Any]]) -> list[Result]:
        """The results of *op* for every args object, sent as one ``batch`` request.

        The same checks as :meth:`call` of the batch followed by :meth:`unwrap` of each
        inner response, with every inner response's shape walked once: the batch's shape
        is built from the shapes of its items."""
        requests: list[JSONEncodable] = [
            {"id": i, "op": op, "args": args} for i, args in enumerate(arg_list)
        ]
        self._next_id += 1
        request: dict[str, JSONEncodable] = {
            "id": self._next_id,
            "op": "batch",
            "args": {"requests": requests},
        }
        response = self._send(request, checked=True)
        items = _inner_responses(response)
        shapes = {} if self.strict else {id(item): shape_of(item) for item in items}
        result = self.unwrap("batch", request["id"], response, shapes)
        responses = member(result, "responses", "array")
        if len(responses) != len(requests):
            raise AssertionError(f"batch of {len(requests)} answered with {len(responses)}")
        return [self.unwrap(op, i, item, shapes) for i, item in enumerate(items)]

    def unwrap(
        self,
        op: str,
        request_id: object,
        response: object,
        shapes: dict[int, object] | None = None,
    ) -> Result:
        """Check a response's envelope (and, strictly, its schema); return its result as a
        :mod:`view <conformance.engines.view>`: a missing member read from it is a FAIL.
        *shapes* holds shapes already walked, by the ``id`` of their object."""
        if not isinstance(response, dict) or response.get("id") != request_id:
            raise EngineFault(
                "protocol",
                f"response to {shown(op)} #{shown(request_id)} has the wrong id: "
                f"{str(response)[:200]}",
            )
        self._check_schema(op, response, shapes)
        result = response.get("result")
        if response.get("ok") is True and isinstance(result, dict):
            return ObjectView(result, f"{shown(op)} $.result")
        error = response.get("error")
        if response.get("ok") is False and isinstance(error, dict):
            code, message = error.get("code"), error.get("message")
            if isinstance(code, str) and isinstance(message, str):
                if not message.strip(" "):
                    raise EngineFault(
                        "protocol",
                        f"{shown(op)}: the message of {code} is {message!r}: protocol.md § "
                        "Responses says it is never empty and never only spaces",
                    )
                raise EngineRefused(code, message, error.get("field"))
        raise EngineFault("protocol", f"malformed response to {shown(op)}: {str(response)[:200]}")

    def _check_schema(
        self, op: str, response: dict[str, Any], shapes: dict[int, object] | None = None
    ) -> None:
        """Validate *response* against *op*'s schemas unless its shape already passed."""
        shape = shape_with(response, shapes) if shapes else shape_of(response)
        seen = None if self.strict else (op, shape)
        if seen in self._shapes_passed:
            return
        from conformance.protocol.validate import ProtocolViolation, validate_response

        try:
            validate_response(op, response)
        except ProtocolViolation as exc:
            if self.strict:
                raise EngineFault("protocol", str(exc)) from None
            self.off_schema.append(f"{shown(op)}: {exc}")
            return
        if seen is not None:
            self._shapes_passed.add(seen)

    def check_wire(self, line: bytes, message: object) -> None:
        """Check that the response line *line* (parsed as *message*) is written as
        docs/protocol.md § Framing says: canonical JSON, non-integer numbers spelt freely.
        A line that is not is kept in :attr:`off_schema` (strict: a protocol fault at once)."""
        text = line.decode("utf-8").removesuffix("\n")
        wire = wire_form(text, message)
        if wire == text:
            return
        problem = (
            f"a response line is not canonical JSON (docs/protocol.md § Framing): "
            f"{text[:160]!r}, written canonically {wire[:160]!r}"
        )
        if self.strict:
            raise EngineFault("protocol", problem)
        if not any(entry.startswith("a response line") for entry in self.off_schema):
            self.off_schema.append(problem)

    def hello(self) -> Result:
        """The engine's hello (cached)."""
        if self._hello is None:
            self._hello = self.call("hello")
        return self._hello

    def capabilities(self) -> frozenset[str]:
        caps = self.hello().get("capabilities", [])
        return frozenset(c for c in caps if isinstance(c, str))
