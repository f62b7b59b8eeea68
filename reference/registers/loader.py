"""Find, verify and load ratified register packs.

:func:`load_register_pack` refuses any pack that is not exactly the file the
ratifier wrote: the pack's source hash and the report's self-seal are
recomputed on every load, and both files must be byte-for-byte in normal form.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reference.canonical import pretty_json
from reference.errors import RegisterError
from reference.jsonio import UntrustedJSON, read_untrusted_file
from reference.registers.model import SEAL_FIELD, UNREGISTERED, RegisterPack
from reference.registers.pending import effective_pair
from reference.registers.seal import (
    REPORT_SUFFIX,
    SEAL_KEY,
    VERDICT_RATIFIED,
    pack_source_sha256,
    verify_report_seal,
)
from reference.registers.validate import fail, parse_pack, validate_register_id

SHIPPED_DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_REGISTER_IDS = ("default_neutral_v1", "terse_v1", "convivial_v1")
REPORT = "mastery_report"


def search_dirs(search_path: Sequence[Path | str] = ()) -> tuple[Path, ...]:
    """The directories searched, in order: *search_path*, then the shipped data dir.

    A lone ``str`` or ``Path`` is taken as one directory, not as a sequence.
    """
    if isinstance(search_path, (str, Path)):
        search_path = [search_path]
    return (*(Path(entry) for entry in search_path), SHIPPED_DATA_DIR)


def find_pack_file(register_id: str, search_path: Sequence[Path | str] = ()) -> Path:
    """The first ``<register_id>.json`` along :func:`search_dirs`, or REGISTER_NOT_FOUND."""
    dirs = search_dirs(search_path)
    for directory in dirs:
        candidate = directory / f"{register_id}.json"
        if candidate.is_file():
            return candidate
    searched = ", ".join(str(directory) for directory in dirs)
    fail("REGISTER_NOT_FOUND", f"no register pack {register_id!r} in: {searched}", "register_id")


def read_json(path: Path, *, code: str, field: str | None) -> tuple[bytes, Any]:
    """Read *path* as UTF-8 JSON with the guarded reader; failures raise *code*."""
    try:
        return read_untrusted_file(path)
    except OSError as exc:
        fail(code, f"{path} cannot be read: {exc.strerror or exc}", field)
    except UntrustedJSON as exc:
        reason = exc.reason.replace("not JSON", "not valid JSON", 1)
        fail(
            code, f"{path} is {reason}" if reason.startswith("not") else f"{path}: {reason}", field
        )


def read_pack_file(path: Path, *, expected_id: str) -> tuple[RegisterPack, bytes]:
    """Read and structurally validate one pack file; returns the pack and the raw bytes."""
    raw, data = read_json(path, code="REGISTER_MALFORMED", field=None)
    try:
        return parse_pack(data, expected_id=expected_id), raw
    except RegisterError as exc:
        if str(path) in exc.message:
            raise
        raise RegisterError(f"{path}: {exc.message}", field=exc.field, code=exc.code) from None


class PackLoader:
    """Loads a ratified pack in overridable steps, each one check of the load contract.

    :meth:`load` locates the file (``locate``), reads it (``read_pack``), finds its
    report (``require_ratified``), reads the report (``read_report``, which asks
    ``report_seal_verifies``), then checks the pack's seal (``check_seal``) and its
    bytes (``check_untampered``). A subclass that replaces one step changes only it.
    """

    def load(self, register_id: str, search_path: Sequence[Path] = ()) -> RegisterPack:
        """The ratified, sealed, untampered pack *register_id* (RegisterError otherwise)."""
        register_id = validate_register_id(register_id)
        path = self.locate(register_id, search_path)
        pack, raw = self.read_pack(path, register_id)
        report = self.read_report(self.require_ratified(pack, path), register_id)
        self.check_seal(pack, report)
        self.check_untampered(pack, raw, report)
        return pack

    def locate(self, register_id: str, search_path: Sequence[Path]) -> Path:
        """The pack file of *register_id* along the search path (REGISTER_NOT_FOUND).

        The sentinel's id names no file: it is refused before any directory is searched.
        """
        if register_id == UNREGISTERED.register_id:
            message = f"{register_id!r} is the sentinel's id, never loaded from a file"
            fail("REGISTER_NOT_FOUND", message, "register_id")
        return find_pack_file(register_id, search_path)

    def read_pack(self, path: Path, register_id: str) -> tuple[RegisterPack, bytes]:
        """The pack at *path* and its raw bytes; unreadable JSON beside a report is tampered."""
        pack_path, report_path = effective_pair(path)
        try:
            return read_pack_file(pack_path, expected_id=register_id)
        except RegisterError as exc:
            if exc.code != "REGISTER_MALFORMED" or not report_path.is_file():
                raise
            message = f"{exc.message}; it was ratified, so it was changed since"
            fail("REGISTER_TAMPERED", message, exc.field)

    def require_ratified(self, pack: RegisterPack, path: Path) -> Path:
        """The path of the pack's report, or REGISTER_NOT_RATIFIED without seal or report."""
        report_path = effective_pair(path)[1]
        if pack.mastery_report_sha256 and report_path.is_file():
            return report_path
        no_seal = not pack.mastery_report_sha256
        reason = "no mastery_report_sha256" if no_seal else "no mastery report"
        message = (
            f"register pack {pack.register_id!r} at {path} is not ratified ({reason}); "
            f"run `python -m reference ratify {path}`"
        )
        fail("REGISTER_NOT_RATIFIED", message, SEAL_FIELD)

    def report_seal_verifies(self, report: dict[str, Any]) -> bool:
        """Whether the report's own seal matches its content."""
        return verify_report_seal(report)

    def read_report(self, report_path: Path, register_id: str) -> dict[str, Any]:
        """The report at *report_path*: sealed, in normal form, ratifying *register_id*."""
        raw, report = read_json(report_path, code="REGISTER_SEAL_MISMATCH", field=REPORT)
        if not isinstance(report, dict) or not self.report_seal_verifies(report):
            message = f"{report_path}: the report's seal does not verify"
            fail("REGISTER_SEAL_MISMATCH", message, REPORT)
        if raw != pretty_json(report).encode("utf-8"):
            message = f"{report_path}: the report is not in the normal form written by ratify"
            fail("REGISTER_SEAL_MISMATCH", message, REPORT)
        if report.get("register_id") != register_id:
            message = f"{report_path}: report register_id is not {register_id!r}"
            fail("REGISTER_SEAL_MISMATCH", message, f"{REPORT}.register_id")
        if report.get("verdict") != VERDICT_RATIFIED:
            message = f"{report_path}: report verdict is not {VERDICT_RATIFIED!r}"
            fail("REGISTER_SEAL_MISMATCH", message, f"{REPORT}.verdict")
        return report

    def check_seal(self, pack: RegisterPack, report: dict[str, Any]) -> None:
        """Refuse a pack whose ``mastery_report_sha256`` is not its report's seal."""
        if pack.mastery_report_sha256 != report[SEAL_KEY]:
            message = f"{SEAL_FIELD} of {pack.register_id!r} does not match its report's seal"
            fail("REGISTER_SEAL_MISMATCH", message, SEAL_FIELD)

    def check_untampered(self, pack: RegisterPack, raw: bytes, report: dict[str, Any]) -> None:
        """Refuse a pack whose content or bytes differ from what was ratified."""
        if pack_source_sha256(pack.as_json()) != report.get("pack_source_sha256"):
            message = f"content of {pack.register_id!r} differs from what was ratified"
            fail("REGISTER_TAMPERED", message, "pack_source_sha256")
        if raw != pretty_json(pack.as_json()).encode("utf-8"):
            message = f"file of {pack.register_id!r} is not in the normal form written by ratify"
            fail("REGISTER_TAMPERED", message, None)


def load_register_pack(
    register_id: str | None, *, search_path: Sequence[Path] = ()
) -> RegisterPack:
    """Load the ratified pack *register_id* with :class:`PackLoader`; ``None`` gives UNREGISTERED.

    Raises :class:`~reference.errors.RegisterError` unless the pack is found,
    well formed, ratified, sealed and byte-for-byte untampered.
    """
    if register_id is None:
        return UNREGISTERED
    return PackLoader().load(register_id, search_path)


def _is_pack_file(path: Path) -> bool:
    if not path.is_file() or path.name.endswith(REPORT_SUFFIX):
        return False
    try:
        validate_register_id(path.stem)
    except RegisterError:
        return False
    return True


def list_register_ids(search_path: Sequence[Path] = ()) -> tuple[str, ...]:
    """Sorted ids of every ``<id>.json`` pack file along the search path (not verified)."""
    found = {
        path.stem
        for directory in search_dirs(search_path)
        if directory.is_dir()
        for path in directory.glob("*.json")
        if _is_pack_file(path)
    }
    return tuple(sorted(found))
