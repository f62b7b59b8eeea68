"""Broken engines for the type-confusion matrix (PROTO-TYPE-001, LOAD-TYPE-002 and 003): a
lax decoder that reads an argument, a pack member or a report member of the wrong type as one
of the right type. The first line of each docstring states the defect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reference.errors import RegisterError
from reference.registers import PackLoader
from reference.serve import ProtocolHandler

INTEGER_ARGS = frozenset({"turn_idx", "grade", "iterations", "seed"})
"""The integer arguments of docs/protocol.md."""
NULLABLE_ARGS = frozenset({"register_id", "expected_id"})
"""The arguments for which docs/protocol.md gives ``null`` a meaning."""


def _with_args(request: object, coerce: Any) -> object:
    """*request* with its ``args`` replaced by ``coerce(args)`` when both are objects."""
    if isinstance(request, dict) and isinstance(request.get("args"), dict):
        return {**request, "args": coerce(request["args"])}
    return request


class BoolAsInteger(ProtocolHandler):
    """An argument ``true`` or ``false`` is read as the integer 1 or 0."""

    def dispatch(self, request: object) -> dict[str, Any]:
        def coerce(args: dict[str, Any]) -> dict[str, Any]:
            return {k: int(v) if isinstance(v, bool) else v for k, v in args.items()}

        return super().dispatch(_with_args(request, coerce))


class WholeFloatAsInteger(ProtocolHandler):
    """An integer argument written ``1.0`` is read as the integer 1."""

    def dispatch(self, request: object) -> dict[str, Any]:
        def coerce(args: dict[str, Any]) -> dict[str, Any]:
            return {
                k: int(v) if k in INTEGER_ARGS and isinstance(v, float) and v.is_integer() else v
                for k, v in args.items()
            }

        return super().dispatch(_with_args(request, coerce))


class NumericStringCoerced(ProtocolHandler):
    """An integer argument given as the string ``"1"`` is read as the integer 1."""

    def dispatch(self, request: object) -> dict[str, Any]:
        def coerce(args: dict[str, Any]) -> dict[str, Any]:
            return {
                k: int(v) if k in INTEGER_ARGS and isinstance(v, str) and v.isdigit() else v
                for k, v in args.items()
            }

        return super().dispatch(_with_args(request, coerce))


class NullAsAbsent(ProtocolHandler):
    """An argument ``null`` is taken as absent (an optional one then takes its default)."""

    def dispatch(self, request: object) -> dict[str, Any]:
        def coerce(args: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in args.items() if v is not None or k in NULLABLE_ARGS}

        return super().dispatch(_with_args(request, coerce))


def _whole_counts(value: Any) -> Any:
    """*value* with every ``disclosure_domain_count`` written ``2.0`` read as ``2``."""
    if isinstance(value, dict):
        return {
            k: int(v)
            if k == "disclosure_domain_count" and isinstance(v, float) and v.is_integer()
            else _whole_counts(v)
            for k, v in value.items()
        }
    return value


class PackNullAsAbsent(ProtocolHandler):
    """A pack's ``mastery_report_sha256`` ``null`` is taken as absent."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> Any:
        if pack.get("mastery_report_sha256", "") is None:
            pack = {k: v for k, v in pack.items() if k != "mastery_report_sha256"}
        return super().validate_pack(pack, expected_id)


class PackWholeFloatCount(ProtocolHandler):
    """A pack's ``disclosure_domain_count`` written ``2.0`` is read as the integer 2."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> Any:
        return super().validate_pack(_whole_counts(pack), expected_id)


class TruthyVerdictLoader(PackLoader):
    """A loader that reads a report's ``verdict`` ``true`` as ratified."""

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        try:
            return super().read_report(report_path, register_id)
        except RegisterError as refusal:
            report = json.loads(report_path.read_bytes())
            if refusal.field == "mastery_report.verdict" and report.get("verdict") is True:
                return dict(report)
            raise


class TruthyVerdict(ProtocolHandler):
    """A mastery report whose ``verdict`` is ``true`` (resealed) loads as ratified."""

    pack_loader = TruthyVerdictLoader()
