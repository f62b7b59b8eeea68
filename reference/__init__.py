"""The CORE reference engine: a small, readable, deterministic cognition engine."""

import tomllib
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "core-conformance"
ENGINE_NAME = "core-reference"


def _package_version() -> str:
    """The installed distribution's version; from a source checkout, its pyproject.toml."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        version = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, ValueError, KeyError):
        return "0+unknown"
    return version if isinstance(version, str) else "0+unknown"


__version__ = _package_version()
"""The engine's version: the version of the package it ships in (see docs/spec.md)."""
