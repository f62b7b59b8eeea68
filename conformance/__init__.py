"""The CORE conformance suite: certify any engine that speaks core-engine/1."""

import tomllib
from importlib import metadata
from pathlib import Path

SUITE_NAME = "core-conformance"
"""The distribution name; the suite's version is this distribution's version."""


def package_version(distribution: str = SUITE_NAME) -> str:
    """The installed distribution's version; from a source checkout, its pyproject.toml."""
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


SUITE_VERSION = package_version()
"""The one version of the suite, read from the package metadata (see docs/spec.md)."""
