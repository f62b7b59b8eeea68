"""Staged files that outlive their op (docs/protocol.md § register.load: the engine deletes
the directory before it answers): each engine leaves a copy of the files it was given in a
directory of its own under the temporary directory, as a staging directory it never
deleted would stay."""

from __future__ import annotations

import base64
import binascii
import tempfile
from pathlib import Path
from typing import Any

from reference.errors import EngineError
from reference.serve import ProtocolHandler


def _keep(files: object) -> None:
    """Copy each plain file of a ``files`` argument into a directory nobody removes."""
    if not isinstance(files, dict):
        return
    kept = Path(tempfile.mkdtemp(prefix="core-kept-"))
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
