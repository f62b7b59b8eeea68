"""Requirement modules are discovered: each registers requirements, and only they do."""

from __future__ import annotations

import pkgutil

import conformance.requirements as requirements
from conformance.requirements import MODULES, REGISTRY, SUPPORT_MODULES


def _module_of(req_id: str) -> str:
    return REGISTRY[req_id].check.__module__.rsplit(".", 1)[-1]


def test_every_module_of_the_package_is_imported():
    found = {info.name for info in pkgutil.iter_modules(requirements.__path__)}
    assert set(MODULES) == found - set(SUPPORT_MODULES) - {n for n in found if n.startswith("_")}


def test_every_requirement_module_registers_a_requirement():
    registering = {_module_of(req_id) for req_id in REGISTRY}
    assert set(MODULES) <= registering, f"no requirement in {sorted(set(MODULES) - registering)}"
    assert registering <= set(MODULES), f"registered outside: {sorted(registering - set(MODULES))}"
