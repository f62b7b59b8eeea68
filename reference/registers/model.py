"""Register packs as immutable values, the limits they must respect, and the null sentinel.

A :class:`RegisterPack` is the parsed content of one ``<register_id>.json`` file;
:meth:`RegisterPack.as_json` returns exactly the plain JSON that file holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

SUPPORTED_SCHEMA_VERSIONS = ("1.0.0",)
DEPTH_PREFERENCES = ("terse", "standard", "pedagogical")
MAX_MARKER_LEN = 128
MAX_MARKERS_PER_BUCKET = 32
MAX_REGISTER_ID_LEN = 64
BUCKET_NAMES = ("openings", "transitions", "closings")
KNOWN_FLAT_OVERRIDES: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {"disclosure_domain_count": (1, 2, 3)}
)
PER_INTENT_KEY = "per_intent"
REQUIRED_FIELDS = (
    "register_id",
    "version",
    "description",
    "schema_version",
    "display_name",
    "depth_preference",
    "realizer_overrides",
    "discourse_markers",
)
SEAL_FIELD = "mastery_report_sha256"
ALL_FIELDS = (*REQUIRED_FIELDS, SEAL_FIELD)


def freeze(value: Any) -> Any:
    """Return a read-only deep copy: dicts become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """Return a plain JSON copy of a frozen value: mappings become dicts, tuples lists."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(item) for item in value]
    return value


@dataclass(frozen=True)
class DiscourseMarkers:
    """The three bounded marker buckets; each is a tuple of strings, possibly empty."""

    openings: tuple[str, ...] = ()
    transitions: tuple[str, ...] = ()
    closings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in BUCKET_NAMES:
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def as_json(self) -> dict[str, list[str]]:
        """Plain JSON form: every bucket present, as a list."""
        return {name: list(getattr(self, name)) for name in BUCKET_NAMES}


@dataclass(frozen=True)
class RegisterPack:
    """One register pack; ``realizer_overrides`` is frozen (read-only at every depth)."""

    register_id: str
    version: str
    description: str
    schema_version: str
    display_name: str
    depth_preference: str
    realizer_overrides: Mapping[str, Any] = field(hash=False)
    discourse_markers: DiscourseMarkers
    mastery_report_sha256: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "realizer_overrides", freeze(self.realizer_overrides))

    def as_json(self) -> dict[str, Any]:
        """The pack file content as a plain JSON-able dict (all fields present)."""
        return {
            "register_id": self.register_id,
            "version": self.version,
            "description": self.description,
            "schema_version": self.schema_version,
            "display_name": self.display_name,
            "depth_preference": self.depth_preference,
            "realizer_overrides": thaw(self.realizer_overrides),
            "discourse_markers": self.discourse_markers.as_json(),
            SEAL_FIELD: self.mastery_report_sha256,
        }


UNREGISTERED = RegisterPack(
    register_id="unregistered",
    version="0",
    description="No register.",
    schema_version="1.0.0",
    display_name="Unregistered",
    depth_preference="standard",
    realizer_overrides={},
    discourse_markers=DiscourseMarkers(),
    mastery_report_sha256="",
)
"""The sentinel used when no register is requested; it is never read from disk."""


def is_unregistered(pack: RegisterPack) -> bool:
    """True when *pack* is (equal to) the :data:`UNREGISTERED` sentinel."""
    return pack == UNREGISTERED
