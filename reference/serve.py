"""The engine side of protocol ``core-engine/1``: one JSON request per line in, one response out.

:class:`ProtocolHandler` answers parsed requests; :func:`serve` runs the stdio loop.
Every input line gets exactly one response line, in order, and no input stops the
loop. The wire format is specified in ``docs/protocol.md``.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, TextIO

import reference
from reference.canonical import pretty_json, wire_json
from reference.errors import EngineError
from reference.lexicon import default_lexicon
from reference.realize.depth import resolve_disclosure_domain_count
from reference.realize.variation import Decoration, decorate, select_bucket_index
from reference.registers.loader import load_register_pack
from reference.registers.model import RegisterPack
from reference.registers.ratify import ratify_pack_file
from reference.registers.seal import report_path_for
from reference.registers.validate import parse_pack
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.truth.intent import IntentTag

PROTOCOL = "core-engine/1"
CAPABILITIES = (
    "batch",
    "lexicon",
    "overrides",
    "registers.load",
    "registers.ratify",
    "registers.validate",
    "sessions",
    "variation",
)
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


def has_lone_surrogate(value: object) -> bool:
    """True when any string (or key) anywhere in a parsed JSON value holds a lone surrogate."""
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


def is_valid_id(value: object) -> bool:
    """A request id is an integer (not a boolean) or a string."""
    return type(value) is int or (isinstance(value, str) and is_clean_text(value))


def echo_id(request: object) -> int | str | None:
    """The id to answer with: the request's id when it is valid, else None."""
    if isinstance(request, dict) and is_valid_id(request.get("id")):
        return request["id"]
    return None


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def parse_line(line: str | bytes) -> object:
    """Parse one request line; anything but a JSON value raises PROTOCOL_BAD_JSON."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            refuse(BAD_JSON, "line is not valid UTF-8")
    try:
        return json.loads(line, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        refuse(BAD_JSON, f"line is not JSON: {exc.msg} at column {exc.colno}")
    except (ValueError, RecursionError) as exc:
        refuse(BAD_JSON, f"line is not JSON: {exc}")


# Arguments -----------------------------------------------------------------------------------


def string_arg(args: Mapping[str, Any], name: str) -> str:
    """The string argument *name*."""
    value = args.get(name)
    if not isinstance(value, str):
        bad_arg(name, f"argument {name!r} must be a string")
    return value


def nullable_string_arg(args: Mapping[str, Any], name: str) -> str | None:
    """The argument *name* as a string or None (absent reads as None)."""
    value = args.get(name)
    if value is not None and not isinstance(value, str):
        bad_arg(name, f"argument {name!r} must be a string or null")
    return value


def object_arg(args: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The JSON object argument *name*."""
    value = args.get(name)
    if not isinstance(value, dict):
        bad_arg(name, f"argument {name!r} must be an object")
    return value


def index_arg(args: Mapping[str, Any], name: str) -> int:
    """The non-negative integer argument *name* (booleans are not integers)."""
    value = args.get(name)
    if type(value) is not int or value < 0:
        bad_arg(name, f"argument {name!r} must be an integer >= 0")
    return value


def string_list(value: object, name: str, where: str) -> list[str]:
    """*value* as a list of strings; *where* names it in the message, *name* in the field."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        bad_arg(name, f"{where} must be a list of strings")
    return value


def markers_arg(args: Mapping[str, Any], name: str) -> dict[str, list[str]]:
    """Marker buckets: ``openings`` and ``closings`` required, ``transitions`` optional."""
    markers = object_arg(args, name)
    for key in sorted(markers):
        if key not in MARKER_BUCKETS:
            bad_arg(name, f"{name}.{key} is not a marker bucket")
    for key in REQUIRED_MARKER_BUCKETS:
        if key not in markers:
            bad_arg(name, f"{name}.{key} is missing")
    return {key: string_list(markers.get(key, []), name, f"{name}.{key}") for key in MARKER_BUCKETS}


def intent_arg(args: Mapping[str, Any], name: str) -> str:
    """An ``IntentTag`` member name."""
    value = string_arg(args, name)
    if value not in IntentTag.__members__:
        bad_arg(name, f"argument {name!r} is not an IntentTag name")
    return value


def is_plain_file_name(name: str) -> bool:
    """A plain ``*.json`` name: no ``/`` or ``\\``, no NUL or other control character.

    Without a separator a name cannot leave its directory, so ``..`` inside one is
    harmless (a pack whose id ends in ``.`` is ratified as ``<id>.json`` = ``x..json``).
    """
    if "/" in name or "\\" in name:
        return False
    return name.endswith(".json") and all(ord(c) >= 0x20 and c != "\x7f" for c in name)


def decode_file(name: str, encoded: object) -> bytes:
    """The bytes of one base64 file value; bad names and bad base64 are PROTOCOL_BAD_ARGS."""
    if not is_plain_file_name(name):
        bad_arg("files", f"file name {name!r} is not a plain *.json name")
    if not isinstance(encoded, str):
        bad_arg("files", f"files[{name!r}] must be a base64 string")
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        bad_arg("files", f"files[{name!r}] is not valid base64")


def files_arg(args: Mapping[str, Any], name: str) -> dict[str, bytes]:
    """A ``{file name: base64}`` object, decoded."""
    files = object_arg(args, name)
    return {key: decode_file(key, value) for key, value in sorted(files.items())}


@contextlib.contextmanager
def staged_files(files: Mapping[str, bytes]) -> Iterator[Path]:
    """A fresh temporary directory holding *files*, removed on exit."""
    with tempfile.TemporaryDirectory(prefix="core-serve-") as tmp:
        directory = Path(tmp)
        for name, data in files.items():
            try:
                (directory / name).write_bytes(data)
            except OSError as exc:
                bad_arg("files", f"file {name!r} cannot be written: {exc.strerror or exc}")
        yield directory


def encode_file(path: Path) -> str:
    """The base64 text of a file's bytes."""
    return base64.b64encode(path.read_bytes()).decode("ascii")


