"""The realizer: turns a sealed truth record into words, under a register.

Nothing here can change a truth record; the register only shapes wording.
"""

from reference.realize.compose import realize
from reference.realize.depth import DEFAULT_DISCLOSURE_DOMAIN_COUNT, resolve_disclosure_domain_count
from reference.realize.variation import Decoration, DecorationSeed, Decorator, variant_id

__all__ = [
    "DEFAULT_DISCLOSURE_DOMAIN_COUNT",
    "Decoration",
    "DecorationSeed",
    "Decorator",
    "realize",
    "resolve_disclosure_domain_count",
    "variant_id",
]
