"""Broken engines for LOAD-READ-301 (a pack file read leniently) and LOAD-SEAL-301."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reference.registers import PackLoader
from reference.registers.model import RegisterPack
from reference.registers.pending import effective_pair
from reference.registers.validate import fail, parse_pack
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


class _DetectingPackReader(PackLoader):
    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        raw = effective_pair(path)[0].read_bytes()
        try:
            data = json.loads(raw)
        except ValueError:
            return super().read_pack(path, register_id)
        return parse_pack(data, expected_id=register_id), raw


class PackEncodingDetected(ProtocolHandler):
    """A pack file is parsed in whatever encoding it looks like: UTF-16 and UTF-32 are read."""

    pack_loader = _DetectingPackReader()


class _ObjectlessReportReader(PackLoader):
    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        raw = report_path.read_bytes()
        if not isinstance(json.loads(raw), dict):
            fail("REGISTER_NOT_RATIFIED", f"{report_path}: no report", "mastery_report_sha256")
        return super().read_report(report_path, register_id)


class ReportNotObjectUnratified(ProtocolHandler):
    """A report that is JSON but no object counts as no report (NOT_RATIFIED), not a bad seal."""

    pack_loader = _ObjectlessReportReader()
