"""Protocol lane: ``core-engine/1`` served in-process and by ``python -m reference serve``.

Every op answers, every protocol error code is reachable, garbage never stops the
loop, batches equal sequential calls, every response matches the schemas, and the
served results equal the engine's own functions and the known-answer vectors.
"""

from __future__ import annotations

import base64
import copy
import functools
import io
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from conformance.protocol.validate import (
    ProtocolViolation,
    load_schemas,
    validate_request,
    validate_response,
)
from reference.canonical import pretty_json, wire_json
from reference.lexicon import default_lexicon
from reference.protocol.handler import CAPABILITIES, OPS, ProtocolHandler, factory
from reference.realize.depth import resolve_disclosure_domain_count
from reference.registers.loader import load_register_pack
from reference.registers.ratify import ratify_pack_file
from reference.registers.seal import verify_report_seal
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.probe_script import lexicon_script
from reference.serve import serve
from reference.truth.intent import IntentTag

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "conformance" / "data" / "vectors"
SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
FOUR_REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")
INTENTS = tuple(tag.name for tag in IntentTag)
HASH = "ab" * 32
TIMEOUT = 60.0


def user_pack(register_id: str = "user_v1", **changes: Any) -> dict[str, Any]:
    pack = {
        "register_id": register_id,
        "version": "1.0.0",
        "description": "A test register.",
        "schema_version": "1.0.0",
        "display_name": "User",
        "depth_preference": "standard",
        "realizer_overrides": {"disclosure_domain_count": 1},
        "discourse_markers": {"openings": ["Well,", "Look —"], "closings": ["", " Right?"]},
    }
    return {**pack, **changes}


# Transports ----------------------------------------------------------------------------------


