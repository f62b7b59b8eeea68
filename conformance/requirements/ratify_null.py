"""The ratification gate's null rule on its edges: what counts, what does not, every depth.

LOAD-RATIFY-001 refuses one null pack, a terse one whose three buckets are all empty, and
ratifies null packs only at depth ``standard`` and marker packs only at ``standard`` too. So
a gate that counts ``transitions`` (docs/registers.md § The ratification gate: "`transitions`
do not count"), refuses only ``terse`` (the rule is "only with `depth_preference ==
"standard"`", so ``pedagogical`` is refused as well), refuses every pack without overrides
at a non-standard depth, or reads an override object holding an empty ``per_intent`` as
empty passes it. Here each pack sits on one side of one clause: transitions only, at each
depth; nothing, at ``pedagogical``; one opening or one empty closing (a bucket holding
``""`` is not empty) at a non-standard depth; overrides holding only an empty ``per_intent``
or an empty per-intent entry (the object is not empty). The refusal is
``REGISTER_EMPTY_NON_NULL``, field ``depth_preference``, the message naming it; a ratified
pack's report carries the methods and ``null_register`` the rule gives.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import member
from conformance.requirements.registry import requirement

NULL = "byte_identity_null_lift"
OVERRIDES = "known_key_overrides_invariant_grounding"
MARKERS = "seeded_variation_replay_equivalence"
REFUSED = "REGISTER_EMPTY_NON_NULL"

RID = "null_edge_v1"


def _pack(depth: str, *, overrides: dict[str, Any] | None = None, **buckets: list[str]) -> Any:
    markers = {"openings": [], "transitions": [], "closings": [], **buckets}
    return gen.pack(RID, overrides=overrides or {}, markers=markers, depth_preference=depth)


CASES: dict[str, tuple[dict[str, Any], list[str] | None]] = {
    "transitions only, terse (transitions do not count: refused)": (
        _pack("terse", transitions=["Also,"]),
        None,
    ),
    "transitions only, pedagogical (refused)": (_pack("pedagogical", transitions=["Next,"]), None),
    "nothing at all, pedagogical (only standard is accepted)": (_pack("pedagogical"), None),
    "transitions only, standard (a null pack)": (_pack("standard", transitions=["Also,"]), [NULL]),
    "one opening, terse (not null)": (_pack("terse", openings=["So,"]), [MARKERS]),
    "one empty closing, pedagogical (a bucket holding an empty string is not empty)": (
        _pack("pedagogical", closings=[""]),
        [MARKERS],
    ),
    "overrides holding an empty per_intent, terse (the object is not empty)": (
        _pack("terse", overrides={"per_intent": {}}),
        [OVERRIDES],
    ),
    "overrides holding an empty CAUSE entry, pedagogical": (
        _pack("pedagogical", overrides={"per_intent": {"CAUSE": {}}}),
        [OVERRIDES],
    ),
}
"""Packs on either side of one clause of the null rule: the methods a ratified one gets
(docs/registers.md § The ratification gate), or ``None`` for REGISTER_EMPTY_NON_NULL."""


@requirement(
    "LOAD-NULL-001",
    "the null rule on its edges: transitions do not make a pack non-null, a null pack is "
    "refused at every depth but standard (pedagogical too), and a pack with one opening, one "
    "empty closing or overrides holding only an empty per_intent is not null at any depth "
    "(its methods and null_register say so)",
    family="loader",
    capabilities=("registers.ratify",),
    seed="docs/registers.md § The ratification gate (the null rule: transitions do not count; "
    'accepted only with depth_preference == "standard"; methods)',
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("null-rule edges", sorted(CASES)),
)
def null_rule_edges(engine: EngineClient, name: str) -> None:
    document, methods = CASES[name]
    try:
        result = engine.call("register.ratify", {"pack": document})
    except EngineRefused as refusal:
        assert methods is None, (
            f"{name}: refused with {refusal.code} ({refusal.message}); the pack is ratified "
            f"with methods {methods}"
        )
        assert refusal.code == REFUSED, f"{name}: refused with {refusal.code}, expected {REFUSED}"
        assert refusal.field == "depth_preference", (
            f"{name}: refusal field {refusal.field!r}, expected 'depth_preference'"
        )
        assert "depth_preference" in refusal.message, (
            f"{name}: message {refusal.message!r} does not name depth_preference"
        )
        return
    assert methods is not None, (
        f"{name}: ratified; a null pack claiming depth {document['depth_preference']!r} is "
        f"{REFUSED}"
    )
    report = member(result, "report", "object")
    got = [str(m) for m in member(report, "methods", "array")]
    assert got == methods, f"{name}: methods {got!r}, expected {methods!r}"
    evidence = member(report, "evidence", "object")
    null = member(evidence, "null_register", "boolean")
    assert null == (methods == [NULL]), f"{name}: null_register {null!r}"
