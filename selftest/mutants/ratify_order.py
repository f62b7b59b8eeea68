"""Ratify's atomic commit of the pack/report pair with a step out of the order
docs/registers.md § Atomic commit of the pair states: a kill still leaves the old pair or
the new one, so only the traced order (LOAD-STEPS-001) tells."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from reference.canonical import pretty_json
from reference.registers import pending
from reference.registers.model import SEAL_FIELD, RegisterPack
from reference.registers.ratify import Ratifier
from reference.registers.seal import report_path_for
from reference.serve import ProtocolHandler


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_synced(path: Path, data: bytes, like: Path) -> None:
    mode = like.stat().st_mode & 0o777 if like.exists() else 0o644
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.write(fd, data)
        os.fchmod(fd, mode)
        os.fsync(fd)
    finally:
        os.close(fd)


def _commit(path: Path, pack: bytes, report: bytes, *, pack_first: bool, sync: bool) -> None:
    """``commit_pair`` with the roll forward's renames in either order and the staging
    directory's fsync optional."""
    pending.recover(path)
    staging = pending.staging_dir(path)
    files = {report_path_for(path): report, path: pack}
    os.mkdir(staging)
    for final, data in files.items():
        _write_synced(staging / final.name, data, final)
    if sync:
        _fsync_dir(staging)
    committed = pending.pending_dir(path)
    os.rename(staging, committed)
    _fsync_dir(path.parent)
    finals = [path, report_path_for(path)] if pack_first else [report_path_for(path), path]
    for final in finals:
        os.replace(committed / final.name, final)
    _fsync_dir(path.parent)
    os.rmdir(committed)
    _fsync_dir(path.parent)


class _Writer(Ratifier):
    pack_first = False
    sync = True

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        sealed = pretty_json({**pack.as_json(), SEAL_FIELD: report["seal"]}).encode("utf-8")
        data = pretty_json(report).encode("utf-8")
        _commit(path, sealed, data, pack_first=self.pack_first, sync=self.sync)


class PackFirstWriter(_Writer):
    pack_first = True


class UnsyncedStagingWriter(_Writer):
    sync = False


class PackRolledFirst(ProtocolHandler):
    """Ratify's roll forward renames the pack out before the report."""

    ratifier = PackFirstWriter()


class StagingUnsynced(ProtocolHandler):
    """Ratify renames its staging directory (the commit) without fsyncing it first."""

    ratifier = UnsyncedStagingWriter()
