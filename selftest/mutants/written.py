"""Broken ratifiers that fill one written member from the wrong source (LOAD-REPORT-201).

Each source it takes instead coincides with the right one in a pack the suite generates
elsewhere (``version`` equal to ``schema_version``, ``display_name`` equal to the id), so
only inputs that tell the two apart catch it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from reference.registers import Ratifier
from reference.registers.model import PER_INTENT_KEY, RegisterPack
from reference.serve import ProtocolHandler


class _VersionFromSchema(Ratifier):
    def unsealed_report(self, pack: RegisterPack, evidence: dict[str, Any]) -> dict[str, Any]:
        return {**super().unsealed_report(pack, evidence), "pack_version": pack.schema_version}


class ReportVersionFromSchema(ProtocolHandler):
    """The report's pack_version is the pack's schema_version, not its version."""

    ratifier = _VersionFromSchema()


class _BucketSizesSwapped(Ratifier):
    def evidence(self, pack: RegisterPack) -> dict[str, Any]:
        evidence = super().evidence(pack)
        sizes = evidence["marker_bucket_sizes"]
        swapped = {**sizes, "openings": sizes["closings"], "closings": sizes["openings"]}
        return {**evidence, "marker_bucket_sizes": swapped}


class BucketSizesSwapped(ProtocolHandler):
    """The evidence counts the openings under closings and the closings under openings."""

    ratifier = _BucketSizesSwapped()


class _OverrideKeysFromPerIntent(Ratifier):
    def evidence(self, pack: RegisterPack) -> dict[str, Any]:
        evidence = super().evidence(pack)
        keys = sorted(pack.realizer_overrides.get(PER_INTENT_KEY, {}))
        return {**evidence, "realizer_overrides_keys": keys}


class OverrideKeysFromPerIntent(ProtocolHandler):
    """The evidence's realizer_overrides_keys are the per-intent keys, not the top-level ones."""

    ratifier = _OverrideKeysFromPerIntent()


class _DisplayNameFromId(Ratifier):
    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        renamed = dataclasses.replace(pack, display_name=pack.register_id)
        super().write_sealed(path, renamed, report)


class DisplayNameFromId(ProtocolHandler):
    """The ratified pack is written with its register_id as its display_name."""

    ratifier = _DisplayNameFromId()
