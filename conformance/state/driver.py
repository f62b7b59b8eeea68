"""Drive an engine's state store: temporary directories, open stores closed on exit."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient, EngineFault, EngineRefused
from conformance.jsontypes import EncodableObject

FIXTURES = "conformance.data.state_fixtures"


MEMORY_FS = Path("/dev/shm")


@contextlib.contextmanager
def scratch(*, in_memory: bool = True) -> Iterator[Path]:
    """A fresh temporary directory (its real path), removed afterwards.

    With *in_memory* (the default), it lives on a memory file system when one is
    writable: an engine's fsyncs there return at once and what the suite checks (the
    bytes, names and system calls an engine leaves) is the same as on a disk.
    """
    parent = MEMORY_FS if in_memory and os.access(MEMORY_FS, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="core-state-", dir=parent) as name:
        yield Path(os.path.realpath(name))


class Stores:
    """Opens stores on an engine and closes whatever is still open at the end."""

    def __init__(self, engine: EngineClient) -> None:
        self.engine = engine
        self.open_handles: list[str] = []

    def open(self, directory: Path) -> dict[str, Any]:
        opened = self.engine.call("state.open", {"dir": str(directory)})
        self.open_handles.append(opened["store"])
        return opened

    def close(self, store: str) -> dict[str, Any]:
        self.open_handles.remove(store)
        return self.engine.call("state.close", {"store": store})

    def __enter__(self) -> Stores:
        return self

    def __exit__(self, *exc: object) -> None:
        for store in list(self.open_handles):
            with contextlib.suppress(EngineRefused, EngineFault):
                self.engine.call("state.close", {"store": store})
        self.open_handles.clear()


def put(record: dict[str, Any]) -> dict[str, Any]:
    return {"op": "put", "record": record}


def load(engine: EngineClient, directory: Path) -> dict[str, Any]:
    return engine.call("state.load", {"dir": str(directory)})


def refusal_code(engine: EngineClient, op: str, directory: Path) -> str | None:
    """The code *op* (``state.load`` or ``state.open``) of *directory* is refused with, or
    None when it succeeds (a store it opened is closed; a failing close is not its fault)."""
    try:
        answer = engine.call(op, {"dir": str(directory)})
    except EngineRefused as refusal:
        return refusal.code
    if op == "state.open":
        with contextlib.suppress(EngineRefused):
            engine.call("state.close", {"store": answer["store"]})
    return None


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


def expected_fixtures() -> dict[str, Any]:
    import json

    expected: dict[str, Any] = json.loads(
        resources.files(FIXTURES).joinpath("expected.json").read_text("utf-8")
    )
    return expected


LOAD_BATCH = 200


def load_many(engine: EngineClient, directories: list[Path]) -> list[dict[str, Any]]:
    """``state.load`` of each directory, in order: ``{"result": ...}`` or ``{"error": code}``.

    Sent as ``batch`` requests when the engine claims ``batch``, else one by one.
    """
    if "batch" not in engine.capabilities():
        return [_load_one(engine, directory) for directory in directories]
    answers = []
    for start in range(0, len(directories), LOAD_BATCH):
        chunk = directories[start : start + LOAD_BATCH]
        requests: list[EncodableObject] = [
            {"id": i, "op": "state.load", "args": {"dir": str(d)}} for i, d in enumerate(chunk)
        ]
        responses = engine.call("batch", {"requests": requests})["responses"]
        answers += [_answer(engine, i, response) for i, response in enumerate(responses)]
    return answers


def _load_one(engine: EngineClient, directory: Path) -> dict[str, Any]:
    try:
        return {"result": load(engine, directory)}
    except EngineRefused as refusal:
        return {"error": refusal.code, "message": refusal.message}


def _answer(engine: EngineClient, request_id: int, response: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"result": engine.unwrap("state.load", request_id, response)}
    except EngineRefused as refusal:
        return {"error": refusal.code, "message": refusal.message}
