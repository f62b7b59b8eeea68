"""The CORE reference engine: a small, readable, deterministic cognition engine."""

import functools
from pathlib import Path

DISTRIBUTION = "core-conformance"
ENGINE_NAME = "core-reference"


@functools.cache
def _package_version() -> str:
    """The installed distribution's version; from a source checkout, its pyproject.toml."""
    found = _installed_version()
    if found is not None:
        return found
    import tomllib

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        version = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, ValueError, KeyError):
        return "0+unknown"
    return version if isinstance(version, str) else "0+unknown"


def _installed_version() -> str | None:
    """The ``Version:`` of the distribution's metadata (``.dist-info/METADATA`` or
    ``.egg-info/PKG-INFO``) in the first ``sys.path`` entry that holds one, as
    ``importlib.metadata.version`` finds it (importing that module costs a third of a
    server's cold start); when an entry holds more than one, ``importlib.metadata`` decides.
    None when no distribution is found."""
    import os
    import re
    import sys

    named = re.compile(re.escape(DISTRIBUTION.replace("-", "_")) + r"(-[^-]+)?\.(dist|egg)-info")
    for entry in sys.path:
        try:
            found = [n for n in os.listdir(entry or ".") if named.fullmatch(n)]
        except OSError:
            continue
        if len(found) == 1:
            meta = "METADATA" if found[0].endswith(".dist-info") else "PKG-INFO"
            version = _metadata_version(os.path.join(entry or ".", found[0], meta))
            if version is not None:
                return version
        if found:
            break
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


def _metadata_version(path: str) -> str | None:
    """The ``Version:`` header of a metadata file (None if unreadable or absent)."""
    try:
        with open(path, encoding="utf-8") as meta:
            for line in meta:
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip()
                if not line.strip():
                    return None
    except OSError:
        return None
    return None


def __getattr__(name: str) -> str:
    """``__version__``: the engine's version, the version of the package it ships in
    (see docs/spec.md), looked up when first asked for."""
    if name == "__version__":
        return _package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
