"""Every requirement the suite certifies: each module of this package registers its own.

Modules are discovered, not listed: a new ``conformance/requirements/<name>.py`` is
imported (and its ``@requirement`` checks registered) without touching this file.
"""

import importlib
import pkgutil

from conformance.requirements.registry import REGISTRY, Requirement, SuiteContext

SUPPORT_MODULES = ("registry", "replays")
"""Modules of this package that hold no requirement."""
MODULES = tuple(
    sorted(
        info.name
        for info in pkgutil.iter_modules(__path__)
        if info.name not in SUPPORT_MODULES and not info.name.startswith("_")
    )
)
for _name in MODULES:
    importlib.import_module(f"{__name__}.{_name}")

__all__ = ["MODULES", "REGISTRY", "SUPPORT_MODULES", "Requirement", "SuiteContext"]
