"""Broken loaders that check a mastery report's members in another order than loading step 7
of docs/registers.md lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.registers import PackLoader
from reference.registers.loader import read_json
from reference.registers.validate import fail
from reference.serve import ProtocolHandler

REPORT = "mastery_report"


def _report(report_path: Path) -> Any:
    return read_json(report_path, code="REGISTER_SEAL_MISMATCH", field=REPORT)[1]


class VerdictFirstLoader(PackLoader):
    """Checks the report's verdict before its other members."""

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        report = _report(report_path)
        if isinstance(report, dict) and report.get("verdict") != "ratified":
            fail("REGISTER_SEAL_MISMATCH", "report verdict is not 'ratified'", f"{REPORT}.verdict")
        return super().read_report(report_path, register_id)


class VerdictBeforeRegisterId(ProtocolHandler):
    """Loading checks the report's verdict before its register_id (and its seal and form)."""

    pack_loader = VerdictFirstLoader()


class IdentityFirstLoader(PackLoader):
    """Checks the report's register_id before its self-seal and normal form."""

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        report = _report(report_path)
        if isinstance(report, dict) and report.get("register_id") != register_id:
            message = f"report register_id is not {register_id!r}"
            fail("REGISTER_SEAL_MISMATCH", message, f"{REPORT}.register_id")
        return super().read_report(report_path, register_id)


class RegisterIdBeforeReportForm(ProtocolHandler):
    """Loading checks the report's register_id before its self-seal and normal form."""

    pack_loader = IdentityFirstLoader()
