"""Register packs: ratified, sealed presentation settings that only shape wording.

A register never changes what is true about a turn; the loader refuses any pack
that is not byte-for-byte the file the ratification gate sealed.
"""

from typing import TYPE_CHECKING

from reference.lazy import exports

if TYPE_CHECKING:
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

__getattr__ = exports(
    __name__,
    {
        "SHIPPED_REGISTER_IDS": "loader",
        "PackLoader": "loader",
        "list_register_ids": "loader",
        "load_register_pack": "loader",
        "UNREGISTERED": "model",
        "DiscourseMarkers": "model",
        "RegisterPack": "model",
        "is_unregistered": "model",
        "Ratifier": "ratify",
        "ratify_pack_file": "ratify",
    },
)

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