# Responses -----------------------------------------------------------------------------------


def one_line(text: str) -> str:
    """*text* on one line, at most :data:`MAX_MESSAGE_LEN` characters."""
    flat = " ".join(text.splitlines())
    return flat if len(flat) <= MAX_MESSAGE_LEN else flat[: MAX_MESSAGE_LEN - 3] + "..."


def ok_response(request_id: int | str, result: dict[str, Any]) -> dict[str, Any]:
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


OPS: Mapping[str, OpSpec] = {
    "hello": OpSpec("op_hello"),
    "lexicon.list": OpSpec("op_lexicon_list"),
    "register.validate": OpSpec("op_register_validate", ("pack",), ("expected_id",)),
    "register.ratify": OpSpec("op_register_ratify", ("pack",)),
    "register.load": OpSpec("op_register_load", ("register_id", "files")),
    "variation.select": OpSpec(
        "op_variation_select", ("bucket", "trace_hash", "register_id", "turn_idx", "bucket_name")
    ),
    "variation.decorate": OpSpec(
        "op_variation_decorate",
        ("surface", "discourse_markers", "register_id", "trace_hash", "turn_idx"),
    ),
    "overrides.resolve": OpSpec("op_overrides_resolve", ("realizer_overrides", "intent")),
    "session.open": OpSpec("op_session_open", ("register_id",), ("files",)),
    "session.chat": OpSpec("op_session_chat", ("session", "text")),
    "session.close": OpSpec("op_session_close", ("session",)),
    "batch": OpSpec("op_batch", ("requests",)),
}


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
    if has_lone_surrogate(request):
        refuse(BAD_JSON, "request holds a lone surrogate; it is not Unicode text")
    if "id" not in request or not is_valid_id(request["id"]):
        refuse(BAD_REQUEST, "request 'id' must be an integer or a string", "id")
    if not isinstance(request.get("op"), str):
        refuse(BAD_REQUEST, "request 'op' must be a string", "op")
    args = request.get("args", {})
    if not isinstance(args, dict):
        refuse(BAD_REQUEST, "request 'args' must be an object", "args")
    return request["op"], args


