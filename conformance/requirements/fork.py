"""``engine.fork``: a forked engine serves the socket as a fresh engine serves its stdio.

The suite forks its soak engines from a zygote when an engine claims ``fork``, so a
fork that shares the zygote's process group, answers on the zygote's stdout, or is not
the engine a fresh start would be, must fail here rather than mislead the kill soak.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
from collections.abc import Iterator
from typing import Any

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.protocol_raw import (
    END_OF_INPUT,
    EXPECTED_AT_EOF,
    FRAMES,
    _bad_json,
    _hello,
    _hello_answered,
)
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch
from conformance.state.killer import KILL_TIMEOUT, ZYGOTES, SpawnFailed, Zygote

FORK = "docs/protocol.md § Forking: engine.fork"
LISTENING = "a listening socket"
ABSTRACT = "a leading NUL (an abstract socket listens there)"
INNER_NUL = "a NUL inside (a socket listens at the path before it)"
TRAILING_NUL = "a trailing NUL (a socket listens at the path before it)"
NUL_ALONE = "a NUL alone"
REFUSED_SOCKETS = (
    "missing",
    "not a string",
    "empty",
    ABSTRACT,
    INNER_NUL,
    TRAILING_NUL,
    NUL_ALONE,
    "nobody listens",
    "a file",
)


@contextlib.contextmanager
def _refused_args(name: str) -> Iterator[EncodableObject]:
    """The arguments of one refused case. A NUL is refused wherever it stands (docs: "holds a
    NUL"), so for each position a socket listens where an engine that lets that NUL through
    would connect: the abstract name of a leading NUL, and the path before an inner or a
    trailing one (the kernel ends a path at its first NUL). An engine that checks only one
    position (``startswith``, ``[0]``, ``endswith``) connects and forks instead of refusing."""
    with scratch() as root, socket.socket(socket.AF_UNIX) as listener:
        file = root / "plain.txt"
        file.write_text("not a socket", encoding="utf-8")
        address = f"\x00core-fork-{os.getpid()}-{id(listener)}"
        prefix = str(root / "fork.sock")
        if name == ABSTRACT:
            listener.bind(address)
            listener.listen()
        elif name in (INNER_NUL, TRAILING_NUL):
            listener.bind(prefix)
            listener.listen()
        table: dict[str, EncodableObject] = {
            "missing": {},
            "not a string": {"socket": 7},
            "empty": {"socket": ""},
            ABSTRACT: {"socket": address},
            INNER_NUL: {"socket": prefix + "\x00fork.sock"},
            TRAILING_NUL: {"socket": prefix + "\x00"},
            NUL_ALONE: {"socket": "\x00"},
            "nobody listens": {"socket": str(root / "absent" / "fork.sock")},
            "a file": {"socket": str(file)},
        }
        yield table[name]


def _pipes_held(pid: int) -> set[int]:
    """The inodes of the pipes process *pid* holds open (Linux ``/proc``)."""
    held = set()
    for name in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{name}")
            if target.startswith("pipe:["):
                held.add(int(target[6:-1]))
    return held


class Recorded:
    """A zygote whose exchanges go to the transcript of the engine it was started from."""

    def __init__(self, engine: EngineClient, zygote: Zygote) -> None:
        self.engine, self.zygote = engine, zygote

    def call(self, op: str, args: EncodableObject) -> dict[str, Any]:
        request: EncodableObject = {"zygote": True, "op": op, "args": args}
        try:
            response = self.zygote.call(op, args)
        except SpawnFailed as failure:
            self.engine.transcript.record(request, str(failure))
            raise AssertionError(str(failure)) from None
        self.engine.transcript.record(request, response)
        return response


def _hello_of(zygote: Recorded) -> Any:
    response = zygote.call("hello", {})
    assert response.get("ok") is True, f"the zygote refused hello: {response!r}"
    return response.get("result")


def _ask(stream: Any, conn: socket.socket, line: bytes) -> Any:
    conn.sendall(line + b"\n")
    try:
        answer = stream.readline()
    except TimeoutError:
        raise AssertionError(f"the forked engine did not answer {line!r} on the socket") from None
    assert answer.endswith(b"\n"), f"the forked engine answered {answer!r}, not a line"
    return json.loads(answer)


def _framed_as_stdio(stream: Any, conn: socket.socket) -> None:
    """The framing cases PROTO-FRAME-001 sends on stdin (each line followed by a hello) and
    the input PROTO-EOF-001 ends with (a last request without a newline), sent on the socket
    and the connection ended: each line gets the answer a fresh engine gives it on stdio, in
    order, the last request too, and nothing follows."""
    data, expected = b"", list[tuple[str, str | None]]()
    for index, name in enumerate(sorted(FRAMES)):
        build, accepted = FRAMES[name]
        data += build(f"l{index}") + b"\n" + _hello(f"h{index}") + b"\n"
        expected += [(name, f"l{index}" if accepted else None), (f"after {name}", f"h{index}")]
    for name, ids in sorted(EXPECTED_AT_EOF.items()):
        data += END_OF_INPUT[name]
        expected += [(f"{name}: line {i}", request_id) for i, request_id in enumerate(ids)]
    conn.sendall(data)
    conn.shutdown(socket.SHUT_WR)
    for what, request_id in expected:
        try:
            line = stream.readline()
        except TimeoutError:
            raise AssertionError(f"the forked engine did not answer {what} on the socket") from None
        assert line.endswith(b"\n"), f"the forked engine answered {what} with {line!r}"
        response = json.loads(line)
        what = f"the forked engine, {what} (a fresh engine on stdio answers it)"
        if request_id is None:
            _bad_json(response, what)
        else:
            _hello_answered(response, request_id, what)
    assert stream.readline() == b"", "the forked engine wrote more after its input ended"


def _refused(zygote: Recorded, name: str) -> None:
    with _refused_args(name) as args:
        response = zygote.call("engine.fork", args)
    error = response.get("error") if response.get("ok") is False else None
    assert isinstance(error, dict), f"socket {name}: engine.fork answered {response!r}"
    assert (error.get("code"), error.get("field")) == ("PROTOCOL_BAD_ARGS", "socket"), (
        f"socket {name}: refused with {error!r}, not PROTOCOL_BAD_ARGS with field socket"
    )


def _forked(zygote: Recorded, before: Any) -> None:
    response = zygote.call("engine.fork", {"socket": zygote.zygote.socket_path})
    result = response.get("result")
    assert response.get("ok") is True and isinstance(result, dict), (
        f"engine.fork was refused: {response!r}"
    )
    pid = result.get("pid")
    assert set(result) == {"pid"} and isinstance(pid, int) and not isinstance(pid, bool), (
        f"engine.fork answered {result!r}, not {{pid}}"
    )
    try:
        child = zygote.zygote.accept(pid)
    except SpawnFailed as failure:
        raise AssertionError(str(failure)) from None
    try:
        assert os.getsid(pid) == pid, f"the forked engine {pid} does not lead a new session"
        held = _pipes_held(pid) & zygote.zygote.stdio_pipes()
        assert not held, f"the forked engine {pid} holds the zygote's stdin or stdout open"
        conn, stream = child.conn, child.stdout
        conn.settimeout(KILL_TIMEOUT)
        hello = _ask(stream, conn, b'{"id":"f1","op":"hello"}')
        assert hello.get("id") == "f1" and hello.get("result") == before, (
            f"the forked engine's hello {hello!r} is not the zygote's {before!r}"
        )
        garbage = _ask(stream, conn, b"not json")
        assert (garbage.get("error") or {}).get("code") == "PROTOCOL_BAD_JSON", (
            f"the forked engine answered a line that is not JSON with {garbage!r}"
        )
        assert _hello_of(zygote) == before, "the zygote answers hello otherwise after a fork"
        _framed_as_stdio(stream, conn)
        ended = select.select([child.pidfd], [], [], KILL_TIMEOUT)[0]
        assert ended, f"the forked engine did not exit {KILL_TIMEOUT:g} s after its input ended"
    finally:
        child.kill()


@requirement(
    "PROTO-FORK-001",
    "engine.fork answers {pid} of a child that leads a new session, holds neither of the "
    "parent's stdio pipes and serves core-engine/1 on the socket as a fresh engine does (the "
    "same hello, framing and refusals) until the connection ends, while the parent keeps "
    "serving its stdin with nothing of the child's on its stdout; the child answers each "
    "framing case of PROTO-FRAME-001 (a blank line, a byte order mark, bytes that are not "
    "UTF-8, CRLF, a 1 MiB line, ...) and a last line without a newline at the connection's "
    "end as a fresh engine answers it on stdio; a socket that is missing, "
    "not a string, empty, holding a NUL (first, inside, last or alone) or not listening is "
    "PROTOCOL_BAD_ARGS, field socket",
    family="protocol",
    capabilities=("fork",),
    seed=FORK,
    cover=coverage.each("socket arguments", (LISTENING, *REFUSED_SOCKETS)),
)
def fork_serves_like_a_fresh_engine(engine: EngineClient, case: str) -> None:
    command = engine.spawn_command()
    assert command is not None, "the engine cannot be started as a program"
    zygote = Recorded(engine, ZYGOTES.get(command))
    before = _hello_of(zygote)
    if case == LISTENING:
        _forked(zygote, before)
    else:
        _refused(zygote, case)
    assert _hello_of(zygote) == before, f"after engine.fork ({case}) the zygote stopped serving"
