"""Engine adapters: a program over stdio, or a Python factory in-process."""

from __future__ import annotations

from conformance.engines.base import EngineClient, EngineFault, EngineRefused, Transcript
from conformance.engines.inprocess import InProcessEngine
from conformance.engines.subprocess import SubprocessEngine

REFERENCE_FACTORY = "reference.serve:factory"


def open_engine(
    command: str | None = None,
    python: str | None = None,
    *,
    timeout: float = 10.0,
    strict: bool = False,
) -> EngineClient:
    """Open the engine named by a command or a ``module:factory``; default: the reference.

    An empty or blank command or factory raises ValueError: it never means the reference.
    """
    if command is not None and python is not None:
        raise ValueError("give --engine or --engine-python, not both")
    if command is not None:
        return SubprocessEngine(command, timeout=timeout, strict=strict)
    if python is not None and not python.strip():
        raise ValueError("the engine factory is empty")
    return InProcessEngine(REFERENCE_FACTORY if python is None else python.strip(), strict=strict)


__all__ = [
    "EngineClient",
    "EngineFault",
    "EngineRefused",
    "InProcessEngine",
    "SubprocessEngine",
    "Transcript",
    "open_engine",
]
