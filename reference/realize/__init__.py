"""The realizer: turns a sealed truth record into words, under a register.

Nothing here can change a truth record; the register only shapes wording.
"""

from typing import TYPE_CHECKING

from reference.lazy import exports

if TYPE_CHECKING:
    from reference.realize.compose import realize
    from reference.realize.depth import (
        DEFAULT_DISCLOSURE_DOMAIN_COUNT,
        resolve_disclosure_domain_count,
    )
    from reference.realize.variation import Decoration, DecorationSeed, Decorator, variant_id

__getattr__ = exports(
    __name__,
    {
        "realize": "compose",
        "DEFAULT_DISCLOSURE_DOMAIN_COUNT": "depth",
        "resolve_disclosure_domain_count": "depth",
        "Decoration": "variation",
        "DecorationSeed": "variation",
        "Decorator": "variation",
        "variant_id": "variation",
    },
)

__all__ = [
    "DEFAULT_DISCLOSURE_DOMAIN_COUNT",
    "Decoration",
    "DecorationSeed",
    "Decorator",
    "realize",
    "resolve_disclosure_domain_count",
    "variant_id",
]