class Server:
    """``python -m reference serve`` as a subprocess; every read has a timeout."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "reference", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.lines: queue.Queue = queue.Queue()
        self.log = bytearray()
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _pump(self) -> None:
        for line in iter(self.process.stdout.readline, b""):
            self.lines.put(line)
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        for line in iter(self.process.stderr.readline, b""):
            self.log[:] = (self.log + line)[-2000:]

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def receive(self) -> dict[str, Any]:
        line = self.lines.get(timeout=TIMEOUT)
        assert line is not None, f"server exited: {self.stderr_tail()}"
        assert line.endswith(b"\n"), line
        return json.loads(line.decode("utf-8"))

    def call(self, request: Any) -> dict[str, Any]:
        self.send(wire_json(request).encode("utf-8") + b"\n")
        return self.receive()

    def stderr_tail(self) -> str:
        return self.log.decode("utf-8", "replace")

    def close(self) -> int:
        self.process.stdin.close()
        return self.process.wait(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def server():
    running = Server()
    yield running
    assert running.close() == 0


def in_process() -> Any:
    handler = factory()
    return lambda request: json.loads(handler.handle_line(wire_json(request)))


@pytest.fixture(params=["in-process", "subprocess"])
def call(request, server):
    """Send one request object, return the response object; both are schema-checked."""
    send = in_process() if request.param == "in-process" else server.call

    def checked(req: dict[str, Any]) -> dict[str, Any]:
        response = send(req)
        validate_response(req.get("op"), response)
        return response

    return checked


def result(call, op: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    response = call({"id": 7, "op": op, "args": args or {}})
    assert response["ok"] is True, response
    assert response["id"] == 7
    return response["result"]


def error(call, request: dict[str, Any]) -> dict[str, Any]:
    response = call(request)
    assert response["ok"] is False, response
    assert response["id"] == request.get("id")
    return response["error"]


# Happy paths ---------------------------------------------------------------------------------


def test_hello(call):
    assert result(call, "hello") == {
        "protocol": "core-engine/1",
        "engine": {
            "name": "core-reference",
            "version": reference.__version__,
            "language": "python",
        },
        "capabilities": sorted(CAPABILITIES),
    }


def test_lexicon_list(call):
    rows = result(call, "lexicon.list")["lemmas"]
    expected = [
        {"lemma": e.lemma, "pack": e.pack_id, "pos": e.pos, "has_gloss": e.has_gloss}
        for e in default_lexicon().lemmas
    ]
    assert rows == expected
    assert [row["lemma"] for row in rows] == sorted(row["lemma"] for row in rows)


def test_register_validate(call):
    assert result(call, "register.validate", {"pack": user_pack()}) == {"register_id": "user_v1"}
    args = {"pack": user_pack(), "expected_id": "user_v1"}
    assert result(call, "register.validate", args) == {"register_id": "user_v1"}
    args = {"pack": user_pack(), "expected_id": None}
    assert result(call, "register.validate", args) == {"register_id": "user_v1"}


def test_register_ratify_matches_local_ratification(call, tmp_path):
    answer = result(call, "register.ratify", {"pack": user_pack()})
    files = {name: base64.b64decode(data) for name, data in answer["files"].items()}
    assert sorted(files) == ["user_v1.json", "user_v1.mastery_report.json"]
    local = tmp_path / "user_v1.json"
    local.write_text(pretty_json(user_pack()), encoding="utf-8")
    report = ratify_pack_file(local)
    assert answer["report"] == report and verify_report_seal(report)
    assert files["user_v1.json"] == local.read_bytes()
    assert (
        files["user_v1.mastery_report.json"]
        == (tmp_path / "user_v1.mastery_report.json").read_bytes()
    )


def test_register_load(call):
    shipped = result(call, "register.load", {"register_id": "convivial_v1", "files": {}})
    assert shipped == {"pack": load_register_pack("convivial_v1").as_json()}
    files = result(call, "register.ratify", {"pack": user_pack()})["files"]
    loaded = result(call, "register.load", {"register_id": "user_v1", "files": files})["pack"]
    assert loaded["discourse_markers"]["openings"] == ["Well,", "Look —"]
    assert loaded["realizer_overrides"] == {"disclosure_domain_count": 1}


def test_an_id_ending_in_a_dot_round_trips(call):
    files = result(call, "register.ratify", {"pack": user_pack("v1.")})["files"]
    assert sorted(files) == ["v1..json", "v1..mastery_report.json"]
    loaded = result(call, "register.load", {"register_id": "v1.", "files": files})["pack"]
    assert loaded["register_id"] == "v1."


def test_variation_select(call):
    args = {
        "bucket": ["a", "b", "c"],
        "trace_hash": HASH,
        "register_id": "r",
        "turn_idx": 4,
        "bucket_name": "openings",
    }
    answer = result(call, "variation.select", args)
    assert answer["entry"] == args["bucket"][answer["index"]]
    assert result(call, "variation.select", {**args, "bucket": []}) == {"entry": "", "index": None}


def test_variation_select_repeated_entries_report_the_drawn_index(call):
    args = {"trace_hash": HASH, "register_id": "r", "turn_idx": 0, "bucket_name": "closings"}
    indexes = {
        result(call, "variation.select", {**args, "bucket": ["x"] * 5, "turn_idx": turn})["index"]
        for turn in range(40)
    }
    assert len(indexes) > 1


def test_variation_decorate(call):
    args = {
        "surface": "Light is a source.",
        "discourse_markers": {"openings": ["So,"], "closings": [" ok?"], "transitions": ["x"]},
        "register_id": "convivial_v1",
        "trace_hash": HASH,
        "turn_idx": 0,
    }
    answer = result(call, "variation.decorate", args)
    assert answer["decorated"] == "So, Light is a source. ok?"
    assert (answer["opening"], answer["closing"]) == ("So,", " ok?")
    args["discourse_markers"] = {"openings": [], "closings": []}
    bare = result(call, "variation.decorate", args)
    assert bare == {
        "decorated": args["surface"],
        "opening": "",
        "closing": "",
        "register_variant_id": "",
    }


@pytest.mark.parametrize(
    ("overrides", "intent", "count"),
    [
        ({}, "DEFINITION", 3),
        ({"disclosure_domain_count": 2}, "CAUSE", 2),
        (
            {"disclosure_domain_count": 1, "per_intent": {"CAUSE": {"disclosure_domain_count": 2}}},
            "CAUSE",
            2,
        ),
        ({"disclosure_domain_count": 1, "per_intent": {"CAUSE": {}}}, "CAUSE", 1),
        ({"disclosure_domain_count": True}, "CAUSE", 3),
        ({"disclosure_domain_count": 7}, "CAUSE", 3),
        ({"per_intent": []}, "CAUSE", 3),
        ({"per_intent": {"CAUSE": {"disclosure_domain_count": "2"}}}, "CAUSE", 3),
    ],
)
def test_overrides_resolve(call, overrides, intent, count):
    args = {"realizer_overrides": overrides, "intent": intent}
    assert result(call, "overrides.resolve", args) == {"disclosure_domain_count": count}
    assert resolve_disclosure_domain_count(overrides, intent) == count


def test_session_lifecycle(call):
    first = result(call, "session.open", {"register_id": None})["session"]
    second = result(call, "session.open", {"register_id": "terse_v1"})["session"]
    assert first != second
    turn = result(call, "session.chat", {"session": first, "text": "What is light?"})
    assert turn["turn_idx"] == 0 and turn["register_id"] is None
    assert result(call, "session.chat", {"session": first, "text": "hi"})["turn_idx"] == 1
    assert result(call, "session.chat", {"session": second, "text": "hi"})["turn_idx"] == 0
    assert result(call, "session.close", {"session": first}) == {}
    gone = error(call, {"id": 1, "op": "session.chat", "args": {"session": first, "text": "x"}})
    assert gone["code"] == "SESSION_UNKNOWN"


def test_batch(call):
    requests = [
        {"id": "a", "op": "hello"},
        {"id": "b", "op": "nope"},
        {
            "id": "c",
            "op": "overrides.resolve",
            "args": {"realizer_overrides": {}, "intent": "CAUSE"},
        },
    ]
    responses = result(call, "batch", {"requests": requests})["responses"]
    assert [r["id"] for r in responses] == ["a", "b", "c"]
    assert [r["ok"] for r in responses] == [True, False, True]
    assert result(call, "batch", {"requests": []}) == {"responses": []}


# Chat equals ChatRuntime ---------------------------------------------------------------------


@pytest.mark.parametrize("register_id", FOUR_REGISTERS)
def test_session_chat_equals_chat_runtime(call, register_id):
    script = lexicon_script()[::5] + ["What is light?"] * 3 + ["", "\u00e9t\u00e9 \U0001f600"]
    session = result(call, "session.open", {"register_id": register_id})["session"]
    served = [result(call, "session.chat", {"session": session, "text": t}) for t in script]
    runtime = ChatRuntime(RuntimeConfig(register_id=register_id))
    assert served == [runtime.chat(text).as_json() for text in script]


def test_session_chat_under_a_user_register_equals_chat_runtime(call, tmp_path):
    files = result(call, "register.ratify", {"pack": user_pack()})["files"]
    for name, data in files.items():
        (tmp_path / name).write_bytes(base64.b64decode(data))
    args = {"register_id": "user_v1", "files": files}
    session = result(call, "session.open", args)["session"]
    script = lexicon_script()[:24]
    served = [result(call, "session.chat", {"session": session, "text": t}) for t in script]
    config = RuntimeConfig(register_id="user_v1", register_search_path=(tmp_path,))
    runtime = ChatRuntime(config)
    assert served == [runtime.chat(text).as_json() for text in script]
    assert {turn["register_id"] for turn in served} == {"user_v1"}


# Error codes ---------------------------------------------------------------------------------

SELECT_ARGS = {
    "bucket": ["a"],
    "trace_hash": HASH,
    "register_id": "r",
    "turn_idx": 0,
    "bucket_name": "openings",
}
DECORATE_ARGS = {
    "surface": "s",
    "discourse_markers": {"openings": [], "closings": []},
    "register_id": "r",
    "trace_hash": HASH,
    "turn_idx": 0,
}
BAD_REQUESTS = [
    ({"op": "hello"}, "PROTOCOL_BAD_REQUEST", "id"),
    ({"id": True, "op": "hello"}, "PROTOCOL_BAD_REQUEST", "id"),
    ({"id": 1.5, "op": "hello"}, "PROTOCOL_BAD_REQUEST", "id"),
    ({"id": None, "op": "hello"}, "PROTOCOL_BAD_REQUEST", "id"),
    ({"id": [1], "op": "hello"}, "PROTOCOL_BAD_REQUEST", "id"),
    ({"id": 1}, "PROTOCOL_BAD_REQUEST", "op"),
    ({"id": 1, "op": 5}, "PROTOCOL_BAD_REQUEST", "op"),
    ({"id": 1, "op": "hello", "args": []}, "PROTOCOL_BAD_REQUEST", "args"),
    ({"id": 1, "op": "hello", "args": None}, "PROTOCOL_BAD_REQUEST", "args"),
    ({"id": 1, "op": "nope"}, "PROTOCOL_UNKNOWN_OP", "op"),
    ({"id": 1, "op": "state.export"}, "PROTOCOL_UNKNOWN_OP", "op"),
    ({"id": 1, "op": "Hello"}, "PROTOCOL_UNKNOWN_OP", "op"),
    ({"id": 1, "op": "session_chat"}, "PROTOCOL_UNKNOWN_OP", "op"),
]
BAD_ARGS = [
    ("hello", {"extra": 1}, "extra"),
    ("register.validate", {}, "pack"),
    ("register.validate", {"pack": "not-an-object"}, "pack"),
    ("register.validate", {"pack": {}, "expected_id": 5}, "expected_id"),
    ("register.ratify", {"pack": []}, "pack"),
    ("register.load", {"register_id": 5, "files": {}}, "register_id"),
    ("register.load", {"register_id": "x"}, "files"),
    ("register.load", {"register_id": "x", "files": {"../escape.json": "AAAA"}}, "files"),
    ("register.load", {"register_id": "x", "files": {"a\\b.json": "AAAA"}}, "files"),
    ("register.load", {"register_id": "x", "files": {"a\u0000.json": "AAAA"}}, "files"),
    ("register.load", {"register_id": "x", "files": {"x.txt": "AAAA"}}, "files"),
    ("register.load", {"register_id": "x", "files": {"x.json": "not base64!"}}, "files"),
    ("register.load", {"register_id": "x", "files": {"x.json": 5}}, "files"),
    ("register.load", {"register_id": "x", "files": []}, "files"),
    ("variation.select", {**SELECT_ARGS, "bucket": "abc"}, "bucket"),
    ("variation.select", {**SELECT_ARGS, "bucket": ["a", 1]}, "bucket"),
    ("variation.select", {**SELECT_ARGS, "trace_hash": 1}, "trace_hash"),
    ("variation.select", {**SELECT_ARGS, "turn_idx": -1}, "turn_idx"),
    ("variation.select", {**SELECT_ARGS, "turn_idx": True}, "turn_idx"),
    ("variation.select", {**SELECT_ARGS, "turn_idx": 1.0}, "turn_idx"),
    ("variation.select", {**SELECT_ARGS, "colour": "red"}, "colour"),
    ("variation.decorate", {**DECORATE_ARGS, "surface": 5}, "surface"),
    (
        "variation.decorate",
        {**DECORATE_ARGS, "discourse_markers": {"openings": []}},
        "discourse_markers",
    ),
    (
        "variation.decorate",
        {**DECORATE_ARGS, "discourse_markers": {"openings": [], "closings": [], "x": []}},
        "discourse_markers",
    ),
    (
        "variation.decorate",
        {**DECORATE_ARGS, "discourse_markers": {"openings": [1], "closings": []}},
        "discourse_markers",
    ),
    ("overrides.resolve", {"realizer_overrides": [], "intent": "CAUSE"}, "realizer_overrides"),
    ("overrides.resolve", {"realizer_overrides": {}, "intent": "cause"}, "intent"),
    ("overrides.resolve", {"realizer_overrides": {}, "intent": None}, "intent"),
    ("session.open", {}, "register_id"),
    ("session.open", {"register_id": 3}, "register_id"),
    ("session.open", {"register_id": None, "files": {"/etc/passwd.json": ""}}, "files"),
    ("session.chat", {"session": "s1"}, "text"),
    ("session.chat", {"session": 1, "text": "hi"}, "session"),
    ("session.close", {}, "session"),
    ("batch", {"requests": {}}, "requests"),
    ("batch", {"requests": [{"id": 1, "op": "hello"}, {"id": 2, "op": "batch"}]}, "requests"),
]
ENGINE_ERRORS = [
    ("register.validate", {"pack": {"register_id": "x"}}, "REGISTER_MISSING_FIELD", "version"),
    (
        "register.validate",
        {"pack": user_pack(), "expected_id": "other"},
        "REGISTER_ID_MISMATCH",
        "register_id",
    ),
    ("register.ratify", {"pack": user_pack("../evil")}, "REGISTER_INVALID_ID", "register_id"),
    (
        "register.ratify",
        {"pack": user_pack(depth_preference="terse", realizer_overrides={}, discourse_markers={})},
        "REGISTER_EMPTY_NON_NULL",
        "depth_preference",
    ),
    (
        "register.load",
        {"register_id": "missing_v1", "files": {}},
        "REGISTER_NOT_FOUND",
        "register_id",
    ),
    ("register.load", {"register_id": "bad/id", "files": {}}, "REGISTER_INVALID_ID", "register_id"),
    ("session.open", {"register_id": "missing_v1"}, "REGISTER_NOT_FOUND", "register_id"),
    ("session.open", {"register_id": ""}, "REGISTER_INVALID_ID", "register_id"),
    ("session.chat", {"session": "s999999", "text": "hi"}, "SESSION_UNKNOWN", "session"),
    ("session.close", {"session": "nope"}, "SESSION_UNKNOWN", "session"),
]


@pytest.mark.parametrize(("request_", "code", "field"), BAD_REQUESTS)
def test_envelope_errors(call, request_, code, field):
    response = call(request_)
    assert response["ok"] is False
    assert (response["error"]["code"], response["error"].get("field")) == (code, field)
    valid_id = type(request_.get("id")) in (int, str)
    assert response["id"] == (request_["id"] if valid_id else None)


@pytest.mark.parametrize(("op", "args", "field"), BAD_ARGS)
def test_bad_args(call, op, args, field):
    found = error(call, {"id": "x", "op": op, "args": args})
    assert (found["code"], found.get("field")) == ("PROTOCOL_BAD_ARGS", field)


@pytest.mark.parametrize(("op", "args", "code", "field"), ENGINE_ERRORS)
def test_engine_errors_pass_through(call, op, args, code, field):
    found = error(call, {"id": 3, "op": op, "args": args})
    assert (found["code"], found.get("field")) == (code, field)


def test_register_load_refuses_a_tampered_pack(call):
    files = result(call, "register.ratify", {"pack": user_pack()})["files"]
    text = base64.b64decode(files["user_v1.json"]).replace(b"Well,", b"Hey,")
    files["user_v1.json"] = base64.b64encode(text).decode("ascii")
    found = error(
        call, {"id": 2, "op": "register.load", "args": {"register_id": "user_v1", "files": files}}
    )
    assert found["code"] == "REGISTER_TAMPERED"


class Exploding(ProtocolHandler):
    """A handler whose ``hello`` raises and whose lexicon prints to stdout."""

    def op_hello(self, args):
        raise RuntimeError("boom\nsecond line")

    def op_lexicon_list(self, args):
        print("stray output")
        return super().op_lexicon_list(args)


def run_serve(data: bytes, handler: ProtocolHandler | None = None) -> list[dict[str, Any]]:
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out = io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    assert serve(stdin, stdout, handler) == 0
    lines = out.getvalue().split(b"\n")
    assert lines[-1] == b""
    return [json.loads(line) for line in lines[:-1]]


def test_engine_internal_keeps_the_loop_alive(capsys):
    requests = [{"id": 1, "op": "hello"}, {"id": 2, "op": "lexicon.list"}, {"id": 3, "op": "hello"}]
    data = b"".join(wire_json(r).encode() + b"\n" for r in requests)
    responses = run_serve(data, Exploding())
    assert [r["id"] for r in responses] == [1, 2, 3]
    assert responses[0]["error"]["code"] == "ENGINE_INTERNAL"
    assert "\n" not in responses[0]["error"]["message"]
    assert responses[1]["ok"] is True
    assert "stray output" in capsys.readouterr().err


def test_unencodable_result_becomes_engine_internal():
    class NotJson(ProtocolHandler):
        def op_hello(self, args):
            return {"value": float("nan")}

    response = json.loads(NotJson().handle_line('{"id":1,"op":"hello"}'))
    assert response["id"] == 1 and response["error"]["code"] == "ENGINE_INTERNAL"


# Garbage on the wire -------------------------------------------------------------------------

GARBAGE = [
    b"not json",
    b"[1, 2]",
    b'"a string"',
    b"42",
    b"null",
    b"",
    b"   ",
    b"{",
    b'{"id": 1, "op": "hello"',
    b"NaN",
    b'{"id": 1, "op": "hello", "args": {"x": Infinity}}',
    b"\xff\xfe\xfa",
    b'{"id": "\xc3", "op": "hello"}',
    b'{"id": "\\ud800", "op": "hello"}',
    b'{"id": 1, "op": "session.chat", "args": {"session": "s1", "text": "\\udfff"}}',
    b"\xef\xbb\xbf{}",
    b"[" * 100_000,
    b"1" * 5000,
]


@pytest.mark.parametrize("line", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_line_gets_bad_json_and_the_server_survives(server, line):
    server.send(line + b"\n")
    response = server.receive()
    validate_response("", response)
    assert response["id"] is None
    assert response["error"]["code"] == "PROTOCOL_BAD_JSON"
    assert server.call({"id": "alive", "op": "hello"})["ok"] is True


def test_huge_lines(server):
    text = "What is light? " * 70_000
    session = server.call({"id": 1, "op": "session.open", "args": {"register_id": None}})
    session_id = session["result"]["session"]
    turn = server.call(
        {"id": 2, "op": "session.chat", "args": {"session": session_id, "text": text}}
    )
    assert turn["ok"] is True and turn["result"]["intent"] == "DEFINITION"
    big_id = "i" * 3_000_000
    assert server.call({"id": big_id, "op": "hello"})["id"] == big_id
    server.send(b"x" * 3_000_000 + b"\n")
    assert server.receive()["error"]["code"] == "PROTOCOL_BAD_JSON"


def test_carriage_returns_and_missing_final_newline():
    data = b'{"id":1,"op":"hello"}\r\n\n{"id":2,"op":"hello"}'
    responses = run_serve(data)
    assert [r["id"] for r in responses] == [1, None, 2]
    assert [r["ok"] for r in responses] == [True, False, True]


def test_serve_over_text_streams_without_a_byte_layer():
    stdin = io.StringIO('{"id":1,"op":"hello"}\nnope\n')
    stdout = io.StringIO()
    assert serve(stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert [json.loads(line)["ok"] for line in lines] == [True, False]


def test_subprocess_exits_zero_at_eof():
    process = subprocess.run(
        [sys.executable, "-m", "reference", "serve"],
        input=b'{"id":1,"op":"hello"}\ngarbage\n',
        capture_output=True,
        cwd=ROOT,
        timeout=TIMEOUT,
        check=False,
    )
    assert process.returncode == 0
    assert [json.loads(line)["id"] for line in process.stdout.splitlines()] == [1, None]


def test_temporary_directories_are_removed(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    call = in_process()
    files = result(call, "register.ratify", {"pack": user_pack()})["files"]
    result(call, "register.load", {"register_id": "user_v1", "files": files})
    session = result(call, "session.open", {"register_id": "user_v1", "files": files})["session"]
    assert (
        result(call, "session.chat", {"session": session, "text": "hi"})["register_id"] == "user_v1"
    )
    error(call, {"id": 1, "op": "register.load", "args": {"register_id": "zz", "files": files}})
    assert os.listdir(tmp_path) == []


# Batch equals sequential ---------------------------------------------------------------------

select_args = st.fixed_dictionaries(
    {
        "bucket": st.lists(st.text(max_size=8), max_size=6),
        "trace_hash": st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
        "register_id": st.sampled_from(FOUR_REGISTERS[1:] + ("r\u00e9gister_\u00fc_v1",)),
        "turn_idx": st.integers(0, 2**40),
        "bucket_name": st.sampled_from(("openings", "closings", "transitions")),
    }
)
requests_in_a_batch = st.lists(
    st.one_of(
        st.builds(lambda a: {"op": "variation.select", "args": a}, select_args),
        st.builds(
            lambda r: {"op": "session.open", "args": {"register_id": r}},
            st.sampled_from(FOUR_REGISTERS),
        ),
        st.builds(
            lambda t: {"op": "session.chat", "args": {"session": "s1", "text": t}},
            st.text(max_size=30),
        ),
        st.just({"op": "session.close", "args": {"session": "s1"}}),
        st.just({"op": "hello"}),
        st.just({"op": "nope"}),
        st.just({"args": {}}),
    ),
    max_size=10,
).map(lambda items: [{"id": i, **item} for i, item in enumerate(items)] + [5, "x"])


@settings(max_examples=60)
@given(requests_in_a_batch)
def test_batch_equals_sequential(requests):
    batched = factory().handle({"id": 0, "op": "batch", "args": {"requests": requests}})
    one_by_one = factory()
    assert batched["result"]["responses"] == [one_by_one.handle(r) for r in requests]
    ops = [r.get("op") if isinstance(r, dict) else None for r in requests]
    validate_response("batch", batched, inner_ops=ops)


def test_batch_equals_sequential_over_the_pipe(server):
    requests = [
        {
            "id": i,
            "op": "variation.select",
            "args": {**SELECT_ARGS, "turn_idx": i, "bucket": ["a", "b", "c"]},
        }
        for i in range(50)
    ]
    batched = server.call({"id": "batch", "op": "batch", "args": {"requests": requests}})
    assert batched["result"]["responses"] == [server.call(r) for r in requests]


# Arbitrary requests --------------------------------------------------------------------------

json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ARG_NAMES = sorted({name for spec in OPS.values() for name in (*spec.required, *spec.optional)})
shallow_args = st.dictionaries(st.sampled_from(ARG_NAMES), json_values, max_size=4)
junk_ops = st.one_of(st.sampled_from(sorted(OPS)), st.text(max_size=12), json_leaves)
register_ids = st.one_of(
    st.sampled_from((*FOUR_REGISTERS[1:], "user_v1", "", "../x", "a" * 70, "bad id")),
    st.text(max_size=10),
)
strings = st.lists(st.text(max_size=6), max_size=4)
pack_values = st.one_of(
    json_values,
    st.sampled_from(("standard", "terse", "1.0.0", "user_v1")),
    st.fixed_dictionaries({}, optional={"openings": strings, "closings": strings, "x": strings}),
    st.dictionaries(
        st.sampled_from(("disclosure_domain_count", "per_intent", "other")),
        st.one_of(json_values, st.dictionaries(st.sampled_from(INTENTS), json_values, max_size=2)),
    ),
)


@st.composite
def packs(draw) -> dict[str, Any]:
    """The user pack with a few fields set, added or removed."""
    pack = user_pack()
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from([*sorted(pack), "mastery_report_sha256", "extra"]))
        if draw(st.booleans()):
            pack.pop(key, None)
        else:
            pack[key] = draw(pack_values)
    return pack


@functools.cache
def user_files() -> dict[str, str]:
    """The ratified user pack's files, base64 by name."""
    return factory().handle({"id": 1, "op": "register.ratify", "args": {"pack": user_pack()}})[
        "result"
    ]["files"]