class ProtocolHandler:
    """Answers ``core-engine/1`` requests; each op is one overridable ``op_<name>`` method.

    Sessions live as long as the handler. Subclasses may override an op, or one of
    the engine hooks the ops call (``select_index``, ``decorate``, ``resolve_overrides``,
    ``validate_pack``, ``ratify_pack``, ``load_pack``, ``new_runtime``, ``chat``).
    """

    ops: Mapping[str, OpSpec] = OPS

    def __init__(self) -> None:
        self.sessions: dict[str, Any] = {}
        self.sessions_opened = 0

    def handle(self, request: object) -> dict[str, Any]:
        """Answer one parsed request with a response dict; never raises."""
        try:
            result = self.dispatch(request)
        except EngineError as exc:
            return engine_error_response(request, exc)
        except Exception as exc:
            return internal_error_response(request, exc)
        return ok_response(request["id"], result)

    def handle_line(self, line: str | bytes) -> str:
        """Answer one request line (str, or bytes taken as UTF-8) with a response line."""
        try:
            request = parse_line(line)
        except EngineError as exc:
            return encode_response(engine_error_response(None, exc))
        return encode_response(self.handle(request))

    def dispatch(self, request: object) -> dict[str, Any]:
        """Check the envelope and the argument names, then run the op's method."""
        op, args = read_envelope(request)
        spec = self.ops.get(op)
        if spec is None:
            refuse(UNKNOWN_OP, f"unknown op {op!r}", "op")
        check_arg_names(spec, args)
        return getattr(self, spec.method)(args)

    # Ops -------------------------------------------------------------------------------------

    def op_hello(self, args: dict[str, Any]) -> dict[str, Any]:
        """The protocol, the engine's name and version, and its sorted capabilities."""
        capabilities = sorted(self.capabilities())
        return {"protocol": PROTOCOL, "engine": self.engine_info(), "capabilities": capabilities}

    def op_lexicon_list(self, args: dict[str, Any]) -> dict[str, Any]:
        """Every lemma, sorted by lemma text."""
        return {"lemmas": sorted(self.lexicon_rows(), key=lambda row: row["lemma"])}

    def op_register_validate(self, args: dict[str, Any]) -> dict[str, Any]:
        """Structural validation of a pack object; the id it declares."""
        pack = object_arg(args, "pack")
        expected_id = nullable_string_arg(args, "expected_id")
        return {"register_id": self.validate_pack(pack, expected_id).register_id}

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        """Ratify a copy of the pack in a fresh directory; return both files and the report."""
        pack = object_arg(args, "pack")
        register_id = self.validate_pack(pack, None).register_id
        with tempfile.TemporaryDirectory(prefix="core-ratify-") as tmp:
            path = Path(tmp) / f"{register_id}.json"
            path.write_text(pretty_json(pack), encoding="utf-8")
            report = self.ratify_pack(path)
            files = {item.name: encode_file(item) for item in (path, report_path_for(path))}
        return {"files": files, "report": report}

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        """Load a ratified pack from the given files (then the shipped packs)."""
        register_id = string_arg(args, "register_id")
        files = files_arg(args, "files")
        with staged_files(files) as directory:
            pack = self.load_pack(register_id, (directory,))
        return {"pack": pack.as_json()}

    def op_variation_select(self, args: dict[str, Any]) -> dict[str, Any]:
        """The seeded choice from one marker bucket: its entry and index."""
        bucket = string_list(args.get("bucket"), "bucket", "argument 'bucket'")
        index = self.select_index(
            bucket,
            trace_hash=string_arg(args, "trace_hash"),
            register_id=string_arg(args, "register_id"),
            turn_idx=index_arg(args, "turn_idx"),
            bucket_name=string_arg(args, "bucket_name"),
        )
        return {"entry": "" if index is None else bucket[index], "index": index}

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        """Decorate a surface with seeded opening and closing markers."""
        decoration = self.decorate(
            string_arg(args, "surface"),
            markers_arg(args, "discourse_markers"),
            register_id=string_arg(args, "register_id"),
            trace_hash=string_arg(args, "trace_hash"),
            turn_idx=index_arg(args, "turn_idx"),
        )
        return {
            "decorated": decoration.surface,
            "opening": decoration.opening,
            "closing": decoration.closing,
            "register_variant_id": decoration.variant_id,
        }

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        """The disclosure domain count the overrides give an intent (fail-soft)."""
        overrides = object_arg(args, "realizer_overrides")
        count = self.resolve_overrides(overrides, intent_arg(args, "intent"))
        return {"disclosure_domain_count": count}

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        """Open a fresh chat session under a register; user packs come as files."""
        register_id = nullable_string_arg(args, "register_id")
        if "files" not in args:
            return {"session": self.add_session(self.new_runtime(register_id, ()))}
        with staged_files(files_arg(args, "files")) as directory:
            runtime = self.new_runtime(register_id, (directory,))
        return {"session": self.add_session(runtime)}

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        """One turn in a session: the chat response as JSON."""
        runtime = self.session(string_arg(args, "session"))
        return self.chat(runtime, string_arg(args, "text"))

    def op_session_close(self, args: dict[str, Any]) -> dict[str, Any]:
        """Forget a session."""
        session_id = string_arg(args, "session")
        self.session(session_id)
        del self.sessions[session_id]
        return {}

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        """Answer each request in order exactly as if sent alone; no batch inside a batch."""
        requests = args.get("requests")
        if not isinstance(requests, list):
            bad_arg("requests", "argument 'requests' must be a list")
        for index, item in enumerate(requests):
            if isinstance(item, dict) and item.get("op") == "batch":
                bad_arg("requests", f"requests[{index}] is a nested batch")
        return {"responses": [self.handle(item) for item in requests]}

    # Engine hooks ----------------------------------------------------------------------------

    def capabilities(self) -> Sequence[str]:
        """The capabilities ``hello`` claims."""
        return CAPABILITIES

    def engine_info(self) -> dict[str, str]:
        """The engine's name and version."""
        return {"name": reference.ENGINE_NAME, "version": reference.__version__}

    def lexicon_rows(self) -> list[dict[str, Any]]:
        """One row per lemma: lemma, pack, pos, has_gloss."""
        return [
            {"lemma": e.lemma, "pack": e.pack_id, "pos": e.pos, "has_gloss": e.has_gloss}
            for e in default_lexicon().lemmas
        ]

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        """Structurally validate a pack object (REGISTER_* codes)."""
        return parse_pack(pack, expected_id=expected_id)

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        """Ratify the pack file at *path* in place, without an evidence probe."""
        return ratify_pack_file(path)

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        """Load a ratified pack along *search_path*, then the shipped packs."""
        return load_register_pack(register_id, search_path=search_path)

    def select_index(
        self,
        bucket: Sequence[str],
        *,
        trace_hash: str,
        register_id: str,
        turn_idx: int,
        bucket_name: str,
    ) -> int | None:
        """The seeded index into *bucket*, or None when it is empty."""
        return select_bucket_index(
            bucket,
            trace_hash=trace_hash,
            register_id=register_id,
            turn_idx=turn_idx,
            bucket_name=bucket_name,
        )

    def decorate(
        self,
        surface: str,
        markers: Mapping[str, Sequence[str]],
        *,
        register_id: str,
        trace_hash: str,
        turn_idx: int,
    ) -> Decoration:
        """Decorate *surface* with markers chosen from the openings and closings buckets."""
        return decorate(
            surface,
            openings=markers["openings"],
            closings=markers["closings"],
            register_id=register_id,
            trace_hash=trace_hash,
            turn_idx=turn_idx,
        )

    def resolve_overrides(self, overrides: Mapping[str, Any], intent_name: str) -> int:
        """``disclosure_domain_count`` for *intent_name* under *overrides*."""
        return resolve_disclosure_domain_count(overrides, intent_name)

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        """A fresh chat runtime; the register is loaded now, so *search_path* may vanish after."""
        config = RuntimeConfig(register_pack_id=register_id, register_search_path=search_path)
        return ChatRuntime(config)

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        """One turn of *runtime*, as the JSON result of ``session.chat``."""
        return runtime.chat(text).as_json()

    def add_session(self, runtime: Any) -> str:
        """Register *runtime* under the next session id (``s1``, ``s2``, ...)."""
        self.sessions_opened += 1
        session_id = f"s{self.sessions_opened}"
        self.sessions[session_id] = runtime
        return session_id

    def session(self, session_id: str) -> Any:
        """The runtime of an open session, or SESSION_UNKNOWN."""
        runtime = self.sessions.get(session_id)
        if runtime is None:
            refuse(SESSION_UNKNOWN, f"no open session {session_id!r}", "session")
        return runtime


