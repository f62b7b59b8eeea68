"""The CORE conformance suite: certify any engine that speaks core-engine/1."""

import functools
from pathlib import Path

SUITE_NAME = "core-conformance"
"""The distribution name; the suite's version is this distribution's version."""


@functools.cache
def package_version(distribution: str = SUITE_NAME) -> str:
    """The installed distribution's version; from a source checkout, its pyproject.toml."""
    import tomllib
    from importlib import metadata  # read on first use: most of an engine host's start

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        version: str = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        return version
    except (OSError, ValueError, KeyError):
        return "0+unknown"


def __getattr__(name: str) -> str:
    """``SUITE_VERSION``: the one version of the suite, read from the package metadata
    (see docs/spec.md) when first asked for."""
    if name == "SUITE_VERSION":
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
