"""Two checks of one step run in another order than the docs list them: each engine is
right on one fault alone and answers for the wrong one of two."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reference.protocol.envelope import OpSpec, bad_arg, refuse
from reference.registers import Ratifier, RegisterPack, loader
from reference.registers.validate import fail
from reference.serve import ProtocolHandler
from reference.state.records import CURRENT_SCHEMA_VERSION


class ExistenceBeforeSuffix(Ratifier):
    """A ratifier that asks whether the path exists before whether it ends in .json."""

    def read(self, path: Path) -> RegisterPack:
        if not path.is_file():
            fail("REGISTER_NOT_FOUND", f"{path}: no such register pack file", "path")
        return super().read(path)


class Order2ExistsBeforeSuffix(ProtocolHandler):
    """register.ratify_file checks that the path exists before its .json suffix."""

    ratifier = ExistenceBeforeSuffix()


class ContentBeforeStem(Ratifier):
    """A ratifier that reads and parses the file before it checks the stem's id rules."""

    def read(self, path: Path) -> RegisterPack:
        if path.suffix == ".json" and path.is_file():
            loader.read_pack_file(path, expected_id=path.stem)
        return super().read(path)


class Order2ContentBeforeStem(ProtocolHandler):
    """register.ratify_file reads the pack before it validates the path's stem as an id."""

    ratifier = ContentBeforeStem()


class Order2FileBeforeId(ProtocolHandler):
    """register.load searches for and reads the id's file before it validates the id."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        path = self.pack_loader.locate(register_id, search_path)
        self.pack_loader.read_pack(path, register_id)
        return super().load_pack(register_id, search_path)


class Order2UnknownNamesAsSent(ProtocolHandler):
    """Unknown argument names are refused in the order the request holds them, not sorted."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and isinstance(request.get("args"), dict):
            spec = self.ops.get(request.get("op"))  # type: ignore[arg-type]
            if isinstance(spec, OpSpec):
                for name in request["args"]:
                    if name not in spec.required and name not in spec.optional:
                        bad_arg(name, f"unknown argument {name!r}")
        return super().dispatch(request)


class Order2SchemaBeforeFields(ProtocolHandler):
    """state.load reads a manifest's schema version before it checks the manifest has its
    required fields: a manifest that lacks one is refused for its schema version."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        directory = args.get("dir")
        if isinstance(directory, str) and directory:
            for manifest in sorted(Path(directory).glob("gen-*/manifest.json")):
                try:
                    document = json.loads(manifest.read_text("utf-8"))
                except (OSError, ValueError):
                    continue
                if not isinstance(document, dict) or "checksum" in document:
                    continue
                version = document.get("schema_version")
                if not isinstance(version, int) or isinstance(version, bool):
                    refuse("STATE_SCHEMA_MALFORMED", f"{manifest}: bad version", "schema_version")
                if version > CURRENT_SCHEMA_VERSION:
                    refuse("STATE_SCHEMA_TOO_NEW", f"{manifest}: newer", "schema_version")
        return super().op_state_load(args)
