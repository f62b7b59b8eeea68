"""A ratification gate that drops markers past the bounds instead of refusing the pack
(docs/registers.md § The ratification gate, step 2: parse exactly as the loader does):
``register.validate`` and loading stay the reference's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reference.registers import Ratifier
from reference.registers.model import MAX_MARKER_LEN, MAX_MARKERS_PER_BUCKET, RegisterPack
from reference.registers.validate import fail, parse_pack, validate_register_id
from reference.serve import ProtocolHandler


def _trimmed(pack: object) -> object:
    """*pack* with each bucket cut to its bound and each marker past its bound dropped."""
    if not isinstance(pack, dict) or not isinstance(pack.get("discourse_markers"), dict):
        return pack

    def cut(bucket: object) -> object:
        if not isinstance(bucket, list):
            return bucket
        kept = [m for m in bucket if not (isinstance(m, str) and len(m) > MAX_MARKER_LEN)]
        return kept[:MAX_MARKERS_PER_BUCKET]

    buckets = {name: cut(bucket) for name, bucket in pack["discourse_markers"].items()}
    return {**pack, "discourse_markers": buckets}


class RatifyTrimsMarkers(ProtocolHandler):
    """register.ratify drops markers past the bounds and seals the rest."""

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_register_ratify({**args, "pack": _trimmed(args.get("pack"))})


class _TrimmingRatifier(Ratifier):
    def read(self, path: Path) -> RegisterPack:
        if path.suffix != ".json":
            fail("REGISTER_MALFORMED", f"{path}: a register pack file must end in .json", "path")
        if not path.is_file():
            fail("REGISTER_NOT_FOUND", f"{path}: no such register pack file", "path")
        validate_register_id(path.stem)
        return parse_pack(_trimmed(json.loads(path.read_bytes())), expected_id=path.stem)


class RatifyFileTrimsMarkers(ProtocolHandler):
    """register.ratify_file drops markers past the bounds and seals the rest in place."""

    ratifier = _TrimmingRatifier()
