"""Staged files that outlive their op (docs/protocol.md § register.load: the engine deletes
the directory before it answers): each engine leaves a copy of the files it was given in a
directory of its own under the temporary directory, as a staging directory it never
deleted would stay."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from reference.errors import EngineError
from reference.registers.loader import read_pack_file
from reference.registers.model import RegisterPack
from reference.registers.ratify import Ratifier
from reference.registers.validate import validate_register_id
from reference.serve import ProtocolHandler


def _keep(files: object) -> None:
    """Copy each plain file of a ``files`` argument into a directory nobody removes."""
    if not isinstance(files, dict):
        return
    kept = Path(tempfile.mkdtemp(prefix="core-staged-kept-"))
    for name, value in files.items():
        if isinstance(value, str) and "/" not in name and len(name.encode()) < 255:
            try:
                (kept / name).write_bytes(base64.b64decode(value, validate=True))
            except (binascii.Error, ValueError, OSError):
                continue


class StagingKeptOnRefusal(ProtocolHandler):
    """register.load deletes its staging directory only when the load succeeds."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_register_load(args)
        except EngineError:
            _keep(args.get("files"))
            raise


class SessionStagingKept(ProtocolHandler):
    """session.open keeps the directory its files were staged in (for the session's life)."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        _keep(args.get("files"))
        return super().op_session_open(args)


def _shm_or_tmp() -> str | None:
    return "/dev/shm" if Path("/dev/shm").is_dir() else None


class RatifyScratchLeftInShm(ProtocolHandler):
    """register.ratify keeps its scratch directory on the memory file system (/dev/shm)."""

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_register_ratify(args)
        kept = Path(tempfile.mkdtemp(prefix="core-ratify-kept-", dir=_shm_or_tmp()))
        for name, data in result["files"].items():
            (kept / name).write_bytes(base64.b64decode(data))
        return result


class RatifyScratchKeptOnRefusal(ProtocolHandler):
    """register.ratify deletes its scratch directory only when the gate accepts the pack."""

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_register_ratify(args)
        except EngineError:
            pack = args.get("pack")
            rid = pack.get("register_id") if isinstance(pack, dict) else None
            if isinstance(rid, str) and "/" not in rid and rid:
                kept = Path(tempfile.mkdtemp(prefix="core-ratify-kept-"))
                (kept / f"{rid}.json").write_text(json.dumps(pack), encoding="utf-8")
            raise


class _StaleReadRatifier(Ratifier):
    """Reads the pack at its final name before finishing an earlier, killed ratify."""

    def read(self, path: Path) -> RegisterPack:
        path = Path(path)
        if path.suffix != ".json" or not path.is_file():
            return super().read(path)
        validate_register_id(path.stem)
        pack, _ = read_pack_file(path, expected_id=path.stem)
        super().read(path)
        return pack


class RatifyReadsBeforeRollForward(ProtocolHandler):
    """register.ratify_file reads the file at the pack's name, then rolls a committed
    pending pair forward: it ratifies that file, not the pending pack the loader reads."""

    @functools.cached_property
    def ratifier(self) -> Ratifier:
        return _StaleReadRatifier()