def tampered(files: dict[str, str], name: str, data: bytes) -> dict[str, str]:
    return {**files, name: base64.b64encode(data).decode("ascii")}


file_sets = st.one_of(
    st.builds(user_files),
    st.builds(lambda: {"user_v1.json": user_files()["user_v1.json"]}),
    st.builds(
        lambda name, data: tampered(user_files(), name, data),
        st.sampled_from(("user_v1.json", "user_v1.mastery_report.json", "other.json")),
        st.binary(max_size=40),
    ),
    st.dictionaries(
        st.text(max_size=10).map(lambda s: s + ".json"),
        st.binary(max_size=40).map(lambda d: base64.b64encode(d).decode("ascii")),
        max_size=2,
    ),
)
sessions = st.sampled_from(("s1", "s2", "s3", "nope"))
texts = st.one_of(st.text(max_size=40), st.sampled_from(lexicon_script()))
overrides = st.dictionaries(
    st.sampled_from(("disclosure_domain_count", "per_intent", "other")),
    st.one_of(json_values, st.dictionaries(st.sampled_from(INTENTS), pack_values, max_size=3)),
    max_size=3,
)
decorate_args = st.fixed_dictionaries(
    {
        "surface": st.text(max_size=20),
        "discourse_markers": st.fixed_dictionaries(
            {"openings": strings, "closings": strings}, optional={"transitions": strings}
        ),
        "register_id": register_ids,
        "trace_hash": st.text(max_size=64),
        "turn_idx": st.integers(0, 2**64),
    }
)
TYPED_ARGS = {
    "hello": st.just({}),
    "lexicon.list": st.just({}),
    "register.validate": st.fixed_dictionaries(
        {"pack": packs()}, optional={"expected_id": st.one_of(st.none(), register_ids)}
    ),
    "register.ratify": st.fixed_dictionaries({"pack": packs()}),
    "register.load": st.fixed_dictionaries({"register_id": register_ids, "files": file_sets}),
    "variation.select": select_args,
    "variation.decorate": decorate_args,
    "overrides.resolve": st.fixed_dictionaries(
        {"realizer_overrides": overrides, "intent": st.sampled_from(INTENTS)}
    ),
    "session.open": st.fixed_dictionaries(
        {"register_id": st.one_of(st.none(), register_ids)}, optional={"files": file_sets}
    ),
    "session.chat": st.fixed_dictionaries({"session": sessions, "text": texts}),
    "session.close": st.fixed_dictionaries({"session": sessions}),
}
typed_requests = st.one_of(
    *(
        st.builds(lambda op, args, i: {"id": i, "op": op, "args": args}, st.just(op), args, ids)
        for op, args in TYPED_ARGS.items()
        for ids in [st.one_of(st.integers(), st.text(max_size=5))]
    )
)
typed_batches = st.builds(
    lambda items: {"id": "batch", "op": "batch", "args": {"requests": items}},
    st.lists(st.one_of(typed_requests, json_values), max_size=5),
)
requests = st.one_of(
    typed_requests,
    typed_requests,
    typed_batches,
    json_values,
    st.fixed_dictionaries({"id": st.integers(), "op": junk_ops, "args": shallow_args}),
    st.fixed_dictionaries({"id": json_leaves, "op": junk_ops}, optional={"args": json_values}),
)


