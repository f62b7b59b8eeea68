"""Ratify's step 1 wrong about what a client put at its hidden names, which no killed ratify
leaves (docs/registers.md § Atomic commit of the pair): each ratifier does its own mistaken
clean-up of ``.<stem>.ratify.tmp`` or ``.<stem>.ratify`` before the reference's read, which
then finds nothing left to finish or refuses as the docs say."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from reference.canonical import pretty_json
from reference.errors import RegisterError
from reference.registers import Ratifier, pending
from reference.registers.loader import read_pack_file
from reference.registers.model import SEAL_FIELD, RegisterPack
from reference.registers.seal import report_path_for
from reference.registers.validate import fail, validate_register_id
from reference.serve import ProtocolHandler
from selftest.mutants.loader import fieldless


def _finals(path: Path) -> list[Path]:
    """The pair's final names in the order step 4 renames them out."""
    return [report_path_for(path), path]


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.is_symlink() or path.exists():
        path.unlink()


class _Clearing(Ratifier):
    """A ratifier that runs :meth:`clear` on the pack's hidden names before reading it; an
    ``OSError`` there is refused as the reference refuses one (REGISTER_WRITE_FAILED)."""

    def clear(self, path: Path) -> None:
        """Clear the pack's hidden names (the base clears nothing)."""

    def read(self, path: Path) -> RegisterPack:
        if path.suffix == ".json" and path.is_file():
            try:
                self.clear(path)
            except OSError as exc:
                fail("REGISTER_WRITE_FAILED", f"{path}: {exc.strerror or exc}", "path")
        return super().read(path)


class StagingDirectoryOnly(_Clearing):
    def clear(self, path: Path) -> None:
        staging = pending.staging_dir(path)
        if staging.is_dir() and not staging.is_symlink():
            shutil.rmtree(staging)
        elif staging.is_symlink() or staging.exists():
            raise FileExistsError(17, "File exists")


class RatifyStagingFileKept(ProtocolHandler):
    """Ratify removes only a directory at .<stem>.ratify.tmp: a file or a link there is kept."""

    ratifier = StagingDirectoryOnly()


class StagingLinkFollowed(_Clearing):
    def clear(self, path: Path) -> None:
        staging = pending.staging_dir(path)
        if staging.is_symlink():
            target = staging.resolve()
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()


class RatifyStagingLinkFollowed(ProtocolHandler):
    """Ratify removes what a symbolic link at .<stem>.ratify.tmp points to, not the link alone."""

    ratifier = StagingLinkFollowed()


class PendingPartlyRolled(_Clearing):
    def clear(self, path: Path) -> None:
        committed = pending.pending_dir(path)
        if committed.is_dir() and not committed.is_symlink():
            for final in _finals(path):
                if (committed / final.name).is_file():
                    os.replace(committed / final.name, final)
            os.rmdir(committed)


class RatifyPendingPartlyRolled(ProtocolHandler):
    """Ratify rolls forward the files of .<stem>.ratify/ it can before it finds one it cannot."""

    ratifier = PendingPartlyRolled()


class StagingRemovedFirst(_Clearing):
    def clear(self, path: Path) -> None:
        _remove(pending.staging_dir(path))


class RatifyStagingRemovedBeforeRefusal(ProtocolHandler):
    """Ratify removes .<stem>.ratify.tmp before it refuses a pending pair it cannot roll forward."""

    ratifier = StagingRemovedFirst()


class PendingLinkFollowed(_Clearing):
    def clear(self, path: Path) -> None:
        committed = pending.pending_dir(path)
        if committed.is_symlink() and committed.is_dir():
            for final in _finals(path):
                if (committed / final.name).is_file():
                    os.replace(committed / final.name, final)
            committed.unlink()


class RatifyPendingLinkFollowed(ProtocolHandler):
    """Ratify rolls forward the pair a symbolic link at .<stem>.ratify points to."""

    ratifier = PendingLinkFollowed()


