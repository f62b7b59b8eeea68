"""Runtime configuration."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RuntimeConfig:
    """How a chat session is set up.

    ``register_id=None`` is no register: the UNREGISTERED sentinel. ``register_search_path``
    lists directories searched for register packs before the shipped ones.
    ``audit_path``, when set, receives one JSON line per turn (ids only, unless
    ``audit_content`` is true). ``state_dir``, when set, is the persisted engine state:
    the persistent core is checkpointed after every turn.
    """

    register_id: str | None = None
    register_search_path: tuple[Path, ...] = ()
    audit_path: Path | None = None
    audit_content: bool = False
    state_dir: Path | None = None
