"""The ``core-engine/1`` envelope: request parsing, error codes, responses.

The wire format is specified in ``docs/protocol.md``.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeGuard

from reference.canonical import wire_json
from reference.errors import EngineError
from reference.jsonio import UntrustedJSON, loads_untrusted

if TYPE_CHECKING:
    pass

PROTOCOL = "core-engine/1"
BAD_JSON = "PROTOCOL_BAD_JSON"
BAD_REQUEST = "PROTOCOL_BAD_REQUEST"
UNKNOWN_OP = "PROTOCOL_UNKNOWN_OP"
BAD_ARGS = "PROTOCOL_BAD_ARGS"
SESSION_UNKNOWN = "SESSION_UNKNOWN"
ENGINE_INTERNAL = "ENGINE_INTERNAL"
MAX_MESSAGE_LEN = 500
MARKER_BUCKETS = ("openings", "closings", "transitions")
REQUIRED_MARKER_BUCKETS = ("openings", "closings")


class ProtocolError(EngineError):
    """A request the protocol refuses before or instead of the engine; codes are PROTOCOL_*."""

    code = BAD_REQUEST


def refuse(code: str, message: str, field: str | None = None) -> NoReturn:
    """Raise a :class:`ProtocolError` with *code*, *message* and *field*."""
    raise ProtocolError(message, field=field, code=code)


def bad_arg(name: str, message: str) -> NoReturn:
    """Raise PROTOCOL_BAD_ARGS naming the top-level argument *name*."""
    refuse(BAD_ARGS, message, name)


# Request values ------------------------------------------------------------------------------


def is_clean_text(text: str) -> bool:
    """True when *text* encodes as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_TEXT_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def has_lone_surrogate(value: object) -> bool:
    """True when any string (or key) anywhere in a parsed JSON value holds a lone surrogate.

    One pass of the C JSON encoder; a value JSON cannot encode is walked instead.
    """
    try:
        text = _TEXT_ENCODER.encode(value)
        if not text.isascii():
            text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError, RecursionError):
        return _walk_for_surrogates(value)
    return False


def _walk_for_surrogates(value: object) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and not is_clean_text(item):
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def is_valid_id(value: object) -> TypeGuard[int | str]:
    """A request id is an integer (not a boolean) or a string."""
    return type(value) is int or (isinstance(value, str) and is_clean_text(value))


def echo_id(request: object) -> int | str | None:
    """The id to answer with: the request's id when it is valid, else None."""
    if isinstance(request, dict) and is_valid_id(request.get("id")):
        request_id: int | str = request["id"]
        return request_id
    return None


_wire = threading.local()
"""The request this thread last parsed off the wire: already checked by the guarded reader."""


def parse_line(line: str | bytes) -> object:
    """Parse one request line with the guarded reader; a refusal is PROTOCOL_BAD_JSON.

    Non-UTF-8 bytes, NaN/Infinity, oversized integers, deep nesting and lone
    surrogates are refused here, so :func:`read_envelope` need not walk the request.
    """
    try:
        request = loads_untrusted(line)
    except UntrustedJSON as exc:
        reason = exc.reason.replace(" at line 1 column ", " at column ")
        refuse(BAD_JSON, f"line is {reason}" if reason.startswith("not") else reason)
    _wire.request, _wire.parts = request, _batch_parts(request)
    return request


def _batch_parts(request: object) -> frozenset[int]:
    """The identities of a batch request's requests: parts of the line already checked."""
    args = request.get("args") if isinstance(request, dict) else None
    parts = args.get("requests") if isinstance(args, dict) else None
    return frozenset(map(id, parts)) if isinstance(parts, list) else frozenset()


def _came_off_the_wire(request: object) -> bool:
    """*request* is the last line parsed, or one of its batch's requests (still held by it)."""
    return getattr(_wire, "request", None) is request or id(request) in getattr(
        _wire, "parts", frozenset()
    )


# Responses -----------------------------------------------------------------------------------


LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""A line break (docs/protocol.md § Responses): ``\\r\\n`` is one, like each listed character."""
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
"""A control character (Unicode category Cc) that is not a line break."""


def one_line(text: str) -> str:
    """*text* on one line, at most :data:`MAX_MESSAGE_LEN` characters: each line break one
    space, each other control character a ``\\xNN`` escape (docs/protocol.md § Responses)."""
    flat = CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", LINE_BREAK.sub(" ", text))
    return flat if len(flat) <= MAX_MESSAGE_LEN else flat[: MAX_MESSAGE_LEN - 3] + "..."


def ok_response(request_id: int | str | None, result: dict[str, Any]) -> dict[str, Any]:
    """A success response."""
    return {"id": request_id, "ok": True, "result": result}


def error_response(
    request_id: int | str | None, code: str, message: str, field: str | None = None
) -> dict[str, Any]:
    """An error response; the message is forced onto one line."""
    error = {"code": code, "message": one_line(message)}
    if field is not None:
        error["field"] = field
    return {"id": request_id, "ok": False, "error": error}


def engine_error_response(request: object, exc: EngineError) -> dict[str, Any]:
    """The response for a refusal; PROTOCOL_BAD_JSON always answers with id null."""
    request_id = None if exc.code == BAD_JSON else echo_id(request)
    return error_response(request_id, exc.code, exc.message, exc.field)


def internal_error_response(request: object, exc: BaseException) -> dict[str, Any]:
    """ENGINE_INTERNAL for an unexpected exception; the traceback goes to stderr."""
    import traceback

    traceback.print_exception(exc, file=sys.stderr)
    message = f"{type(exc).__name__}: {exc}"
    return error_response(echo_id(request), ENGINE_INTERNAL, message)


def encode_response(response: dict[str, Any]) -> str:
    """The wire line of *response*; an unencodable response becomes ENGINE_INTERNAL."""
    try:
        line = wire_json(response)
        line.encode("utf-8")
    except (TypeError, ValueError) as exc:
        fallback = internal_error_response(response, exc)
        fallback["error"]["message"] = one_line(f"response cannot be encoded: {exc!r}")
        return wire_json(fallback)
    return line


# The handler ---------------------------------------------------------------------------------


class OpSpec(NamedTuple):
    """One op: the handler method that answers it and the argument names it takes."""

    method: str
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()


def check_arg_names(spec: OpSpec, args: Mapping[str, Any]) -> None:
    """Refuse unknown and missing argument names (PROTOCOL_BAD_ARGS, field = the name)."""
    for name in sorted(args):
        if name not in spec.required and name not in spec.optional:
            bad_arg(name, f"unknown argument {name!r}")
    for name in spec.required:
        if name not in args:
            bad_arg(name, f"missing argument {name!r}")


def read_envelope(request: object) -> tuple[str, dict[str, Any]]:
    """Check a request's shape and return its op and args (default ``{}``)."""
    if not isinstance(request, dict):
        refuse(BAD_JSON, "a request must be a JSON object")
    if not _came_off_the_wire(request) and has_lone_surrogate(request):
        refuse(BAD_JSON, "request holds a lone surrogate; it is not Unicode text")
    if "id" not in request or not is_valid_id(request["id"]):
        refuse(BAD_REQUEST, "request 'id' must be an integer or a string", "id")
    if not isinstance(request.get("op"), str):
        refuse(BAD_REQUEST, "request 'op' must be a string", "op")
    args = request.get("args", {})
    if not isinstance(args, dict):
        refuse(BAD_REQUEST, "request 'args' must be an object", "args")
    return request["op"], args
