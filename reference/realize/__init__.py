"""The realizer: turns a sealed truth record into words, under a register.

Nothing here can change a truth record; the register only shapes wording.
"""

from reference.realize.compose import realize
from reference.realize.depth import DEFAULT_DISCLOSURE_DOMAIN_COUNT, resolve_disclosure_domain_count
from reference.realize.variation import Decoration, decorate, select_bucket_entry, variant_id

__all__ = [
    "DEFAULT_DISCLOSURE_DOMAIN_COUNT",
    "Decoration",
    "decorate",
    "realize",
    "resolve_disclosure_domain_count",
    "select_bucket_entry",
    "variant_id",
]
