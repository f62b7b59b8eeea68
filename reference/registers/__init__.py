"""Register packs: ratified, sealed presentation settings that only shape wording.

A register never changes what is true about a turn; the loader refuses any pack
that is not byte-for-byte the file the ratification gate sealed.
"""

from reference.registers.loader import (
    SHIPPED_REGISTER_IDS,
    PackLoader,
    list_register_ids,
    load_register_pack,
)
from reference.registers.model import (
    UNREGISTERED,
    DiscourseMarkers,
    RegisterPack,
    is_unregistered,
)
from reference.registers.ratify import Ratifier, ratify_pack_file

__all__ = [
    "SHIPPED_REGISTER_IDS",
    "UNREGISTERED",
    "DiscourseMarkers",
    "PackLoader",
    "Ratifier",
    "RegisterPack",
    "is_unregistered",
    "list_register_ids",
    "load_register_pack",
    "ratify_pack_file",
]
