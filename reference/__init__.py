"""The CORE reference engine: a small, readable, deterministic cognition engine."""

import functools
from pathlib import Path

DISTRIBUTION = "core-conformance"
ENGINE_NAME = "core-reference"


@functools.cache
def _package_version() -> str:
    """The installed distribution's version; from a source checkout, its pyproject.toml."""
    import tomllib
    from importlib import metadata  # read on first use: a third of a server's cold start

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


def __getattr__(name: str) -> str:
    """``__version__``: the engine's version, the version of the package it ships in
    (see docs/spec.md), looked up when first asked for."""
    if name == "__version__":
        return _package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
