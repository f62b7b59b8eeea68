"""Engine adapters: a program over stdio, or a Python factory in-process."""

from __future__ import annotations

from conformance.engines.base import EngineClient, EngineFault, EngineRefused, Transcript
from conformance.engines.inprocess import InProcessEngine
from conformance.engines.subprocess import SubprocessEngine

REFERENCE_FACTORY = "reference.serve:factory"
REFERENCE_COMMAND = "python -m reference serve"


def open_engine(
    command: str | None = None,
    python: str | None = None,
    *,
    timeout: float = 10.0,
    strict: bool = False,
) -> EngineClient:
    """Open the engine named by a command or a ``module:factory``; default: the reference."""
    if command and python:
        raise ValueError("give --engine or --engine-python, not both")
    if command:
        return SubprocessEngine(command, timeout=timeout, strict=strict)
    return InProcessEngine(python or REFERENCE_FACTORY, strict=strict)


__all__ = [
    "EngineClient",
    "EngineFault",
    "EngineRefused",
    "InProcessEngine",
    "SubprocessEngine",
    "Transcript",
    "open_engine",
]
