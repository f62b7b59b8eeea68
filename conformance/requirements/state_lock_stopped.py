"""A stopped holder still holds the writer lock (docs/state.md § Single writer): a writer
whose process is stopped (SIGSTOP) is alive, so another writer's open of its directory is
refused with ``STATE_LOCKED``, and once the holder continues it still holds its store."""

from __future__ import annotations

import os
import signal

from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch
from conformance.state.separate import EngineProcess

ROW: EncodableObject = {"kind": "recognizer", "key": "stopped", "pattern": "p", "weight": 1}


@requirement(
    "STATE-LOCK-451",
    "a writer whose process is stopped (SIGSTOP) still holds the lock: another writer's open "
    "of its directory is refused with STATE_LOCKED, and once continued (SIGCONT) the holder "
    "still checkpoints and closes its store",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Single writer (a stopped holder (SIGSTOP) still holds it)",
)
def stopped_holder_holds(engine: EngineClient, _: object) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        holder = EngineProcess(command, engine.transcript)
        try:
            store = holder.call("state.open", {"dir": str(directory)})["store"]
            pid = holder.process.pid
            os.kill(pid, signal.SIGSTOP)
            _, status = os.waitpid(pid, os.WUNTRACED)
            assert os.WIFSTOPPED(status), "the holder did not stop"
            try:
                opened = stores.open(directory)
            except EngineRefused as refusal:
                assert refusal.code == "STATE_LOCKED", (
                    f"a second writer beside a stopped holder: {refusal.code}, not STATE_LOCKED"
                )
            else:
                stores.close(opened["store"])
                raise AssertionError("a second writer opened the directory of a stopped holder")
            finally:
                os.kill(pid, signal.SIGCONT)
            mutations: list[EncodableObject] = [{"op": "put", "record": ROW}]
            holder.call("state.apply", {"store": store, "mutations": mutations})
            holder.call("state.checkpoint", {"store": store})
            holder.call("state.close", {"store": store})
        finally:
            holder.kill()
