"""Broken engines for LOAD-READ-301: a pack file's bytes read leniently."""

from __future__ import annotations

import json
from pathlib import Path

from reference.registers import PackLoader
from reference.registers.model import RegisterPack
from reference.registers.pending import effective_pair
from reference.registers.validate import parse_pack
from reference.serve import ProtocolHandler


class _ReplacingPackReader(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        raw = effective_pair(path)[0].read_bytes()
        try:
            data = json.loads(raw.decode("utf-8-sig", "replace"))
        except ValueError:
            return super().read_pack(path, register_id)
        return parse_pack(data, expected_id=register_id), raw


class PackBytesReplaced(ProtocolHandler):
    """A pack file is decoded with replacement characters, and a byte order mark is skipped."""

    pack_loader = _ReplacingPackReader()
