"""Boot events: one per open, appended to ``lineage.journal``.

``identity`` is the state after boot at the current schema version; ``parent`` is the
identity of the state loaded (null when fresh); ``from_version`` is the schema version
loaded (null when fresh).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from reference.state.core import encode_core, identity
from reference.state.journal import recover
from reference.state.layout import LINEAGE
from reference.state.loader import LoadedState
from reference.state.records import CURRENT_SCHEMA_VERSION


@dataclass(frozen=True)
class BootInfo:
    """One boot of a writer: its index, why it started as it did, and what it loaded."""

    boot: int
    reason: str
    parent: str | None
    recovered: str | None
    from_version: int | None
    to_version: int
    identity: str

    def as_event(self) -> dict[str, Any]:
        """The lineage journal payload of this boot."""
        return asdict(self)


def _reason(loaded: LoadedState) -> str:
    if loaded.fresh:
        return "fresh"
    if loaded.schema_version < CURRENT_SCHEMA_VERSION:
        return "schema_migration"
    return "resume"


BOOT_MAX = 2**53 - 2
"""The highest recorded boot that counts: the next stays in the canonical range."""


def next_boot_index(events: tuple[dict[str, Any], ...]) -> int:
    """One past the highest boot index recorded so far (1 for the first boot)."""
    indices = [
        e["boot"] for e in events if type(e.get("boot")) is int and 1 <= e["boot"] <= BOOT_MAX
    ]
    return max(indices, default=0) + 1


def boot_info(loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
    """The boot event of a writer that loaded *loaded* after the recorded *events*."""
    return BootInfo(
        boot=next_boot_index(events),
        reason=_reason(loaded),
        parent=None if loaded.fresh else loaded.identity,
        recovered=loaded.recovered,
        from_version=None if loaded.fresh else loaded.schema_version,
        to_version=CURRENT_SCHEMA_VERSION,
        identity=identity(CURRENT_SCHEMA_VERSION, encode_core(loaded.records.values())),
    )


def read_lineage(path: Path) -> list[dict[str, Any]]:
    """The boot events recorded in the state directory *path*, oldest first (read-only)."""
    return list(recover(Path(path) / LINEAGE, repair=False).entries)
