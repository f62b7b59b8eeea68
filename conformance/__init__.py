"""The CORE conformance suite: certify any engine that speaks core-engine/1."""

import functools
import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.api import (
        ConformanceError as ConformanceError,
    )
    from conformance.api import (
        Engine as Engine,
    )
    from conformance.api import (
        Report as Report,
    )
    from conformance.api import (
        Selection as Selection,
    )
    from conformance.api import (
        certify as certify,
    )
    from conformance.api import (
        merge as merge,
    )

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


LIBRARY = ("certify", "merge", "Engine", "Selection", "Report", "ConformanceError")
"""The library API (conformance/api.py, docs/conformance.md § Library API), imported
when first asked for so that ``import conformance`` stays light."""


def __getattr__(name: str) -> Any:
    """``SUITE_VERSION``: the one version of the suite, read from the package metadata
    (see docs/spec.md) when first asked for; the library API's names from
    conformance/api.py."""
    if name == "SUITE_VERSION":
        return package_version()
    if name in LIBRARY:
        from conformance import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """``conformance.certify`` and ``conformance.merge`` are the library's functions,
    although modules of the same names exist (``from conformance.certify import ...``
    still reaches the module): importing a submodule does not rebind them."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("certify", "merge"):
            from conformance import api

            return getattr(api, name)
        return super().__getattribute__(name)


sys.modules[__name__].__class__ = _Package
