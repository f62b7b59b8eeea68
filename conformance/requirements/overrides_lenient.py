"""overrides.resolve never validates the overrides: a name no pack may hold is ignored.

docs/protocol.md § overrides.resolve: "The op never validates the overrides: a malformed
value (not an integer in {1, 2, 3}) clamps to 3." OVR-RESOLVE-001 and OVR-RESOLVE-002 send
overrides whose keys are all on the allow-list (their shapes and depths vary), so a port that
runs the pack validator of docs/registers.md § Structural check order over the overrides
before resolving them, refusing an unknown override key, a per_intent key that is not an
IntentTag name or an unknown key inside an entry, passes them. Here each of those names
stands beside a depth that resolves: the op answers the depth the docs' precedence gives
(per_intent[intent] over the flat key over the default 3), the unknown name ignored.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

D = "disclosure_domain_count"
CASES: dict[str, tuple[dict[str, Any], str, int]] = {
    "an unknown override key alone (the default 3)": ({"colour": 1}, "DEFINITION", 3),
    "an unknown override key beside a flat depth 1": ({"colour": 1, D: 1}, "CAUSE", 1),
    "a per_intent key that is not an intent name (lower case), flat 2": (
        {"per_intent": {"definition": {D: 1}}, D: 2},
        "DEFINITION",
        2,
    ),
    "a per_intent key that is not an intent name (trailing space), no flat depth": (
        {"per_intent": {"CAUSE ": {D: 1}}},
        "CAUSE",
        3,
    ),
    "an unknown key inside the intent's entry beside its depth 1": (
        {"per_intent": {"RECALL": {D: 1, "colour": 5}}, D: 2},
        "RECALL",
        1,
    ),
    "per_intent inside the intent's entry beside its depth 2": (
        {"per_intent": {"EXAMPLE": {"per_intent": {}, D: 2}}},
        "EXAMPLE",
        2,
    ),
}
"""Overrides holding a name no pack may hold, the intent asked for, and the depth the
precedence gives (docs/protocol.md § overrides.resolve)."""


@requirement(
    "OVR-RESOLVE-003",
    "overrides.resolve never validates: an unknown override key, a per_intent key that is "
    "not an intent name and an unknown key inside an entry are ignored, and the depth is the "
    "precedence's",
    family="overrides",
    capabilities=("overrides",),
    seed="docs/protocol.md § overrides.resolve (the op never validates the overrides)",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("names no pack may hold", sorted(CASES)),
)
def resolve_ignores_unknown_names(engine: EngineClient, name: str) -> None:
    overrides, intent, want = CASES[name]
    try:
        got = engine.call("overrides.resolve", {"realizer_overrides": overrides, "intent": intent})
    except EngineRefused as refusal:
        raise AssertionError(
            f"{name}: refused with {refusal.code} ({refusal.field}); the op never validates "
            f"the overrides, and they resolve to {want}"
        ) from None
    depth = got.get("disclosure_domain_count")
    assert depth == want, f"{name}: {overrides} for {intent} resolved to {depth!r}, not {want}"
