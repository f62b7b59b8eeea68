"""Hashes that bind a register pack to its mastery report, all over canonical JSON.

The report is self-sealed: ``seal`` is the digest of the report without ``seal``.
The pack records that seal in ``mastery_report_sha256``, and the report records
``pack_source_sha256``, the digest of the pack without ``mastery_report_sha256``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeGuard

from reference.canonical import FloatInHashError, digest
from reference.registers.model import SEAL_FIELD, RegisterPack

REPORT_SCHEMA_VERSION = "1.0.0"
VERDICT_RATIFIED = "ratified"
REPORT_SUFFIX = ".mastery_report.json"
SEAL_KEY = "seal"


def pack_source_sha256(pack_json: Mapping[str, Any]) -> str:
    """Digest of the pack dict with the ``mastery_report_sha256`` key removed."""
    return digest({key: value for key, value in pack_json.items() if key != SEAL_FIELD})


def report_path_for(pack_path: Path) -> Path:
    """The companion report path of a pack file: ``<stem>.mastery_report.json`` beside it."""
    return pack_path.with_name(pack_path.stem + REPORT_SUFFIX)


def build_report(
    pack: RegisterPack, methods: list[str], evidence: dict[str, Any]
) -> dict[str, Any]:
    """The unsealed mastery report for *pack*; *methods* are stored sorted."""
    return {
        "register_id": pack.register_id,
        "pack_version": pack.version,
        "pack_source_sha256": pack_source_sha256(pack.as_json()),
        "schema_version": REPORT_SCHEMA_VERSION,
        "verdict": VERDICT_RATIFIED,
        "methods": sorted(methods),
        "evidence": evidence,
    }


def seal_report(report_without_seal: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of the report with ``seal`` = digest of the report without ``seal``."""
    body = {key: value for key, value in report_without_seal.items() if key != SEAL_KEY}
    return {**body, SEAL_KEY: digest(body)}


def verify_report_seal(report: object) -> TypeGuard[dict[str, Any]]:
    """True when *report* is a dict whose ``seal`` equals the digest of the rest of it."""
    if not isinstance(report, dict):
        return False
    seal = report.get(SEAL_KEY)
    if not isinstance(seal, str):
        return False
    body = {key: value for key, value in report.items() if key != SEAL_KEY}
    try:
        return digest(body) == seal
    except (FloatInHashError, TypeError, ValueError):
        return False
