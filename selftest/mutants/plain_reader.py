"""Ops defined by reference to the loader that load otherwise: a pack file read with a
plain JSON reader instead of the loader's guarded one (docs/registers.md § Loading, step 4):
a number past a bound, NaN or nesting deeper than 64 levels parses, and the pack's own checks
refuse it naming a field, where the loader refuses the file as REGISTER_MALFORMED, field
null; or the seal compared before the loader's steps."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from reference.registers.model import SEAL_FIELD, RegisterPack
from reference.registers.ratify import Ratifier
from reference.registers.seal import SEAL_KEY
from reference.registers.validate import fail, parse_pack
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler


def _plain_pack(path: Path, expected_id: str) -> RegisterPack:
    """The pack at *path* read with the language's plain JSON parser (no bounds)."""
    try:
        data = json.loads(path.read_bytes())
    except ValueError:
        fail("REGISTER_MALFORMED", f"{path} is not valid JSON", None)
    return parse_pack(data, expected_id=expected_id)


class _PlainReadRatifier(Ratifier):
    """Parses the pack with a plain JSON reader before the loader's read."""

    def read(self, path: Path) -> RegisterPack:
        path = Path(path)
        if path.suffix == ".json" and path.is_file():
            _plain_pack(path, path.stem)
        return super().read(path)


class RatifyPlainReader(ProtocolHandler):
    """register.ratify_file parses the pack with a plain JSON reader, not the loader's
    guarded one: a pack past a bound of the reader is refused by its field's own check."""

    @functools.cached_property
    def ratifier(self) -> Ratifier:
        return _PlainReadRatifier()


class OpenPlainReader(ProtocolHandler):
    """session.open parses a staged pack with a plain JSON reader before loading it, not
    with the loader's guarded one: a pack past a bound is refused by its field's check."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        for directory in search_path:
            candidate = Path(directory) / f"{register_id}.json"
            if register_id is not None and candidate.is_file():
                _plain_pack(candidate, register_id)
                break
        return super().new_runtime(register_id, search_path)


class OpenSealBeforeStructure(ProtocolHandler):
    """session.open compares the pack's seal with its report's before the loader's steps run
    (as a port whose sessions check the seal first would): a pack with a structural fault
    and a seal that differs is REGISTER_SEAL_MISMATCH, where loading it stops at step 5."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        for directory in search_path:
            pack_path = Path(directory) / f"{register_id}.json"
            report_path = Path(directory) / f"{register_id}.mastery_report.json"
            if register_id is None or not pack_path.is_file() or not report_path.is_file():
                continue
            try:
                pack, report = (
                    json.loads(pack_path.read_bytes()),
                    json.loads(report_path.read_bytes()),
                )
            except ValueError:
                break
            differs = isinstance(pack, dict) and isinstance(report, dict)
            if differs and pack.get(SEAL_FIELD) != report.get(SEAL_KEY):
                fail("REGISTER_SEAL_MISMATCH", "the seal differs", SEAL_FIELD)
            break
        return super().new_runtime(register_id, search_path)


class OpenPackBomDropped(ProtocolHandler):
    """session.open decodes each file it is given as text before staging it, which drops a
    leading byte order mark (as JavaScript's TextDecoder does by default): a ratified pack
    with a BOM first opens, where register.load refuses it as out of normal form."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        for directory in search_path:
            for path in Path(directory).glob("*.json"):
                raw = path.read_bytes()
                if raw.startswith(b"\xef\xbb\xbf"):
                    path.write_bytes(raw[3:])
        return super().new_runtime(register_id, search_path)


class OpenSealCaseFolded(ProtocolHandler):
    """session.open reads the pack's seal as a hex value (lower-cased before the loader
    compares it, as a port whose sessions parse digests into bytes would): a pack whose
    mastery_report_sha256 is spelt in upper case opens, where register.load refuses it."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        for directory in search_path:
            path = Path(directory) / f"{register_id}.json"
            if register_id is None or not path.is_file():
                continue
            raw = path.read_bytes()
            try:
                seal = json.loads(raw).get(SEAL_FIELD)
            except (ValueError, AttributeError):
                break
            if isinstance(seal, str) and seal and seal != seal.lower():
                path.write_bytes(raw.replace(seal.encode(), seal.lower().encode(), 1))
            break
        return super().new_runtime(register_id, search_path)
