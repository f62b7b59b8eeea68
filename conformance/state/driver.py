"""Drive an engine's state store: temporary directories, open stores closed on exit."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from conformance.engines.base import EngineClient, EngineFault, EngineRefused

FIXTURES = "conformance.data.state_fixtures"


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A fresh temporary directory, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="core-state-") as name:
        yield Path(name)


class Stores:
    """Opens stores on an engine and closes whatever is still open at the end."""

    def __init__(self, engine: EngineClient) -> None:
        self.engine = engine
        self.open_handles: list[str] = []

    def open(self, directory: Path) -> dict:
        opened = self.engine.call("state.open", {"dir": str(directory)})
        self.open_handles.append(opened["store"])
        return opened

    def close(self, store: str) -> dict:
        self.open_handles.remove(store)
        return self.engine.call("state.close", {"store": store})

    def __enter__(self) -> Stores:
        return self

    def __exit__(self, *exc) -> None:
        for store in list(self.open_handles):
            with contextlib.suppress(EngineRefused, EngineFault):
                self.engine.call("state.close", {"store": store})
        self.open_handles.clear()


def put(record: dict) -> dict:
    return {"op": "put", "record": record}


def load(engine: EngineClient, directory: Path) -> dict:
    return engine.call("state.load", {"dir": str(directory)})


def copy_fixture(name: str, target: Path) -> Path:
    """Copy the shipped fixture directory *name* into *target*/name."""
    source = resources.files(FIXTURES).joinpath(name)
    destination = target / name
    with resources.as_file(source) as path:
        shutil.copytree(path, destination)
    return destination


def fixture_names() -> list[str]:
    root = resources.files(FIXTURES)
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("_"))


def expected_fixtures() -> dict:
    import json

    return json.loads(resources.files(FIXTURES).joinpath("expected.json").read_text("utf-8"))
