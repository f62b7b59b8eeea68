"""Beside its report, a structural refusal other than REGISTER_MALFORMED turned into
REGISTER_TAMPERED (docs/registers.md § Loading step 5: only REGISTER_MALFORMED is): each
loader replaces only ``read_pack``, recoding more codes than the reference does."""

from __future__ import annotations

from pathlib import Path

from reference.errors import RegisterError
from reference.registers import PackLoader
from reference.registers.model import RegisterPack
from reference.registers.pending import effective_pair
from reference.serve import ProtocolHandler


class _Recoding(PackLoader):
    """A loader that reports the codes in ``recoded`` as REGISTER_TAMPERED beside a report."""

    recoded: frozenset[str] = frozenset()

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        try:
            return super().read_pack(path, register_id)
        except RegisterError as exc:
            if exc.code in self.recoded and effective_pair(path)[1].is_file():
                raise RegisterError(exc.message, field=exc.field, code="REGISTER_TAMPERED") from exc
            raise


class _MissingFieldTampered(_Recoding):
    recoded = frozenset({"REGISTER_MISSING_FIELD"})


class BesideReportMissingFieldTampered(ProtocolHandler):
    """Beside its report, a pack missing a field is REGISTER_TAMPERED, not MISSING_FIELD."""

    pack_loader = _MissingFieldTampered()


class _UnknownNamesTampered(_Recoding):
    recoded = frozenset(
        {"REGISTER_UNKNOWN_BUCKET", "REGISTER_UNKNOWN_OVERRIDE", "REGISTER_UNKNOWN_INTENT"}
    )


class BesideReportUnknownNamesTampered(ProtocolHandler):
    """Beside its report, an unknown bucket, override or intent is REGISTER_TAMPERED, as an
    unknown top-level field is."""

    pack_loader = _UnknownNamesTampered()
