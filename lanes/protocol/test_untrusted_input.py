"""Untrusted input never reaches a traceback or ENGINE_INTERNAL.

Malformed register packs (huge integers, deep nesting, escaped lone surrogates,
NaN, truncation, byte flips) go through ``python -m reference ratify``, ``chat
--register`` and the protocol server's ``register.*`` ops; malformed protocol lines
go through the server; malformed files through ``python -m conformance``. Each gets
one typed refusal. Also: chat is UTF-8 whatever the locale, and a closed pipe ends
quietly with status 0.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import cli as conformance_cli
from reference import cli as reference_cli
from reference.protocol.handler import ProtocolHandler
from reference.registers.loader import SHIPPED_DATA_DIR, load_register_pack

SHIPPED = "terse_v1"
PACK_TEXT = (SHIPPED_DATA_DIR / f"{SHIPPED}.json").read_text(encoding="utf-8")
REPORT_NAME = f"{SHIPPED}.mastery_report.json"
HOLE = '"@@HOLE@@"'
POISON = {
    "huge integer": "9" * 5000,
    "deep nesting": "[" * 1200 + "]" * 1200,
    "lone surrogate": '"\\ud800"',
    "lone low surrogate": '"a\\udc00b"',
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "huge float": "1e999",
}
FUZZ = settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def _poisoned(field: str, poison: str) -> bytes:
    document = json.loads(PACK_TEXT)
    document[field] = "@@HOLE@@"
    return json.dumps(document, indent=2).replace(HOLE, poison).encode("utf-8")


pack_fields = st.sampled_from(sorted(json.loads(PACK_TEXT)))
poisoned_packs = st.builds(_poisoned, pack_fields, st.sampled_from(sorted(POISON.values())))
damaged_packs = st.one_of(
    st.integers(0, len(PACK_TEXT)).map(lambda cut: PACK_TEXT.encode()[:cut]),
    st.tuples(st.integers(0, len(PACK_TEXT) - 1), st.integers(0, 255)).map(
        lambda flip: (
            PACK_TEXT.encode()[: flip[0]] + bytes([flip[1]]) + PACK_TEXT.encode()[flip[0] + 1 :]
        )
    ),
    st.binary(max_size=200),
)
bad_packs = st.one_of(poisoned_packs, damaged_packs)


def run_main(main, argv: list[str]) -> tuple[int, str, str]:
    """Run a CLI ``main`` in-process; an escaping exception fails the test as a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def assert_one_error_line(status: int, err: str, prefix: str = "error: ") -> None:
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix), err
    assert "Traceback" not in err and "ENGINE_INTERNAL" not in err


@given(data=bad_packs)
@settings(FUZZ)
def test_ratify_refuses_malformed_packs_in_one_line(tmp_path_factory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("ratify") / "user_v1.json"
    path.write_bytes(data)
    status, _, err = run_main(reference_cli.main, ["ratify", str(path)])
    assert_one_error_line(status, err, "error: REGISTER_")


@given(data=bad_packs)
@settings(FUZZ)
def test_chat_register_refuses_malformed_packs_in_one_line(tmp_path_factory, data: bytes) -> None:
    directory = tmp_path_factory.mktemp("packs")
    (directory / "user_v1.json").write_bytes(data)
    argv = ["chat", "--register", "user_v1", "--register-path", str(directory), "--once", "hi"]
    status, _, err = run_main(reference_cli.main, argv)
    assert_one_error_line(status, err, "error: REGISTER_")


def _answer(line: bytes) -> dict:
    response = json.loads(ProtocolHandler().handle_line(line))
    assert response.get("error", {}).get("code") != "ENGINE_INTERNAL", response
    return response


@given(data=bad_packs)
@settings(FUZZ)
def test_the_server_loads_malformed_pack_files_with_a_typed_error(data: bytes) -> None:
    files = {"user_v1.json": base64.b64encode(data).decode("ascii")}
    request = {"id": 1, "op": "register.load", "args": {"register_id": "user_v1", "files": files}}
    response = _answer(json.dumps(request).encode("utf-8"))
    assert response["ok"] is False and response["error"]["code"].startswith("REGISTER_")


@given(field=pack_fields, poison=st.sampled_from(sorted(POISON.values())))
@settings(FUZZ)
def test_the_server_refuses_poisoned_packs_on_the_wire(field: str, poison: str) -> None:
    for op in ("register.validate", "register.ratify"):
        pack = _poisoned(field, poison).decode("utf-8")
        line = '{"id":1,"op":"%s","args":{"pack":%s}}' % (op, pack)  # noqa: UP031
        response = _answer(line.encode("utf-8"))
        assert response["ok"] is False and response["error"]["code"] == "PROTOCOL_BAD_JSON"


protocol_lines = st.one_of(
    st.binary(max_size=120),
    st.sampled_from(sorted(POISON.values())).map(
        lambda poison: ('{"id":1,"op":"hello","args":{"x":%s}}' % poison).encode()  # noqa: UP031
    ),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=12,
    ).map(lambda value: json.dumps(value).encode()),
    st.builds(
        lambda op, args: json.dumps({"id": 7, "op": op, "args": args}).encode(),
        st.sampled_from(["register.validate", "register.ratify", "register.load", "batch"]),
        st.dictionaries(
            st.sampled_from(["pack", "register_id", "files", "requests", "expected_id"]),
            st.none() | st.integers() | st.text(max_size=5) | st.lists(st.integers(), max_size=2),
            max_size=3,
        ),
    ),
)


