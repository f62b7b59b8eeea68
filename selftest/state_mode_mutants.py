"""Broken engines that give a fresh generation's files another mode than 0644
(docs/state.md § Commit protocol step 2). ``STATE-MODE-601`` fails on each.

Each is the reference ``ProtocolHandler`` whose store writes files through a changed
``FileOps``: owner-only files when the mode asked is the fresh default, or the mode
passed to ``open`` alone (no ``fchmod``), which the process's umask trims.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.state.fsops import FileOps

FRESH_MODE = 0o644


class _OwnerOnlyOps(FileOps):
    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        super().write_file(path, data, 0o600 if mode == FRESH_MODE else mode)


class _UmaskedOps(FileOps):
    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        fd = self.open_file(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


class _OwnerOnlyStore(StateStore):
    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        return _OwnerOnlyOps(path)


class _UmaskedStore(StateStore):
    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        return _UmaskedOps(path)


class FreshFilesOwnerOnly(ProtocolHandler):
    """A fresh directory's generation files are created 0600 (owner only), not 0644."""

    def store_class(self) -> Any:
        return _OwnerOnlyStore


class FileModesLeftToUmask(ProtocolHandler):
    """Generation files are opened with their mode but never given it (no fchmod), so the
    process's umask trims it."""

    def store_class(self) -> Any:
        return _UmaskedStore


class _SeparateModesOps(FileOps):
    def write_file(self, path: Path, data: bytes, mode: int) -> None:
        current = self.root / "CURRENT"
        if path.name in ("core.jsonl", "delta.jsonl") and current.is_file():
            live = self.root / current.read_text("ascii").strip()
            if not (live / path.name).exists():
                mode = FRESH_MODE
        super().write_file(path, data, mode)


class _SeparateModesStore(StateStore):
    @classmethod
    def file_ops(cls, path: Path) -> FileOps:
        return _SeparateModesOps(path)


class CoreAndDeltaModedApart(ProtocolHandler):
    """A staged ``core.jsonl`` takes the mode of the live ``core.jsonl`` only, a
    ``delta.jsonl`` that of the live ``delta.jsonl`` only: across kinds, 0644."""

    def store_class(self) -> Any:
        return _SeparateModesStore
