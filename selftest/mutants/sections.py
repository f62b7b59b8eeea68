"""Broken engines that bend one plain rule sentence of docs/protocol.md or docs/registers.md
(a rule stated without *must*) the way a port might."""

from __future__ import annotations

import base64
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reference.errors import RegisterError
from reference.registers.validate import validate_register_id
from reference.serve import ProtocolHandler

if TYPE_CHECKING:
    from reference.registers.model import RegisterPack
    from reference.runtime import ChatRuntime


class PackCachedById(ProtocolHandler):
    """session.open keeps the first files it was given for a register id and opens every
    later session of that id from them."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[str, Path] = {}

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        if register_id is not None and search_path:
            if register_id not in self.kept:
                copy = Path(tempfile.mkdtemp(prefix="sections-kept-"))
                shutil.copytree(search_path[0], copy, dirs_exist_ok=True)
                self.kept[register_id] = copy
            search_path = (self.kept[register_id],)
        return super().new_runtime(register_id, search_path)


class LatestPackWins(ProtocolHandler):
    """Every open session of a register id decorates with the pack last opened or loaded
    under that id, not the one it was opened with."""

    def __init__(self) -> None:
        super().__init__()
        self.runtimes: dict[str, list[ChatRuntime]] = {}

    def _everywhere(self, register_id: str, pack: RegisterPack) -> None:
        for runtime in self.runtimes.get(register_id, []):
            runtime.register = pack

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        pack = super().load_pack(register_id, search_path)
        if search_path:
            self._everywhere(register_id, pack)
        return pack

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        if register_id is not None and search_path:
            self.runtimes.setdefault(register_id, []).append(runtime)
            self._everywhere(register_id, runtime.register)
        return runtime


class MissingOpeningsDefaulted(ProtocolHandler):
    """variation.decorate reads a discourse_markers without openings as no openings
    instead of refusing it."""

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        markers = args.get("discourse_markers")
        if isinstance(markers, dict) and "openings" not in markers:
            args = {**args, "discourse_markers": {**markers, "openings": []}}
        return super().op_variation_decorate(args)


class SealCheckedAtRatify(ProtocolHandler):
    """register.ratify refuses a pack whose mastery_report_sha256 is present but not 64
    lowercase hex digits, instead of recomputing it."""

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        pack = args.get("pack")
        seal = pack.get("mastery_report_sha256") if isinstance(pack, dict) else None
        if isinstance(seal, str) and re.fullmatch(r"[0-9a-f]{64}", seal) is None:
            raise RegisterError("the seal is not a SHA-256", field="mastery_report_sha256")
        return super().op_register_ratify(args)


class DecorateIdValidated(ProtocolHandler):
    """variation.decorate reads register_id as a register id and refuses one that is not
    valid (the empty string) instead of hashing it as seed text."""

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        register_id = args.get("register_id")
        if isinstance(register_id, str):
            validate_register_id(register_id)
        return super().op_variation_decorate(args)


class RatifyScratchLeft(ProtocolHandler):
    """register.ratify leaves a directory holding the sealed pair in the temporary
    directory instead of deleting its scratch directory."""

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_register_ratify(args)
        kept = Path(tempfile.mkdtemp(prefix="sections-ratify-left-"))
        for name, data in result["files"].items():
            (kept / name).write_bytes(base64.b64decode(data))
        return result
