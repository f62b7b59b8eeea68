"""Drive an engine through common sequences: sessions, ratification, batched calls."""

from __future__ import annotations

from typing import Any

from conformance.engines.base import EngineClient
from conformance.oracle import FOUR_REGISTERS


def run_script(
    engine: EngineClient,
    register_id: str | None,
    script: list[str],
    files: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Open a fresh session under *register_id*, chat every prompt, close it."""
    args: dict[str, Any] = {"register_id": register_id}
    if files:
        args["files"] = files
    session = engine.call("session.open", args)["session"]
    responses = [engine.call("session.chat", {"session": session, "text": t}) for t in script]
    engine.call("session.close", {"session": session})
    return responses


def run_four(engine: EngineClient, script: list[str]) -> list[list[dict[str, Any]]]:
    """The same script in a fresh session under each of the four registers."""
    return [run_script(engine, register, script) for register in FOUR_REGISTERS]


def ratified_files(engine: EngineClient, pack: dict[str, Any]) -> dict[str, str]:
    """Ratify *pack* through the engine; return its sealed files (base64 by name)."""
    files: dict[str, str] = engine.call("register.ratify", {"pack": pack})["files"]
    return files


def many(engine: EngineClient, op: str, arg_list: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Results of *op* for every args object, batched when the engine claims ``batch``."""
    if "batch" not in engine.capabilities():
        return [engine.call(op, args) for args in arg_list]
    return engine.call_batch(op, arg_list)
