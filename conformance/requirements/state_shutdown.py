"""How an engine's process ends with a store open: at end of input, and on SIGTERM or SIGINT
while it waits for a request (docs/state.md § Shutdown).

Either way every store still open is released without a commit: the directory keeps the
last checkpoint (no generation is added, ``CURRENT`` is as it was), ``LOCK`` is emptied,
and the next writer opens the directory. A signal ends the process with status 128 + the
signal. Each case runs a separate engine process, leaves a store dirty (a put after the
last checkpoint, or a put on a fresh directory never checkpointed), then ends it. Two of
those dirty stores are ones a port may take for owing a commit: one a session still lives
on (its turn checkpointed, a put after it), which a port that ends its sessions as the chat
runtime's clean shutdown does (``state.close``) would commit on the way out; and one whose
last ``state.checkpoint`` was refused, whose state "the next checkpoint, or the close,
commits ... whole" (docs/state.md § I/O errors), which a port that settles that owed
commit at exit would commit: neither a checkpoint nor a close is asked for, so nothing is
committed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch
from conformance.state.separate import END_OF_INPUT, SIGNALS, EngineProcess

STATE = ("state",)
ROW: EncodableObject = {"kind": "recognizer", "key": "shutdown", "pattern": "p", "weight": 1}
LATER: EncodableObject = {
    "kind": "recognizer",
    "key": "shutdown-later",
    "pattern": "q",
    "weight": 2,
}

STORES = (
    "checkpointed, then dirty",
    "fresh, never checkpointed",
    "fresh, opened after a store whose close failed",
    "a session living on it, its turn checkpointed, then dirty",
    "checkpointed, then dirty, its next checkpoint refused",
)
"""What the store holds when the process ends: a checkpoint and a put after it, or one
put on a fresh directory with no checkpoint at all; in the third case the process also
holds the handle of a store opened first whose ``state.close`` was refused (its directory
removed before the commit), which docs/state.md § Errors closes all the same. In the
fourth a session opened on the store (an engine claiming ``state.life``; else none) has
answered a turn, checkpointed, and a put after it leaves the store dirty with that session
still open; in the fifth a ``state.checkpoint`` after the put was refused (a symbolic link
where commit step 1 removes debris: ``STATE_SYMLINK``, docs/state.md § Commit protocol),
the link then removed, so the store is dirty with a refused checkpoint behind it."""

ENDINGS = (END_OF_INPUT, *SIGNALS)
CASES = [(ending, held) for ending in ENDINGS for held in STORES]


def _entries(directory: Path) -> dict[str, bytes | None]:
    """The directory's entries: a file's bytes, a generation's name (None)."""
    return {
        path.name: None if path.is_dir() else path.read_bytes()
        for path in sorted(directory.iterdir())
        if path.name != "LOCK" and not path.name.endswith(".journal")
    }


def _failed_close(engine: EngineProcess, directory: Path) -> None:
    """Open a store in *directory*, make it dirty, remove the directory and have its
    ``state.close`` refused."""
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    engine.call("state.apply", {"store": store, "mutations": [{"op": "put", "record": ROW}]})
    shutil.rmtree(directory)
    engine.refused("state.close", {"store": store})


def _session_then_dirty(engine: EngineProcess, store: str, life: bool) -> None:
    """With *life*, open a session on *store* and have it answer a turn (checkpointed); then
    a put leaves the store dirty, the session still open."""
    if life:
        opened = engine.call("session.open", {"register_id": None, "store": store})
        engine.call("session.chat", {"session": opened["session"], "text": "What is light?"})
    else:
        engine.call("state.apply", {"store": store, "mutations": [{"op": "put", "record": LATER}]})
        engine.call("state.checkpoint", {"store": store})
    put: list[EncodableObject] = [{"op": "put", "record": ROW}]
    assert engine.call("state.apply", {"store": store, "mutations": put})["dirty"] is True


def _checkpoint_refused(engine: EngineProcess, directory: Path, store: str) -> None:
    """Checkpoint *store*, make it dirty, and have its next ``state.checkpoint`` refused by a
    symbolic link where commit step 1 removes debris; then remove the link."""
    engine.call("state.apply", {"store": store, "mutations": [{"op": "put", "record": ROW}]})
    engine.call("state.checkpoint", {"store": store})
    later: list[EncodableObject] = [{"op": "put", "record": LATER}, {"op": "turn"}]
    assert engine.call("state.apply", {"store": store, "mutations": later})["dirty"] is True
    link = directory / "staging-refused"
    link.symlink_to(directory.parent / "nowhere")
    engine.refused("state.checkpoint", {"store": store})
    link.unlink()


def _dirty_store(engine: EngineProcess, directory: Path, held: str, life: bool) -> None:
    """Open *directory* and leave its store dirty as *held* says (*life*: the engine claims
    ``state.life``)."""
    if held == STORES[2]:
        _failed_close(engine, directory.parent / "removed")
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    if held == STORES[3]:
        _session_then_dirty(engine, store, life)
    elif held == STORES[4]:
        _checkpoint_refused(engine, directory, store)
    elif held == STORES[0]:
        engine.call("state.apply", {"store": store, "mutations": [{"op": "put", "record": ROW}]})
        engine.call("state.checkpoint", {"store": store})
        later: list[EncodableObject] = [{"op": "put", "record": LATER}, {"op": "turn"}]
        assert engine.call("state.apply", {"store": store, "mutations": later})["dirty"] is True
    else:
        assert engine.call(
            "state.apply", {"store": store, "mutations": [{"op": "put", "record": ROW}]}
        )["dirty"]


@requirement(
    "STATE-SHUTDOWN-601",
    "at end of input and on SIGTERM or SIGINT while it waits for a request, an engine "
    "releases every store still open without a commit: no generation is added, CURRENT "
    "is as the last checkpoint left it, LOCK is emptied and the next writer opens the "
    "directory, also beside the handle of a store whose state.close was refused, with a "
    "session still living on the store, and after the store's state.checkpoint was refused; "
    "end of input ends the process with status 0, a signal with 128 + the signal (143, 130)",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Shutdown (released without a commit: at end of input an engine "
    "releases every store still open and never commits on the way out; LOCK emptied; "
    "130 / 143); § I/O errors (a refused checkpoint: the next checkpoint, or the close, "
    "commits it)",
    strategy=lambda ctx: st.sampled_from(CASES),
    max_examples=len(CASES),
    cover=coverage.each("endings and stores", CASES),
)
def shutdown_commits_nothing(engine: EngineClient, case: tuple[str, str]) -> None:
    ending, held = case
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        ended = EngineProcess(command, engine.transcript)
        life = "state.life" in engine.capabilities()
        try:
            _dirty_store(ended, directory, held, life)
            before = _entries(directory)
            status = ended.end(ending)
        finally:
            ended.kill()
        after = _entries(directory)
        assert after == before, (
            f"{ending} with a dirty store changed the directory: "
            f"{sorted(before)} -> {sorted(after)}"
        )
        lock = directory / "LOCK"
        holds = lock.read_bytes() if lock.exists() and not lock.is_symlink() else b""
        assert holds == b"", f"LOCK still holds {holds!r} after {ending}"
        expected = 128 + SIGNALS[ending] if ending in SIGNALS else 0
        assert status == expected, f"{ending} ended the engine with status {status}, not {expected}"
        stores.close(stores.open(directory)["store"])
