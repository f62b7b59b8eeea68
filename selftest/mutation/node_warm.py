"""A warm ``conformance`` for StrykerJS's runs: the suite imported once, a fork per mutant.

Stryker's command runner starts ``python -m selftest.mutation.node`` afresh for every
mutant, and importing the suite costs seconds of a mutant's few. ``certify(argv, env)``
sends the certify command line and the environment (the active mutant's id included) to a
server on a Unix socket, which forks a child of its warm process to run
``conformance certify`` with that environment, and answers the exit status. The first
call starts the server (a new session, so Stryker's runner does not wait for it); it ends
by itself after ``IDLE`` seconds without a request, and a server of other code is never
reached (the socket's name holds the hash of the suite's and harness's sources). A child
whose client goes away (Stryker ended it at its timeout) ends its process group.
``certify`` returns None when no server answers; the caller then runs certify itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IDLE = 120.0
START = 60.0
READY = b"ready\n"


def _code_hash() -> str:
    digest = hashlib.sha256(str(ROOT).encode())
    for path in sorted([*(ROOT / "conformance").rglob("*.py"), Path(__file__)]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def address() -> Path:
    """The server's socket: one per user, checkout and version of the suite."""
    return Path(tempfile.gettempdir()) / f"core-node-warm-{os.getuid()}-{_code_hash()}.sock"


def _ask(path: Path, request: bytes) -> int | None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(str(path))
        conn.sendall(request + b"\n")
        answer = conn.makefile("rb").readline()
    return int(json.loads(answer)["status"]) if answer else None


def certify(argv: list[str], env: dict[str, str]) -> int | None:
    """``conformance`` *argv*'s exit status, run by the warm server under *env*."""
    path = address()
    request = json.dumps({"argv": argv, "env": env}).encode()
    try:
        return _ask(path, request)
    except OSError:
        pass
    server = subprocess.Popen(
        [sys.executable, "-m", "selftest.mutation.node_warm", str(path)],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdout is not None
    with server.stdout:
        ready, _, _ = select.select([server.stdout], [], [], START)
        if not ready or server.stdout.readline() != READY:
            return None
    try:
        return _ask(path, request)
    except OSError:
        return None


def _watch(conn: socket.socket) -> None:
    """End this child's process group when the client goes away (Stryker's timeout)."""
    with contextlib.suppress(OSError):
        conn.recv(1)
    os.killpg(0, signal.SIGKILL)


def _child(conn: socket.socket) -> None:
    from conformance.entry import main
    from selftest.mutation.node_reach import expand

    os.setpgid(0, 0)
    conn.settimeout(None)
    request = json.loads(conn.makefile("rb").readline())
    threading.Thread(target=_watch, args=(conn,), daemon=True).start()
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(ROOT)
    sink = os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    try:
        status = main(expand(request["argv"]))
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    except Exception:  # noqa: BLE001 - any crash of the run is a status, never a hang
        status = 2
    conn.sendall(json.dumps({"status": status}).encode() + b"\n")


def _announce_ready() -> None:
    """Tell the starting client that the socket listens, then let go of the pipe."""
    os.write(1, READY)
    sink = os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    os.close(sink)


def serve(path: Path) -> None:
    """Accept requests on *path* until ``IDLE`` seconds pass without one."""
    import conformance.cli  # noqa: F401 - the warm import is the point
    import conformance.requirements  # noqa: F401

    if path.exists():
        path.unlink()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        server.listen()
        server.settimeout(IDLE)
        _announce_ready()
        try:
            while True:
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    return
                if os.fork() == 0:
                    server.close()
                    try:
                        _child(conn)
                    finally:
                        os._exit(0)
                conn.close()
                while True:
                    try:
                        if os.waitpid(-1, os.WNOHANG) == (0, 0):
                            break
                    except ChildProcessError:
                        break
        finally:
            path.unlink(missing_ok=True)


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