class PendingLinksRolled(_Clearing):
    def clear(self, path: Path) -> None:
        committed = pending.pending_dir(path)
        names = {final.name for final in _finals(path)}
        if committed.is_dir() and not committed.is_symlink():
            entries = list(committed.iterdir())
            if all(e.name in names and e.is_file() for e in entries):
                for entry in entries:
                    os.replace(entry, path.parent / entry.name)
                os.rmdir(committed)


class RatifyPendingLinksRolled(ProtocolHandler):
    """Ratify rolls a symbolic link inside .<stem>.ratify/ forward as a file of the pair."""

    ratifier = PendingLinksRolled()


class PendingDiscarded(_Clearing):
    def clear(self, path: Path) -> None:
        try:
            pending.pending_pair(path)
        except pending.PendingPairError:
            _remove(pending.pending_dir(path))


class RatifyPendingDiscarded(ProtocolHandler):
    """Ratify removes a pending pair it cannot roll forward and ratifies the pack as if none."""

    ratifier = PendingDiscarded()


class PendingRefusalFieldless(Ratifier):
    def read(self, path: Path) -> RegisterPack:
        try:
            return super().read(path)
        except RegisterError as error:
            if error.code != "REGISTER_WRITE_FAILED":
                raise
            raise fieldless(error) from None


class RatifyPendingWithoutField(ProtocolHandler):
    """Ratify refuses a pending pair it cannot roll forward without naming field path."""

    ratifier = PendingRefusalFieldless()


class PendingReportLinkRolled(_Clearing):
    def clear(self, path: Path) -> None:
        committed = pending.pending_dir(path)
        if not committed.is_dir() or committed.is_symlink():
            return
        entries = list(committed.iterdir())
        report_name = report_path_for(path).name
        if all(
            e.name == report_name
            and e.is_file()
            or e.name == path.name
            and e.is_file()
            and not e.is_symlink()
            for e in entries
        ):
            for final in _finals(path):
                if os.path.lexists(committed / final.name):
                    os.replace(committed / final.name, final)
            os.rmdir(committed)


class RatifyPendingReportLinkRolled(ProtocolHandler):
    """Ratify checks only the pack's name inside .<stem>.ratify/ for a link, not the report's.

    A link at the report's name to a file is rolled forward as the report."""

    ratifier = PendingReportLinkRolled()


class StagingElsePending(Ratifier):
    """Step 1 as an if/else: with debris at .<stem>.ratify.tmp, a committed pair is kept."""

    def read(self, path: Path) -> RegisterPack:
        staging = pending.staging_dir(path)
        if path.suffix != ".json" or not path.is_file() or not os.path.lexists(staging):
            return super().read(path)
        validate_register_id(path.stem)
        try:
            pending.pending_pair(path)
        except OSError as exc:
            fail("REGISTER_WRITE_FAILED", f"{path}: {exc.strerror or exc}", "path")
        _remove(staging)
        pack, _ = read_pack_file(path, expected_id=path.stem)
        return pack

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        committed = pending.pending_dir(path)
        if not os.path.lexists(committed):
            super().write_sealed(path, pack, report)
            return
        sealed = {**pack.as_json(), SEAL_FIELD: report["seal"]}
        staging = pending.staging_dir(path)
        try:
            os.mkdir(staging)
            (staging / path.name).write_bytes(pretty_json(sealed).encode("utf-8"))
            (staging / report_path_for(path).name).write_bytes(pretty_json(report).encode("utf-8"))
            os.rename(staging, committed)
            pending.roll_forward(path)
        except OSError as exc:
            fail("REGISTER_WRITE_FAILED", f"{path}: cannot write: {exc.strerror or exc}", "path")


class RatifyStagingElsePending(ProtocolHandler):
    """Ratify removes debris at .<stem>.ratify.tmp or rolls a committed pair forward, not both.

    With both there, the pending pair is left and the commit rename meets it."""

    ratifier = StagingElsePending()
