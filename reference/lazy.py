"""Package attributes imported on first use, so importing a package costs only what is used."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def exports(package: str, where: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` giving each name of *where* from its submodule of *package*."""

    def __getattr__(name: str) -> object:
        submodule = where.get(name)
        if submodule is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{submodule}"), name)

    return __getattr__