def check_answer(request: Any, response: dict[str, Any]) -> None:
    op = request.get("op") if isinstance(request, dict) else None
    validate_response(op if isinstance(op, str) else "", response)
    if response["ok"] is False:
        assert response["error"]["code"] != "ENGINE_INTERNAL", response
    elif op == "batch":
        inner = [r.get("op") if isinstance(r, dict) else None for r in request["args"]["requests"]]
        validate_response("batch", response, inner_ops=inner)


@settings(max_examples=400)
@given(st.lists(requests, min_size=1, max_size=4))
def test_arbitrary_requests_in_process(sequence):
    handler = factory()
    handler.handle({"id": 0, "op": "session.open", "args": {"register_id": "convivial_v1"}})
    for request in sequence:
        response = json.loads(handler.handle_line(wire_json(request)))
        check_answer(request, response)


@settings(max_examples=150)
@given(requests)
def test_arbitrary_requests_over_the_pipe(server, request_):
    check_answer(request_, server.call(request_))


# Schemas and validation ----------------------------------------------------------------------


def test_every_op_has_its_schemas():
    names = set(load_schemas())
    for op in OPS:
        assert {f"args.{op}", f"result.{op}"} <= names


def test_batch_result_items_are_the_response_schema():
    schemas = load_schemas()
    response = {k: v for k, v in schemas["response"].items() if k not in ("$schema", "title")}
    assert schemas["result.batch"]["properties"]["responses"]["items"] == response


