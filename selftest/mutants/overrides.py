"""Broken override resolution: precedence, clamp and the per_intent gate."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from reference.protocol.envelope import bad_arg
from reference.realize.depth import (
    DEFAULT_DISCLOSURE_DOMAIN_COUNT,
    DISCLOSURE_KEY,
    resolve_disclosure_domain_count,
)
from reference.registers.model import PER_INTENT_KEY, RegisterPack
from reference.registers.validate import intent_names
from reference.serve import ProtocolHandler


class PerIntentIgnored(ProtocolHandler):
    """Depth resolution ignores per_intent, in overrides.resolve and in chat alike."""

    def resolve_overrides(self, overrides: Mapping[str, object], intent_name: str) -> int:
        flat = {key: value for key, value in overrides.items() if key != PER_INTENT_KEY}
        return resolve_disclosure_domain_count(flat, intent_name)


class FlatBeatsPerIntent(ProtocolHandler):
    """Depth resolution lets the flat key win over per_intent."""

    def resolve_overrides(self, overrides: Mapping[str, object], intent_name: str) -> int:
        if DISCLOSURE_KEY in overrides:
            return resolve_disclosure_domain_count(
                {DISCLOSURE_KEY: overrides[DISCLOSURE_KEY]}, intent_name
            )
        return super().resolve_overrides(overrides, intent_name)


def _raw_depth(value: object) -> int:
    return value if type(value) is int else DEFAULT_DISCLOSURE_DOMAIN_COUNT


class NoClamp(ProtocolHandler):
    """Depth resolution returns any integer as is; only non-integers fall back to 3."""

    def resolve_overrides(self, overrides: Mapping[str, object], intent_name: str) -> int:
        scoped = overrides.get(PER_INTENT_KEY)
        entry = scoped.get(intent_name) if isinstance(scoped, Mapping) else None
        if isinstance(entry, Mapping) and DISCLOSURE_KEY in entry:
            return _raw_depth(entry[DISCLOSURE_KEY])
        if DISCLOSURE_KEY in overrides:
            return _raw_depth(overrides[DISCLOSURE_KEY])
        return DEFAULT_DISCLOSURE_DOMAIN_COUNT


class EntryWithoutDepthPresent(ProtocolHandler):
    """A per_intent entry counts as present even without the depth key (it clamps to 3)."""

    def resolve_overrides(self, overrides: Mapping[str, object], intent_name: str) -> int:
        scoped = overrides.get(PER_INTENT_KEY)
        entry = scoped.get(intent_name) if isinstance(scoped, Mapping) else None
        if isinstance(entry, Mapping):
            return _raw_or_default(entry.get(DISCLOSURE_KEY))
        return super().resolve_overrides(overrides, intent_name)


class EntryNotObjectPresent(ProtocolHandler):
    """A per_intent entry that is not an object counts as present (it clamps to 3)."""

    def resolve_overrides(self, overrides: Mapping[str, object], intent_name: str) -> int:
        scoped = overrides.get(PER_INTENT_KEY)
        if isinstance(scoped, Mapping) and intent_name in scoped:
            entry = scoped[intent_name]
            if not isinstance(entry, Mapping):
                return DEFAULT_DISCLOSURE_DOMAIN_COUNT
        return super().resolve_overrides(overrides, intent_name)


def _raw_or_default(value: object) -> int:
    return value if type(value) is int and value in (1, 2, 3) else DEFAULT_DISCLOSURE_DOMAIN_COUNT


class UnknownIntentAccepted(ProtocolHandler):
    """Validation never checks per_intent keys against the IntentTag names."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        overrides = pack.get("realizer_overrides")
        scoped = overrides.get(PER_INTENT_KEY) if isinstance(overrides, dict) else None
        if isinstance(scoped, dict):
            pack = copy.deepcopy(pack)
            known = {k: v for k, v in scoped.items() if k in intent_names()}
            pack["realizer_overrides"][PER_INTENT_KEY] = known
        return super().validate_pack(pack, expected_id)


class LenientResolve(ProtocolHandler):
    """overrides.resolve answers ok to non-object overrides and unknown intents."""

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        overrides = args.get("realizer_overrides")
        intent = args.get("intent")
        count = self.resolve_overrides(
            overrides if isinstance(overrides, dict) else {},
            intent if isinstance(intent, str) else "UNKNOWN",
        )
        return {"disclosure_domain_count": count}


class ResolveValidatesKeys(ProtocolHandler):
    """overrides.resolve refuses an override key outside the allow-list, as the pack
    validator does, instead of ignoring it."""

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        overrides = args.get("realizer_overrides")
        if isinstance(overrides, dict):
            for key in sorted(overrides):
                if key not in ("disclosure_domain_count", "per_intent"):
                    bad_arg("realizer_overrides", f"unknown override {key!r}")
        return super().op_overrides_resolve(args)
