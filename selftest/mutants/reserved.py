"""Broken handling of reserved and closed-list values: each class bends one comparison."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from reference.registers import PackLoader
from reference.registers.loader import find_pack_file
from reference.registers.model import RegisterPack
from reference.registers.validate import fail
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler

SENTINEL_ID = "unregistered"


class _SentinelFileLoader(PackLoader):
    def locate(self, register_id: str, search_path: Any) -> Path:
        return find_pack_file(register_id, search_path)


class SentinelIdLoadable(ProtocolHandler):
    """register.load reads a ratified unregistered.json: the sentinel's id is loadable."""

    pack_loader = _SentinelFileLoader()


class SentinelIdOpensBare(ProtocolHandler):
    """session.open takes "unregistered" for null: the sentinel's id opens the sentinel."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        bare = None if register_id == SENTINEL_ID else register_id
        return super().new_runtime(bare, search_path)


class NullStringOpensBare(ProtocolHandler):
    """session.open reads the strings "null" and "None" as null: they open the sentinel."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        bare = None if register_id in ("null", "None") else register_id
        return super().new_runtime(bare, search_path)


class LookalikeReportedAsSentinel(ProtocolHandler):
    """session.chat reports null for every register id that case-folds to "unregistered"."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        said = super().chat(runtime, text)
        if str(said.get("register_id")).casefold() == SENTINEL_ID:
            said = {**said, "register_id": None}
        return said


class SentinelIdInvalid(ProtocolHandler):
    """register.validate and register.ratify refuse a pack spelling its id "unregistered"."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        if isinstance(pack, dict) and pack.get("register_id") == SENTINEL_ID:
            fail("REGISTER_INVALID_ID", "register_id 'unregistered' is reserved", "register_id")
        return super().validate_pack(pack, expected_id)


class ExpectedIdCaseFolded(ProtocolHandler):
    """register.validate compares the pack's id with expected_id case-insensitively."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        declared = pack.get("register_id") if isinstance(pack, dict) else None
        same = isinstance(declared, str) and isinstance(expected_id, str)
        if same and str(declared).casefold() == str(expected_id).casefold():
            expected_id = declared
        return super().validate_pack(pack, expected_id)


class SentinelStemRefused(ProtocolHandler):
    """register.ratify_file refuses the stem "unregistered" as an invalid id."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        if path.stem == SENTINEL_ID:
            fail("REGISTER_INVALID_ID", "the stem 'unregistered' is reserved", "path")
        return super().ratify_pack(path)


class LookalikeIdRefused(ProtocolHandler):
    """register.load refuses every id that case-folds to one starting "unregistered"."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        if register_id.casefold().startswith(SENTINEL_ID):
            fail("REGISTER_NOT_FOUND", f"{register_id!r} is reserved", "register_id")
        return super().load_pack(register_id, search_path)


class IntentCaseFolded(ProtocolHandler):
    """overrides.resolve compares intent names case-insensitively."""

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        intent = args.get("intent")
        folded = {**args, "intent": intent.upper()} if isinstance(intent, str) else args
        return super().op_overrides_resolve(folded)


class DepthTrimmed(ProtocolHandler):
    """depth_preference is trimmed of surrounding whitespace before it is compared."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        depth = pack.get("depth_preference") if isinstance(pack, dict) else None
        if isinstance(depth, str):
            pack = {**pack, "depth_preference": depth.strip()}
        return super().validate_pack(pack, expected_id)


class BucketNamesNfkc(ProtocolHandler):
    """variation.decorate maps bucket names through NFKC (a fullwidth name is a bucket)."""

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        markers = args.get("discourse_markers")
        if isinstance(markers, dict):
            mapped = {unicodedata.normalize("NFKC", k): v for k, v in markers.items()}
            args = {**args, "discourse_markers": mapped}
        return super().op_variation_decorate(args)


class OpNamesCaseFolded(ProtocolHandler):
    """An op name is looked up lower-cased: Hello is hello."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and isinstance(request.get("op"), str):
            op = request["op"].lower()
            if op in self.ops:
                request = {**request, "op": op}
        return super().dispatch(request)


def _loosened(mutation: Any) -> Any:
    if not isinstance(mutation, dict):
        return mutation
    out = dict(mutation)
    if isinstance(out.get("op"), str):
        out["op"] = out["op"].strip().lower()
    if isinstance(out.get("kind"), str):
        out["kind"] = out["kind"].strip().lower()
    record = out.get("record")
    if isinstance(record, dict) and isinstance(record.get("kind"), str):
        out["record"] = {**record, "kind": record["kind"].strip().lower()}
    return out


class MutationNamesLoosened(ProtocolHandler):
    """state.apply trims and lower-cases mutation ops and record kinds before matching."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        mutations = args.get("mutations")
        if isinstance(mutations, list):
            args = {**args, "mutations": [_loosened(m) for m in mutations]}
        return super().op_state_apply(args)
