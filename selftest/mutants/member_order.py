"""Broken engines that use the order an object's members arrive in where the docs say
sorted (PROTO-ORDER-006): a Node port's ``Object.keys``, a Go or Rust ordered map."""

from __future__ import annotations

import functools
from typing import Any

from reference.registers.model import RegisterPack
from reference.registers.ratify import Ratifier
from reference.registers.validate import fail
from reference.serve import ProtocolHandler


class _ArrivalRatifier(Ratifier):
    """Lists the evidence's override keys in the order the request's pack gave them."""

    arrival: dict[str, Any] = {}

    def evidence(self, pack: RegisterPack) -> dict[str, Any]:
        evidence = super().evidence(pack)
        overrides = self.arrival.get("realizer_overrides")
        if isinstance(overrides, dict):
            evidence["realizer_overrides_keys"] = list(overrides)
            per_intent = overrides.get("per_intent")
            if isinstance(per_intent, dict):
                evidence["per_intent_keys"] = list(per_intent)
        return evidence


class EvidenceKeysInArrivalOrder(ProtocolHandler):
    """register.ratify's evidence lists realizer_overrides_keys and per_intent_keys in the
    pack's member order, not sorted (and seals the report over that order)."""

    @functools.cached_property
    def ratifier(self) -> Ratifier:
        return _ArrivalRatifier()

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        ratifier = self.ratifier
        assert isinstance(ratifier, _ArrivalRatifier)
        pack = args.get("pack")
        ratifier.arrival = pack if isinstance(pack, dict) else {}
        return super().op_register_ratify(args)


class UnknownIntentInArrivalOrder(ProtocolHandler):
    """Of several per_intent keys that are no IntentTag name, REGISTER_UNKNOWN_INTENT names
    the first the pack lists, not the first in sorted order."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        from reference.registers.validate import intent_names

        overrides = pack.get("realizer_overrides") if isinstance(pack, dict) else None
        per_intent = overrides.get("per_intent") if isinstance(overrides, dict) else None
        if isinstance(per_intent, dict):
            for intent in per_intent:
                if intent not in intent_names():
                    at = f"realizer_overrides.per_intent.{intent}"
                    fail("REGISTER_UNKNOWN_INTENT", f"{at!r} is not an IntentTag name", at)
        return super().validate_pack(pack, expected_id)
