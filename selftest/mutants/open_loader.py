"""A session.open whose register is read by a loader of its own (docs/protocol.md §
session.open: loaded like register.load): register.load stays the reference's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.registers import PackLoader
from reference.registers.loader import read_pack_file
from reference.registers.model import RegisterPack
from reference.registers.pending import effective_pair
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.serve import ProtocolHandler


class _SealSkipped(PackLoader):
    def check_seal(self, pack: RegisterPack, report: dict[str, Any]) -> None:
        return None

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        return None


class SessionOpenSkipsSeal(ProtocolHandler):
    """session.open loads its register without comparing the seal or the content with the
    report: a pack edited after ratification opens."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        if register_id is None:
            return super().new_runtime(register_id, search_path)
        pack = _SealSkipped().load(register_id, search_path)
        config = RuntimeConfig(register_id=register_id, register_search_path=search_path)
        return ChatRuntime(config, register_pack=pack, steps=self)


class _BesideIgnored(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        return read_pack_file(effective_pair(path)[0], expected_id=register_id)


class SessionOpenMalformedBeside(ProtocolHandler):
    """session.open reads its pack without looking beside it: a ratified pack edited into
    something malformed is REGISTER_MALFORMED there, where register.load says TAMPERED."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        if register_id is None:
            return super().new_runtime(register_id, search_path)
        pack = _BesideIgnored().load(register_id, search_path)
        config = RuntimeConfig(register_id=register_id, register_search_path=search_path)
        return ChatRuntime(config, register_pack=pack, steps=self)