def factory() -> ProtocolHandler:
    """A fresh handler: the in-process plug-in point ``reference.serve:factory``."""
    return ProtocolHandler()


# The stdio loop ------------------------------------------------------------------------------


def line_reader(stdin: TextIO) -> Callable[[], str | bytes]:
    """A ``readline`` over the raw bytes of *stdin* when it has them, else over its text."""
    return getattr(stdin, "buffer", stdin).readline


def line_writer(stdout: TextIO) -> Callable[[str], None]:
    """Write one line plus ``\\n`` as UTF-8 (to the byte layer when there is one) and flush."""
    target = getattr(stdout, "buffer", None)

    def write(line: str) -> None:
        if target is None:
            stdout.write(line + "\n")
            stdout.flush()
        else:
            target.write(line.encode("utf-8") + b"\n")
            target.flush()

    return write


def strip_newline(line: str | bytes) -> str | bytes:
    """*line* without its trailing ``\\n`` (a ``\\r`` before it is JSON whitespace)."""
    newline = b"\n" if isinstance(line, bytes) else "\n"
    return line[:-1] if line.endswith(newline) else line


def serve(stdin: TextIO, stdout: TextIO, handler: ProtocolHandler | None = None) -> int:
    """Answer request lines from *stdin* on *stdout* until EOF; returns 0.

    Anything else the engine might print goes to stderr, so stdout carries responses only.
    """
    handler = factory() if handler is None else handler
    read, write = line_reader(stdin), line_writer(stdout)
    with contextlib.redirect_stdout(sys.stderr):
        while line := read():
            try:
                write(handler.handle_line(strip_newline(line)))
            except BrokenPipeError:
                return 0
    return 0