@given(line=protocol_lines)
@settings(FUZZ)
def test_malformed_protocol_lines_get_typed_errors(line: bytes) -> None:
    _answer(line)


@given(data=bad_packs, command=st.sampled_from(["replay", "diff", "xfail"]))
@settings(FUZZ)
def test_conformance_cli_refuses_malformed_files_in_one_line(
    tmp_path_factory, data: bytes, command: str
) -> None:
    path = tmp_path_factory.mktemp("files") / "input.json"
    path.write_bytes(data)
    argv = {
        "replay": ["replay", str(path)],
        "diff": ["diff", str(path), str(path)],
        "xfail": ["certify", "--xfail", str(path), "--report", str(path.parent / "out")],
    }[command]
    status, _, err = run_main(conformance_cli.main, argv)
    assert_one_error_line(status, err)


def _ratified_copy(tmp_path: Path) -> Path:
    for name in (f"{SHIPPED}.json", REPORT_NAME):
        shutil.copy(SHIPPED_DATA_DIR / name, tmp_path / name)
    return tmp_path / f"{SHIPPED}.json"


@pytest.mark.parametrize("poison", sorted(POISON), ids=sorted(POISON))
def test_a_ratified_pack_edited_unreadable_is_tampered(tmp_path, poison: str) -> None:
    path = _ratified_copy(tmp_path)
    path.write_bytes(path.read_bytes().replace(b'"terse_v1"', POISON[poison].encode(), 1))
    with pytest.raises(Exception) as caught:
        load_register_pack(SHIPPED, search_path=(tmp_path,))
    assert caught.value.code == "REGISTER_TAMPERED", caught.value


def reference(*args: str, stdin: bytes = b"", env: dict | None = None):
    command = [sys.executable, "-m", "reference", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=600, env=env)


def test_chat_refuses_undecodable_input_in_one_line() -> None:
    done = reference("chat", stdin=b"caf\xe9 is?\n")
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        "error: USAGE: input line 1 is not valid UTF-8 (byte 3)"
    ]


def test_chat_is_utf8_whatever_the_locale() -> None:
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"}
    done = reference("chat", stdin="What is café?\n".encode(), env=env)
    assert done.returncode == 0, done.stderr
    assert "café" in done.stdout.decode("utf-8")


@pytest.mark.parametrize(
    "command",
    ["-m reference lexicon --json", "-m reference lexicon", "-m conformance list"],
)
def test_a_closed_pipe_ends_quietly(command: str) -> None:
    script = f"{sys.executable} {command} | head -c 10 >/dev/null; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", script], capture_output=True, timeout=600)
    assert done.returncode == 0 and done.stderr == b"", done.stderr


def test_the_stdio_server_answers_every_bad_line_without_a_traceback() -> None:
    lines = [b"\xff\xfe garbage", b"caf\xe9", b"[" * 5000, b"{}", b'{"id":1}']
    lines += [('{"id":2,"op":"hello","args":{"x":%s}}' % p).encode() for p in POISON.values()]  # noqa: UP031
    for field in ("description", "discourse_markers"):
        for poison in POISON.values():
            files = {"user_v1.json": base64.b64encode(_poisoned(field, poison)).decode()}
            args = {"register_id": "user_v1", "files": files}
            lines.append(json.dumps({"id": 3, "op": "register.load", "args": args}).encode())
    command = [sys.executable, "-m", "reference", "serve"]
    done = subprocess.run(
        command, input=b"\n".join(lines) + b"\n", capture_output=True, timeout=600, check=False
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert all(a["ok"] is False for a in answers)
    codes = {a["error"]["code"] for a in answers}
    assert "ENGINE_INTERNAL" not in codes and codes <= {
        "PROTOCOL_BAD_JSON",
        "PROTOCOL_BAD_REQUEST",
        "REGISTER_MALFORMED",
    }, codes