def test_schemas_check_ints_as_written():
    validate_request({"id": 1, "op": "variation.select", "args": SELECT_ARGS})
    for bad in (
        {"id": 1.0, "op": "hello"},
        {"id": 1, "op": "variation.select", "args": {**SELECT_ARGS, "turn_idx": 2.0}},
    ):
        with pytest.raises(ProtocolViolation, match=r"^\$\.(id|args\.turn_idx): "):
            validate_request(bad)


def test_violations_name_the_json_path():
    response = factory().handle({"id": 1, "op": "session.open", "args": {"register_id": None}})
    broken = copy.deepcopy(response)
    broken["result"]["session"] = 5
    with pytest.raises(ProtocolViolation, match=r"^\$\.result\.session: "):
        validate_response("session.open", broken)
    with pytest.raises(ProtocolViolation, match=r"^\$\.error"):
        validate_response(
            "hello", {"id": 1, "ok": False, "error": {"code": "X", "message": "a\nb"}}
        )


def test_requests_against_their_args_schemas():
    with pytest.raises(ProtocolViolation, match=r"^\$\.args: "):
        validate_request({"id": 1, "op": "hello", "args": {"extra": 1}})
    validate_request({"id": "x", "op": "variation.decorate", "args": DECORATE_ARGS})
    validate_request(
        {
            "id": "x",
            "op": "session.open",
            "args": {"register_id": None, "files": {"a.json": "AAAA"}},
        }
    )


