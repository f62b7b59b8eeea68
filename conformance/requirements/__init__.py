"""Every requirement the suite certifies, registered under its stable id on import."""

from conformance.requirements import (  # noqa: F401  (registration by import)
    cognition,
    invariants,
    loader,
    overrides,
    protocol,
    state,
    state_crash,
    uniformity,
    variation,
)
from conformance.requirements.registry import REGISTRY, Requirement, SuiteContext

__all__ = ["REGISTRY", "Requirement", "SuiteContext"]
