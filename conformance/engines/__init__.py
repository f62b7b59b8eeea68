"""Engine adapters: a program over stdio, or a Python factory in-process."""

from __future__ import annotations

import shlex
import sys

from conformance.engines.base import EngineClient, EngineFault, EngineRefused, Transcript
from conformance.engines.inprocess import InProcessEngine
from conformance.engines.subprocess import SubprocessEngine

NO_ENGINE_GIVEN = (
    "no engine was given, so the suite ran the reference engine, `{command}`, which must be "
    "installed for that; name the engine to certify with --engine CMD or --engine-python "
    "MODULE:FACTORY"
)
"""What an unavailable default engine adds to its fault: the suite ran it by default."""


def default_command() -> str:
    """The engine run when none is named: the reference engine's server, under this Python."""
    return shlex.join([sys.executable, "-m", "reference", "serve"])


def open_engine(
    command: str | None = None,
    python: str | None = None,
    *,
    timeout: float = 10.0,
    strict: bool = False,
) -> EngineClient:
    """Open the engine named by a command or a ``module:factory``; default: the reference
    engine's server, ``python -m reference serve``, as a program.

    An empty or blank command or factory raises ValueError: it never means the default.
    """
    if command is not None and python is not None:
        raise ValueError("give --engine or --engine-python, not both")
    if command is not None:
        return SubprocessEngine(command, timeout=timeout, strict=strict)
    if python is None:
        default = default_command()
        hint = NO_ENGINE_GIVEN.format(command=default)
        return SubprocessEngine(default, timeout=timeout, strict=strict, unavailable_hint=hint)
    if not python.strip():
        raise ValueError("the engine factory is empty")
    return InProcessEngine(python.strip(), strict=strict, timeout=timeout)


__all__ = [
    "EngineClient",
    "EngineFault",
    "EngineRefused",
    "InProcessEngine",
    "SubprocessEngine",
    "Transcript",
    "default_command",
    "open_engine",
]
