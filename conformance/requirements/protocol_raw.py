"""The wire itself: raw request lines, JSON the protocol refuses, unclaimed ops, end of input,
and the bytes of the response lines (canonical JSON).

These requirements write bytes, not request objects, so they can send what a client
library never would: blank lines, a byte order mark, bytes that are not UTF-8, ``NaN``,
lone surrogate escapes. Every refused line must get the whole typed error
(``PROTOCOL_BAD_JSON``, id null, no ``field``, a one-line message) and the engine must
keep serving.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st

from conformance import bad_utf8, coverage, oracle
from conformance.canonical import RefusedJSON, canonical_json, read_json
from conformance.engines.base import EngineClient
from conformance.requirements.protocol import framed
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch

FRAMING = "docs/protocol.md § Framing"
NUMBERS = "docs/protocol.md § Requests; § Error codes (PROTOCOL_BAD_JSON)"
EXIT_CEILING_SECONDS = 60.0
"""How long a closed engine may take to answer what it read and exit; only catches a hang."""
LONG_LINE_BYTES = 1 << 20
"""docs/protocol.md § Framing: an engine answers request lines of at least this many bytes."""

Line = Callable[[str], bytes]
"""Builds one request line (without ``\\n``) that would carry the given request id."""


def _hello(request_id: str, extra: str = "") -> bytes:
    return f'{{"id":"{request_id}","op":"hello"{extra}}}'.encode()


def _raw_pad(value: bytes) -> Line:
    """A hello carrying the raw bytes *value* (not necessarily UTF-8) in an ignored member."""
    return lambda rid: _hello(rid)[:-1] + b',"pad":' + value + b"}"


def _placed(name: str) -> Line:
    """A hello with the bytes of case *name* of :func:`bad_utf8.outside` where no string
    holds them."""
    return lambda rid: bad_utf8.outside(_hello(rid))[name]


def _padded(value: str) -> Line:
    """A hello carrying *value* in a top-level member the engine must ignore."""
    return lambda rid: _hello(rid, f',"pad":{value}')


def _hello_answered(response: Any, request_id: str, what: str) -> None:
    assert isinstance(response, dict), f"{what}: response {response!r} is not an object"
    assert response.get("ok") is True, f"{what}: refused: {response.get('error')!r}"
    assert response.get("id") == request_id, f"{what}: id {response.get('id')!r}"
    result = response.get("result")
    assert isinstance(result, dict) and result.get("protocol") == "core-engine/1", (
        f"{what}: not the hello result: {result!r}"
    )


def _bad_json(response: Any, what: str) -> None:
    """*response* refuses its line with the whole PROTOCOL_BAD_JSON error."""
    assert isinstance(response, dict), f"{what}: response {response!r} is not an object"
    assert response.get("ok") is False, f"{what}: answered with ok"
    assert "id" in response and response["id"] is None, f"{what}: id {response.get('id')!r}"
    error = response.get("error")
    assert isinstance(error, dict), f"{what}: error {error!r}"
    assert error.get("code") == "PROTOCOL_BAD_JSON", f"{what}: code {error.get('code')!r}"
    assert "field" not in error, f"{what}: PROTOCOL_BAD_JSON names a field {error['field']!r}"
    message = error.get("message")
    assert isinstance(message, str) and message, f"{what}: message {message!r}"
    assert "\n" not in message and "\r" not in message, f"{what}: message spans lines"


def _check_lines(
    engine: EngineClient, table: Mapping[str, tuple[Line, bool]], names: list[str]
) -> None:
    """Send one line per name, each followed by a hello; each gets its own answer, in order."""
    data, expected = b"", []
    for index, name in enumerate(names):
        build, accepted = table[name]
        data += build(f"l{index}") + b"\n" + _hello(f"h{index}") + b"\n"
        expected += [(name, f"l{index}", accepted), (f"hello after {name}", f"h{index}", True)]
    responses = engine.raw_lines(data)
    for response, (what, request_id, accepted) in zip(responses, expected, strict=True):
        if accepted:
            _hello_answered(response, request_id, what)
        else:
            _bad_json(response, what)


FRAMES: dict[str, tuple[Line, bool]] = {
    "a blank line": (lambda rid: b"", False),
    "spaces and a tab": (lambda rid: b" \t ", False),
    "a lone carriage return": (lambda rid: b"\r", False),
    "a request ending in CRLF": (lambda rid: _hello(rid) + b"\r", True),
    "JSON whitespace around a request": (lambda rid: b" \t" + _hello(rid) + b" \r", True),
    "text that is not JSON": (lambda rid: b"hello?", False),
    "two objects on one line": (lambda rid: _hello(rid) + _hello(rid), False),
    "a NUL byte": (lambda rid: b"\x00", False),
    "a byte order mark before a request": (lambda rid: b"\xef\xbb\xbf" + _hello(rid), False),
    "an array": (lambda rid: b'[{"id":1,"op":"hello"}]', False),
    "a string": (lambda rid: b'"hello"', False),
    "null": (lambda rid: b"null", False),
    "a byte that is never UTF-8": (_raw_pad(b'"\xff"'), False),
    "an overlong UTF-8 encoding": (_raw_pad(b'"\xc0\xaf"'), False),
    "a truncated UTF-8 sequence": (_raw_pad(b'"\xe2\x82"'), False),
    **{f"a request with {name}": (_placed(name), False) for name in bad_utf8.outside(b"{}")},
    "a request line of 1 MiB": (_padded(" " * LONG_LINE_BYTES + "0"), True),
    "astral text in a request": (_padded('"\U0001f600 \u00e9 \u4e2d"'), True),
}


@requirement(
    "PROTO-FRAME-001",
    "every request line gets exactly one response, in order: a blank line, garbage, a byte "
    "order mark, bytes that are not UTF-8 or a JSON value that is not an object get "
    "PROTOCOL_BAD_JSON (id null, no field); a CR before the newline and 1 MiB lines are "
    "answered; the engine keeps serving",
    family="protocol",
    capabilities=(),
    seed=FRAMING,
    strategy=lambda ctx: st.lists(st.sampled_from(sorted(FRAMES)), min_size=1, max_size=4),
    max_examples=10,
    cover=coverage.singletons("line kinds", sorted(FRAMES)),
)
def framing(engine: EngineClient, names: list[str]) -> None:
    _check_lines(engine, FRAMES, names)


SELECT_ARGS = (
    '"args":{"bucket":[ENTRY],"bucket_name":"openings","register_id":"r",'
    f'"trace_hash":"{"0" * 64}","turn_idx":0}}'
)


def _select(bucket_entry: str) -> Line:
    """A variation.select line whose bucket holds *bucket_entry* (JSON text)."""
    args = SELECT_ARGS.replace("ENTRY", bucket_entry)
    return lambda rid: f'{{"id":"{rid}","op":"variation.select",{args}}}'.encode()


def _nested(depth: int) -> str:
    """A JSON value for the ``pad`` member that makes the request *depth* levels deep."""
    return "[" * (depth - 1) + "]" * (depth - 1)


def _nested_objects(depth: int) -> str:
    """As :func:`_nested`, of objects: the request object is level 1, each ``{"a":`` one more."""
    return '{"a":' * (depth - 2) + "{}" + "}" * (depth - 2)


def _nested_mixed(depth: int) -> str:
    """As :func:`_nested`, arrays and objects in turn, the innermost holding ``0``."""
    opened, closed = "", ""
    for level in range(depth - 1):
        opened += "[" if level % 2 == 0 else '{"k":'
        closed = ("]" if level % 2 == 0 else "}") + closed
    return opened + "0" + closed


def _with_id(literal: str) -> Line:
    """A hello whose id is the JSON text *literal* (the response then echoes no string id)."""
    return lambda rid: f'{{"id":{literal},"op":"hello"}}'.encode()


def _in_batch(element_member: str) -> Line:
    """A batch line whose one element (a hello) carries *element_member* (JSON text after
    the element's own members): the line is read whole, so a bound past in the element
    refuses the whole line, whatever the element would get alone."""
    return lambda rid: (
        f'{{"id":"{rid}","op":"batch","args":{{"requests":'
        f'[{{"id":1,"op":"hello",{element_member}}}]}}}}'
    ).encode()


def _in_args(value: str) -> Line:
    """A variation.select line carrying *value* (JSON text) inside an argument, in a list
    in an object: the guarded reader refuses it before any argument is read."""
    return _select(f'{{"deep":[0,{value}]}}')


NUMBER_LINES: dict[str, tuple[Line, bool]] = {
    "NaN": (_padded("NaN"), False),
    "Infinity": (_padded("Infinity"), False),
    "-Infinity": (_padded("-Infinity"), False),
    "NaN in an array": (_padded("[1,NaN]"), False),
    "an integer of 1,001 digits": (_padded("9" * 1001), False),
    "a negative integer of 1,001 digits": (_padded("-" + "9" * 1001), False),
    "an integer of 1,000 digits": (_padded("9" * 1000), True),
    "a negative integer of 1,000 digits (the sign is not a digit)": (
        _padded("-" + "9" * 1000),
        True,
    ),
    "integers of 1,000 digits in nested arrays and objects": (
        _padded(f'{{"a":[{"1" * 1000},{{"b":-{"2" * 1000}}}]}}'),
        True,
    ),
    "an integer of 1,001 digits in a nested object": (
        _padded(f'{{"a":[0,{{"b":{"1" * 1001}}}]}}'),
        False,
    ),
    "an integer of 1,001 digits as the id": (_with_id("1" * 1001), False),
    "a negative integer of 1,001 digits as the id": (_with_id("-" + "1" * 1001), False),
    "an integer of 1,001 digits inside an argument": (_in_args("7" * 1001), False),
    "1e400, too large for a double, as the id": (_with_id("1e400"), False),
    "-1.8e308 as the id": (_with_id("-1.8e308"), False),
    "NaN as the id": (_with_id("NaN"), False),
    "Infinity as the id": (_with_id("Infinity"), False),
    "1e400, too large for a double": (_padded("1e400"), False),
    "-1e400": (_padded("-1e400"), False),
    "1.8e308, just past the largest double": (_padded("[1.8e308]"), False),
    "-1.8e308 in a nested object": (_padded('{"a":-1.8e308}'), False),
    "1e400 inside an argument": (_in_args("1e400"), False),
    "1e308, a double": (_padded("1e308"), True),
    "-1e308": (_padded("-1e308"), True),
    "the largest double, 1.7976931348623157e308, and its negative": (
        _padded("[1.7976931348623157e308,-1.7976931348623157e308]"),
        True,
    ),
    "1.7976931348623158e308, which rounds to the largest double": (
        _padded("1.7976931348623158e308"),
        True,
    ),
    "1e-400, which rounds to zero": (_padded("1e-400"), True),
    "nesting 65 levels deep": (_padded(_nested(65)), False),
    "nesting 64 levels deep": (_padded(_nested(64)), True),
    "objects nested 65 levels deep": (_padded(_nested_objects(65)), False),
    "objects nested 64 levels deep": (_padded(_nested_objects(64)), True),
    "arrays and objects nested 65 levels deep": (_padded(_nested_mixed(65)), False),
    "arrays and objects nested 64 levels deep": (_padded(_nested_mixed(64)), True),
    "nesting 100,000 levels deep (past any reader's recursion)": (
        _padded(_nested(100_000)),
        False,
    ),
    "objects nested 100,000 levels deep": (_padded(_nested_objects(100_000)), False),
    "100 empty arrays side by side, 3 levels deep (levels, not brackets, count)": (
        _padded("[" + ",".join(["[]"] * 100) + "]"),
        True,
    ),
    "nesting 65 levels deep in the id": (_with_id(_nested(65)), False),
    "nesting 65 levels deep inside an argument": (_in_args(_nested(61)), False),
    "nesting 65 levels deep in a batch element (62 from the element)": (
        _in_batch(f'"pad":{_nested(62)}'),
        False,
    ),
    "an integer of 1,001 digits as a batch element's member": (
        _in_batch(f'"pad":{"5" * 1001}'),
        False,
    ),
    "the id named twice": (
        lambda rid: f'{{"id":"first","op":"hello","id":"{rid}"}}'.encode(),
        True,
    ),
}


@requirement(
    "PROTO-JSON-001",
    "NaN and Infinity, an integer of more than 1,000 digits, a number too large for a double "
    "and nesting deeper than 64 levels are refused with PROTOCOL_BAD_JSON (id null, no "
    "field), anywhere in the line (the id, an argument, a batch element); 1,000 digits (the "
    "sign not counted), the largest double and 64 levels (arrays and objects alike) are "
    "accepted; of a member named twice the last counts",
    family="protocol",
    capabilities=(),
    seed=NUMBERS,
    strategy=lambda ctx: st.lists(st.sampled_from(sorted(NUMBER_LINES)), min_size=1, max_size=3),
    max_examples=10,
    cover=coverage.singletons("values", sorted(NUMBER_LINES)),
)
def numbers_and_depth(engine: EngineClient, names: list[str]) -> None:
    _check_lines(engine, NUMBER_LINES, names)


SURROGATE_LINES: dict[str, tuple[Line, bool]] = {
    "a lone high surrogate escape": (_padded('"\\ud800"'), False),
    "a lone low surrogate escape": (_padded('"a\\udfffb"'), False),
    "a reversed pair": (_padded('"\\ude00\\ud83d"'), False),
    "a high surrogate escape before a letter": (_padded('"\\uD83Dx"'), False),
    "a lone surrogate escape in a key": (_padded('{"\\udc00":1}'), False),
    "a lone surrogate escape in the id": (lambda rid: b'{"id":"\\ud800","op":"hello"}', False),
    "a lone surrogate escape in an argument": (_select('"\\ud800"'), False),
    "a surrogate encoded as UTF-8 bytes": (
        _raw_pad(b'"\xed\xa0\x80"'),
        False,
    ),
    "a surrogate pair escape": (_padded('"\\ud83d\\ude00"'), True),
}

SURROGATE_OBJECTS: dict[str, dict[str, Any]] = {
    "a request object with a lone surrogate in the id": {"id": "\ud800", "op": "hello"},
    "a request object with a lone surrogate in a member": {
        "id": 1,
        "op": "hello",
        "pad": {"k": ["x\udfff"]},
    },
    "a request object with a lone surrogate in a key": {
        "id": 1,
        "op": "hello",
        "pad": {"\ud800": 1},
    },
}


@requirement(
    "PROTO-JSON-002",
    'a string or key holding a lone surrogate, escaped ("\\ud800") or as bytes, anywhere in '
    "a request (id, argument, ignored member) is refused with PROTOCOL_BAD_JSON (id null, no "
    "field); a surrogate pair escape is one astral character",
    family="protocol",
    capabilities=(),
    seed=NUMBERS,
    strategy=lambda ctx: st.lists(
        st.sampled_from(sorted([*SURROGATE_LINES, *SURROGATE_OBJECTS])), min_size=1, max_size=3
    ),
    max_examples=10,
    cover=coverage.singletons("surrogates", sorted([*SURROGATE_LINES, *SURROGATE_OBJECTS])),
)
def lone_surrogates(engine: EngineClient, names: list[str]) -> None:
    for name in names:
        if name in SURROGATE_OBJECTS:
            _bad_json(engine.raw(SURROGATE_OBJECTS[name], checked=False), name)
            _hello_answered(engine.raw({"id": "after", "op": "hello"}), "after", name)
        else:
            _check_lines(engine, SURROGATE_LINES, [name])


CAPABILITY_OPS: dict[str, tuple[str, ...]] = {
    "lexicon": ("lexicon.list",),
    "variation": ("variation.select", "variation.decorate"),
    "overrides": ("overrides.resolve",),
    "registers.validate": ("register.validate",),
    "registers.ratify": ("register.ratify",),
    "registers.ratify_file": ("register.ratify_file",),
    "registers.load": ("register.load",),
    "sessions": ("session.open", "session.chat", "session.close"),
    "batch": ("batch",),
    "state": (
        "state.open",
        "state.apply",
        "state.checkpoint",
        "state.digest",
        "state.close",
        "state.load",
        "state.propose",
        "state.journal",
    ),
    "state.soak": ("state.soak",),
    "state.trace": ("state.trace_checkpoint",),
    "algebra": (
        "algebra.product",
        "algebra.reverse",
        "algebra.grade",
        "algebra.rotor",
        "algebra.versor_apply",
        "algebra.versor_condition",
    ),
}
"""docs/protocol.md § Capabilities: the ops each capability gates."""


@requirement(
    "PROTO-CAPS-001",
    "every op of a capability the engine does not claim is refused with PROTOCOL_UNKNOWN_OP "
    "(field op), and no op of a claimed capability is",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § Capabilities",
    cover=coverage.each("capabilities", sorted(CAPABILITY_OPS)),
)
def unclaimed_ops(engine: EngineClient, capability: str) -> None:
    claimed = capability in engine.capabilities()
    for op in CAPABILITY_OPS[capability]:
        response = engine.raw({"id": op, "op": op, "args": {}}, checked=False)
        assert isinstance(response, dict) and response.get("id") == op, f"{op}: {response!r}"
        error = response.get("error") if response.get("ok") is False else None
        code = error.get("code") if isinstance(error, dict) else None
        if claimed:
            assert code != "PROTOCOL_UNKNOWN_OP", f"{op} of claimed {capability} is unknown"
            continue
        assert code == "PROTOCOL_UNKNOWN_OP", f"{op} of unclaimed {capability}: {response!r}"
        assert isinstance(error, dict) and error.get("field") == "op", f"{op}: field {error!r}"
        message = error.get("message")
        assert isinstance(message, str) and message and "\n" not in message, f"{op}: {error!r}"


END_OF_INPUT: dict[str, bytes] = {
    "a last request without a newline": (
        _hello("e0") + b"\n\nnot json\n" + _hello("e1") + b"\n" + _hello("e2")
    ),
}
"""What the engine reads before its stdin closes."""
EXPECTED_AT_EOF: dict[str, tuple[str | None, ...]] = {
    "a last request without a newline": ("e0", None, None, "e1", "e2"),
}
"""The id each response carries, in order (None: a PROTOCOL_BAD_JSON refusal)."""


@requirement(
    "PROTO-EOF-001",
    "at end of input the engine answers every line it read (a last line without a newline "
    "too), writes nothing else and exits with status 0",
    family="protocol",
    capabilities=(),
    seed=FRAMING,
    cover=coverage.each("inputs", sorted(END_OF_INPUT)),
)
def exits_at_eof(engine: EngineClient, name: str) -> None:
    command = engine.spawn_command()
    assert command is not None, "the engine cannot be started as a program"
    try:
        done = subprocess.run(
            command,
            input=END_OF_INPUT[name],
            capture_output=True,
            timeout=EXIT_CEILING_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        engine.transcript.record({"spawned": command, "stdin": name}, None)
        raise AssertionError(f"{name}: still running after its stdin closed") from None
    output = {"stdout": done.stdout.decode("utf-8", "backslashreplace"), "exit": done.returncode}
    engine.transcript.record({"spawned": command, "stdin": name}, output)
    answers = _answers(done.stdout, name)
    expected = EXPECTED_AT_EOF[name]
    assert len(answers) == len(expected), f"{name}: {len(answers)} responses to {len(expected)}"
    for response, request_id in zip(answers, expected, strict=True):
        if request_id is None:
            _bad_json(response, f"{name}: a bad line")
        else:
            _hello_answered(response, request_id, f"{name}: request {request_id}")
    assert done.returncode == 0, f"{name}: exit status {done.returncode} at end of input"


def _answers(stdout: bytes, what: str) -> list[Any]:
    """The response objects on *stdout*, which must end with a newline."""
    assert not stdout or stdout.endswith(b"\n"), f"{what}: the last response has no newline"
    answers = []
    for line in stdout.splitlines():
        try:
            answers.append(read_json(line))
        except RefusedJSON as exc:
            raise AssertionError(
                f"{what}: stdout line is not JSON ({exc}): {line[:80]!r}"
            ) from None
    return answers


CANONICAL = (
    "docs/protocol.md § Framing (responses are canonical JSON); docs/spec.md § Canonical JSON"
)
WIRE_STRINGS = oracle.CANONICAL_STRINGS


def _request_line(request: Mapping[str, Any]) -> bytes:
    return json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _wire_requests(claimed: frozenset[str]) -> bytes:
    seed = {"trace_hash": "0" * 64, "register_id": "r", "turn_idx": 0, "bucket_name": "openings"}
    lines = [
        _request_line({"id": name, "op": "variation.select", "args": {**seed, "bucket": [text]}})
        for name, text in WIRE_STRINGS.items()
    ]
    unknown = {**seed, "bucket": [], "\U0001f600": 1, "\ue000": 1, "\u00e9": 1}
    lines.append(
        _request_line({"id": "\u00e9\U0001f600", "op": "variation.select", "args": unknown})
    )
    # results the docs show with their members out of order (a port that copies them into
    # a struct writes them in its declaration order): hello's engine, decorate's four
    lines.append(_request_line({"id": "hello", "op": "hello", "args": {}}))
    decorate = {
        "surface": "a <b> & c",
        "discourse_markers": {"openings": ["So,"], "closings": [" \u2014 ok?"]},
        "register_id": seed["register_id"],
        "trace_hash": seed["trace_hash"],
        "turn_idx": 0,
    }
    lines.append(_request_line({"id": "decorate", "op": "variation.decorate", "args": decorate}))
    if "lexicon" in claimed:  # rows the docs show as lemma, pack, pos, has_gloss
        lines.append(_request_line({"id": "lexicon", "op": "lexicon.list", "args": {}}))
    return b"".join(lines)


def _spawned_lines(engine: EngineClient, data: bytes, what: str) -> list[bytes]:
    """The response lines a fresh engine process writes for the request lines *data*."""
    command = engine.spawn_command()
    assert command is not None, "the engine cannot be started as a program"
    try:
        done = subprocess.run(
            command, input=data, capture_output=True, timeout=EXIT_CEILING_SECONDS, check=False
        )
    except subprocess.TimeoutExpired:
        engine.transcript.record({"spawned": command, "stdin": what}, None)
        raise AssertionError(f"{what}: still running after its stdin closed") from None
    output = {"stdout": done.stdout.decode("utf-8", "backslashreplace"), "exit": done.returncode}
    engine.transcript.record({"spawned": command, "stdin": what}, output)
    _answers(done.stdout, what)
    return done.stdout.splitlines()


def _canonical_lines(lines: list[bytes], expected: int, what: str) -> None:
    assert len(lines) == expected, f"{what}: {len(lines)} responses to {expected} requests"
    for line in lines:
        canonical = canonical_json(read_json(line)).encode("utf-8")
        assert line == canonical, (
            f"{what}: a response line is not canonical JSON: {line[:160]!r}, "
            f"canonical {canonical[:160]!r}"
        )


@requirement(
    "PROTO-WIRE-001",
    "every response line is canonical JSON: keys sorted, no whitespace, only the fixed "
    "escapes; non-ASCII, astral, U+2028, DEL and C1 characters and <, >, & written as UTF-8; "
    "hello's, variation.decorate's and lexicon.list's results too, whose members the docs "
    "show out of order",
    family="protocol",
    capabilities=("variation",),
    seed=CANONICAL,
)
def canonical_responses(engine: EngineClient, _: object) -> None:
    data = _wire_requests(engine.capabilities())
    _canonical_lines(_spawned_lines(engine, data, "strings"), data.count(b"\n"), "strings")


ASTRAL_KEYS = {"a": 1, "\ue000": 2, "\U0001f600": {"\ufb01": 3, "\U00010000": 4}}
"""Keys whose code point order differs from their UTF-16 order (docs/spec.md § Canonical JSON)."""


@requirement(
    "PROTO-WIRE-002",
    "response keys are sorted by Unicode code point, not UTF-16 code unit: a journal entry "
    "with keys U+E000 and U+1F600 comes back with U+E000 first",
    family="protocol",
    capabilities=("state",),
    seed=CANONICAL,
)
def code_point_key_order(engine: EngineClient, _: object) -> None:
    payload = canonical_json(ASTRAL_KEYS).encode("utf-8")
    with scratch() as directory:
        (directory / "proposals.journal").write_bytes(framed(payload))
        request = {
            "id": 1,
            "op": "state.journal",
            "args": {"dir": str(directory), "name": "proposals"},
        }
        lines = _spawned_lines(engine, _request_line(request), "a journal entry")
    _canonical_lines(lines, 1, "a journal entry")
    entries = read_json(lines[0]).get("result", {}).get("entries")
    assert entries == [ASTRAL_KEYS], f"entries {entries!r}"


SCRAMBLED_KEYS: dict[str, Any] = {
    "\U0001f600": 1,
    "\ue000": 2,
    "\u00e9": 3,
    "ab": 4,
    "a-b": 5,
    "a": {"zz": 6, "z": [{"y": 7, "Y": 8}]},
    "_": 9,
    "B": 10,
}
"""A proposal whose keys are sent in reverse code point order: a key that is a proper prefix
of others (``a`` of ``a-b`` and ``ab``, ``z`` of ``zz``), upper and lower case, ``_`` between
them, é, U+E000 and an astral key, nested too."""


@requirement(
    "PROTO-WIRE-461",
    "object keys are sorted by code point whatever order they came in: a proposal sent with "
    "its keys in reverse order (a key that is a proper prefix of others, upper and lower "
    "case, _, é, U+E000, an astral key; nested too) is written to proposals.journal as its "
    "canonical JSON and state.journal answers it in a canonical line, as state.load answers",
    family="protocol",
    capabilities=("state",),
    seed="docs/spec.md § Canonical JSON (keys sorted ascending by Unicode code point, compared "
    "lexicographically: a key that is a proper prefix of another sorts first); "
    "docs/state.md § Journals (the payload is canonical JSON)",
)
def keys_sorted_from_any_order(engine: EngineClient, _: object) -> None:
    want = canonical_json(SCRAMBLED_KEYS).encode("utf-8")
    with scratch() as directory:
        with Stores(engine) as stores:
            store = stores.open(directory)["store"]
            answer = engine.call("state.propose", {"store": store, "proposal": SCRAMBLED_KEYS})
            stores.close(store)
        assert answer.get("queued") is True, f"the proposal answered {answer}"
        data = (directory / "proposals.journal").read_bytes()
        lines = data.splitlines(keepends=True)
        assert len(lines) == 1 and lines[0][18:-1] == want, (
            f"proposals.journal holds {data[:200]!r}, not the canonical payload {want!r} "
            "(keys in code point order, a proper prefix first)"
        )
        request = {
            "id": 1,
            "op": "state.journal",
            "args": {"dir": str(directory), "name": "proposals"},
        }
        # state.load's result too, whose members the docs list out of order
        load = {"id": 2, "op": "state.load", "args": {"dir": str(directory)}}
        data = _request_line(request) + _request_line(load)
        read = _spawned_lines(engine, data, "a proposal read back")
    _canonical_lines(read, 2, "a proposal read back")
    entries = read_json(read[0]).get("result", {}).get("entries")
    assert entries == [SCRAMBLED_KEYS], f"entries {entries!r}"