# Known-answer vectors ------------------------------------------------------------------------


def read_jsonl(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (VECTORS / name).read_text(encoding="utf-8").splitlines()]


@pytest.mark.skipif(not SHARED_VECTORS.is_dir(), reason="no shared vector directory here")
@pytest.mark.parametrize("name", ["select.jsonl", "decorate.jsonl", "variant_ids.json"])
def test_vector_copies_are_byte_identical(name):
    assert (VECTORS / name).read_bytes() == (SHARED_VECTORS / name).read_bytes()


def batch_results(call, op: str, arg_list: list[dict[str, Any]]) -> list[dict[str, Any]]:
    requests = [{"id": i, "op": op, "args": args} for i, args in enumerate(arg_list)]
    responses = result(call, "batch", {"requests": requests})["responses"]
    assert all(r["ok"] for r in responses), responses
    return [r["result"] for r in responses]


def test_select_vectors(call):
    rows = read_jsonl("select.jsonl")
    keys = ("bucket", "trace_hash", "register_id", "turn_idx", "bucket_name")
    answers = batch_results(call, "variation.select", [{k: row[k] for k in keys} for row in rows])
    assert answers == [{"entry": row["entry"], "index": row["index"]} for row in rows]


def test_decorate_vectors(call):
    rows = read_jsonl("decorate.jsonl")
    keys = ("surface", "discourse_markers", "register_id", "trace_hash", "turn_idx")
    answers = batch_results(call, "variation.decorate", [{k: row[k] for k in keys} for row in rows])
    expected_keys = ("decorated", "opening", "closing", "register_variant_id")
    assert answers == [{k: row[k] for k in expected_keys} for row in rows]


