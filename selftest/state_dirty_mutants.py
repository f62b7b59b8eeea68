"""Broken engines whose ``dirty`` is a flag any batch sets and only a commit clears,
instead of whether the state differs from its last checkpoint (docs/state.md § Commit
protocol), whose never-committed store commits at its close, or whose store that fell back
counts as dirty until it commits. ``STATE-DIRTY-601`` fails on each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import CheckpointInfo, StateStore


class _StickyDirtyStore(StateStore):
    touched = False

    def apply(self, mutations: list[dict[str, Any]]) -> None:
        super().apply(mutations)
        self.touched = True

    def digest(self) -> dict[str, Any]:
        found = super().digest()
        return {**found, "dirty": found["dirty"] or self.touched}

    def checkpoint(self, announce: Callable[..., Any] | None = None) -> CheckpointInfo:
        committed = super().checkpoint(announce)
        self.touched = False
        return committed

    def close(self) -> CheckpointInfo:
        if self.touched and not super().digest()["dirty"]:
            self.checkpoint()
        return super().close()


class StickyDirtyFlag(ProtocolHandler):
    """`dirty` is set by any batch (a put back as it was, a put and its delete) and cleared
    only by a commit, so a close after a batch that changed nothing commits a generation."""

    def store_class(self) -> Any:
        return _StickyDirtyStore


def _checkpoint_or_release(store: StateStore) -> None:
    """Commit at a close the store would not commit at; a refused commit still releases the
    lock, as a close must."""
    try:
        store.checkpoint()
    except BaseException:
        store.release()
        raise


class _FreshCommitsStore(StateStore):
    def close(self) -> CheckpointInfo:
        if super().digest()["generation"] == 0:
            _checkpoint_or_release(self)
        return super().close()


class FreshCloseCommits(ProtocolHandler):
    """A store that has never committed commits at its close, clean or not: a fresh
    directory opened and closed holds `gen-00000001`."""

    def store_class(self) -> Any:
        return _FreshCommitsStore


class _RecoveredDirtyStore(StateStore):
    healed = False

    def _unhealed(self) -> bool:
        return self.boot.recovered is not None and not self.healed

    def digest(self) -> dict[str, Any]:
        found = super().digest()
        return {**found, "dirty": found["dirty"] or self._unhealed()}

    def checkpoint(self, announce: Callable[..., Any] | None = None) -> CheckpointInfo:
        committed = super().checkpoint(announce)
        self.healed = True
        return committed

    def close(self) -> CheckpointInfo:
        if self._unhealed() and not super().digest()["dirty"]:
            _checkpoint_or_release(self)
        return super().close()


class RecoveredStoreHealsPointer(ProtocolHandler):
    """A store whose open fell back (`recovered` non-null) is dirty until it commits, so
    `state.close` of it, clean by its identity and turn count, commits the state it loaded
    as a new generation to "heal" the `CURRENT` that named an invalid one."""

    def store_class(self) -> Any:
        return _RecoveredDirtyStore
