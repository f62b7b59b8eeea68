"""A read-only load takes no lock (docs/state.md § Single writer)."""

from __future__ import annotations

from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, load, put, scratch

RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}


@requirement(
    "STATE-LOCK-101",
    "a read-only state.load of a directory a writer holds answers its last checkpoint (never "
    "STATE_LOCKED), and leaves the writer holding the lock: a second writer's open is still "
    "STATE_LOCKED",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Single writer (read-only loads take no lock)",
    max_examples=1,
)
def load_takes_no_lock(engine: EngineClient, _: object) -> None:
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(RECORD)]})
        done = engine.call("state.checkpoint", {"store": store})
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            raise AssertionError(
                f"state.load while a writer holds the directory answered {refusal.code}: "
                "read-only loads take no lock"
            ) from None
        assert (got["generation"], got["identity"]) == (done["generation"], done["identity"]), (
            f"state.load beside the writer loaded generation {got['generation']}, "
            f"the writer's last checkpoint is {done['generation']}"
        )
        try:
            second = engine.call("state.open", {"dir": str(directory)})
        except EngineRefused as refusal:
            assert refusal.code == "STATE_LOCKED", (
                f"a second writer after a load answered {refusal.code}, not STATE_LOCKED"
            )
        else:
            engine.call("state.close", {"store": second["store"]})
            raise AssertionError("after a state.load, a second writer opened the held directory")