def test_variant_id_vectors(call):
    table = json.loads((VECTORS / "variant_ids.json").read_text(encoding="utf-8"))
    pairs = [key.split("|", 1) for key in table]
    arg_list = [
        {**DECORATE_ARGS, "discourse_markers": {"openings": [o], "closings": [c]}} for o, c in pairs
    ]
    answers = batch_results(call, "variation.decorate", arg_list)
    assert [a["register_variant_id"] for a in answers] == list(table.values())


def test_the_documented_transcript_is_what_the_reference_says():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith(("> ", "< "))]
    sent = [line[2:] for line in lines if line.startswith("> ")]
    answered = [line[2:] for line in lines if line.startswith("< ")]
    assert len(sent) == len(answered) >= 10
    handler = factory()
    assert [handler.handle_line(line) for line in sent] == answered


class _ShortWrites(io.RawIOBase):
    """An unbuffered byte layer (as under ``python -u``) whose writes take at most 7 bytes,
    as a write to a full pipe does when a signal cuts it short."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        taken = bytes(b[:7])
        self.data += taken
        return len(taken)


def test_a_short_write_is_finished_not_dropped() -> None:
    from reference.protocol.stdio import line_writer

    raw = _ShortWrites()
    holder = type("Stdout", (), {"buffer": raw})()
    line = json.dumps({"id": 1, "result": "é" * 100})
    line_writer(holder)(line)
    assert bytes(raw.data) == line.encode("utf-8") + b"\n"
