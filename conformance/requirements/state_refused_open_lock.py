"""A refused writer's open holds no lock once it has answered (docs/state.md § Confinement:
a refused open leaves every entry but ``LOCK`` as it found it, and ``LOCK`` holds the pid
only while the lock is held).

Each directory refuses the open after the lock is taken (no valid generation, a schema
too new, a malformed record). Once the refusal is answered, ``LOCK`` holds no pid, the
suite can bind the directory's lock name itself (no writer holds it), and once the cause
is repaired the same engine opens the directory. A port that returns the refusal without
closing the socket it bound keeps the directory locked until its process ends.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.state_lock import lock_name
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

ROW = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
OUT_OF_ORDER = oracle.encode_core([{**ROW, "key": "z"}]) + oracle.encode_core([ROW])


def _corrupt(directory: Path, version: int) -> None:
    oracle.write_generation(directory, 1, oracle.encode_core([ROW]), version)
    (directory / "gen-00000001" / "core.jsonl").write_bytes(b"torn")


def _too_new(directory: Path, version: int) -> None:
    oracle.write_generation(directory, 1, oracle.encode_core([ROW]), version + 1)


def _malformed(directory: Path, version: int) -> None:
    oracle.write_generation(directory, 1, OUT_OF_ORDER, version)


CASES: dict[str, tuple[Callable[[Path, int], None], str]] = {
    "no valid generation": (_corrupt, "STATE_CORRUPT"),
    "a schema version too new": (_too_new, "STATE_SCHEMA_TOO_NEW"),
    "a malformed record": (_malformed, "STATE_RECORD_MALFORMED"),
}


@requirement(
    "STATE-LOCK-601",
    "a writer's open refused after it took the lock (STATE_CORRUPT, STATE_SCHEMA_TOO_NEW, "
    "STATE_RECORD_MALFORMED) holds no lock once answered: LOCK holds no pid, the directory's "
    "lock name is free, and once the cause is repaired the same engine opens the directory",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Confinement (a refused open leaves every entry but LOCK as it "
    "found it; LOCK holds the pid only while the lock is held) and § Single writer",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    max_examples=len(CASES),
    cover=coverage.each("refused opens", sorted(CASES)),
)
def refused_open_releases(engine: EngineClient, name: str) -> None:
    import socket

    plant, code = CASES[name]
    version = oracle.schema_of(engine.capabilities())
    with scratch() as directory, Stores(engine) as stores:
        plant(directory, version)
        try:
            stores.open(directory)
        except EngineRefused as refusal:
            assert refusal.code == code, f"{name}: the open was refused with {refusal.code}"
        else:
            raise AssertionError(f"{name}: the open was answered, not refused with {code}")
        lock = directory / "LOCK"
        held = lock.read_bytes() if lock.is_file() and not lock.is_symlink() else b""
        assert not re.search(rb"[0-9]", held), f"{name}: after the refusal LOCK holds {held!r}"
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        try:
            probe.bind(lock_name(directory))
        except OSError as exc:
            raise AssertionError(
                f"{name}: after the refusal the directory's lock name is still bound ({exc})"
            ) from None
        finally:
            probe.close()
        shutil.rmtree(directory / "gen-00000001")
        oracle.write_generation(directory, 1, oracle.encode_core([ROW]), version)
        stores.close(stores.open(directory)["store"])
