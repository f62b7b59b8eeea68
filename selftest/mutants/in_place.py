"""register.ratify_file with a code path of its own that writes the wrong pack beside the
right report, or none (docs/registers.md § The ratification gate: the pack is rewritten in
normal form with its seal): ``register.ratify`` stays the reference's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.canonical import pretty_json
from reference.registers import Ratifier
from reference.registers.model import RegisterPack
from reference.registers.pending import commit_pair
from reference.registers.seal import report_path_for
from reference.registers.validate import fail
from reference.serve import ProtocolHandler

PackBytes = Callable[[Path, RegisterPack], bytes]
"""The bytes a mistaken port writes as the ratified pack at *path*."""


class _PackBytes(Ratifier):
    """A ratifier that commits the pack *pack_bytes* gives beside the reference's report."""

    def __init__(self, pack_bytes: PackBytes) -> None:
        super().__init__()
        self.pack_bytes = pack_bytes

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        data = self.pack_bytes(path, pack)
        try:
            commit_pair(path, data, pretty_json(report).encode("utf-8"))
        except OSError as exc:
            fail("REGISTER_WRITE_FAILED", f"{path}: cannot write: {exc}", "path")


class _InPlace(ProtocolHandler):
    in_place: Ratifier = Ratifier()

    def op_register_ratify_file(self, args: dict[str, Any]) -> dict[str, Any]:
        path = args.get("path")
        if not isinstance(path, str) or "\x00" in path:
            return super().op_register_ratify_file(args)
        return {"report": self.in_place.ratify(Path(path))}


class InPlacePackLeftAsGiven(_InPlace):
    """register.ratify_file writes the report beside the pack but leaves the pack as given."""

    in_place = _PackBytes(lambda path, pack: path.read_bytes())


class InPlaceSealNotSet(_InPlace):
    """register.ratify_file rewrites the pack in normal form without setting its seal."""

    in_place = _PackBytes(lambda path, pack: pretty_json(pack.as_json()).encode("utf-8"))


class _SealedLeftAlone(Ratifier):
    """A ratifier that writes nothing when the pack already holds the seal it would get and
    its report is beside it."""

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        if pack.mastery_report_sha256 == report["seal"] and report_path_for(path).is_file():
            return
        super().write_sealed(path, pack, report)


class InPlaceSealedLeftAlone(_InPlace):
    """register.ratify_file leaves a pack that already holds its seal, its report beside it,
    as it is: a sealed pack written out of normal form stays out of it."""

    in_place = _SealedLeftAlone()
