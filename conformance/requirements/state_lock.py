"""The writer lock is the name docs/state.md gives: engines of any language exclude each other."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch

STATE = ("state",)
SUN_PATH = 108
PATHS = {"the directory": False, "a link to it": True}
"""How the engine is given the state directory: its own path, or a symbolic link to it."""


def lock_name(directory: Path) -> bytes:
    """The abstract address of *directory*'s writer lock: NUL, the name, NULs to 108 bytes."""
    found = os.stat(directory)
    name = f"core-state-lock/{found.st_dev}/{found.st_ino}".encode("ascii")
    return b"\0" + name.ljust(SUN_PATH - 1, b"\0")


def _bound(address: bytes) -> socket.socket | None:
    """A socket bound to *address*, or None when someone else holds it."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    try:
        probe.bind(address)
    except OSError as exc:
        probe.close()
        if exc.errno != errno.EADDRINUSE:
            raise
        return None
    return probe


@requirement(
    "STATE-LOCK-004",
    "the writer lock is the abstract socket name docs/state.md gives for the directory "
    "(its device and inode, padded to 108 bytes), reached through a link too: while a "
    "writer holds the directory nobody else can bind that name, and while another process "
    "holds the name a writer's open is refused with STATE_LOCKED",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Single writer (one name, so engines of any language exclude each other)",
    strategy=lambda ctx: st.sampled_from(list(PATHS)),
    max_examples=len(PATHS),
    cover=coverage.each("paths", list(PATHS)),
)
def lock_is_the_documented_name(engine: EngineClient, given: str) -> None:
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        directory.mkdir()
        path = directory
        if PATHS[given]:
            path = root / "link"
            path.symlink_to(directory)
        address = lock_name(directory)
        store = stores.open(path)["store"]
        probe = _bound(address)
        if probe is not None:
            probe.close()
            raise AssertionError(
                f"a writer holds the directory (given as {given}), yet its lock name "
                f"{address.rstrip(chr(0).encode())!r} padded to 108 bytes was free"
            )
        stores.close(store)
        probe = _bound(address)
        assert probe is not None, "the lock name is still held after the writer closed"
        try:
            try:
                opened = engine.call("state.open", {"dir": str(path)})
            except EngineRefused as refusal:
                assert refusal.code == "STATE_LOCKED", f"refused with {refusal.code}"
            else:
                engine.call("state.close", {"store": opened["store"]})
                raise AssertionError("a writer opened a directory whose lock name another holds")
        finally:
            probe.close()
        stores.close(stores.open(path)["store"])
