"""Ordered sub-checks over several members: each sub-check runs over every member before
the next sub-check runs.

docs/registers.md § Structural check order lists, inside one step, sub-checks separated by
";" (step 9: bucket names known, sorted; then per bucket ...; step 10: top-level keys
known, sorted; flat values in bounds; ``per_intent`` an object; its keys intent names,
sorted; then per intent ...), and steps 2 to 4 each run over the pack's members. A port
that makes one pass over the sorted members and runs every sub-check on each member as it
goes agrees with the docs whenever the earlier sub-check's fault sits on the member that
sorts first, and answers for the wrong member when it sits on one that sorts after. So
each pair here puts the later sub-check's fault on a member that sorts before the earlier
one's (and, as a control, after it), and expects the earlier sub-check's code and field.
Where the docs nest per member instead ("then per bucket in the order openings,
transitions, closings: ...", "then per intent, sorted: ..."), the pair is the reverse: a
fault of a later sub-check on the first member answers before an earlier sub-check's fault
on a later member.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

SUBCHECKS = (
    "docs/registers.md § Structural check order (the sub-checks of a step, separated by "
    '";", each over every member before the next; per bucket and per intent where it says so)'
)

TOO_MANY = [f"m{i}" for i in range(33)]
TOO_LONG = "x" * 129
MARKERS = "discourse_markers"
OVERRIDES = "realizer_overrides"
PER_INTENT = f"{OVERRIDES}.per_intent"

Want = tuple[str, str]
Case = tuple[dict[str, Any], str | None, Want]


def _pack(**changes: Any) -> dict[str, Any]:
    """A valid pack (one marker in openings and closings, a flat override) with *changes*;
    a change to None drops the field."""
    markers = {"openings": ["So,"], "closings": [""], "transitions": []}
    pack = gen.pack("members_v1", overrides={"disclosure_domain_count": 2}, markers=markers)
    for key, value in changes.items():
        if value is None:
            del pack[key]
        else:
            pack[key] = value
    return pack


def _side(name: str, fault: str) -> str:
    """'before' or 'after': where *name* sorts beside *fault* (code point order)."""
    return "before" if name < fault else "after"


# Step 9: bucket names known (all of them) before any bucket is read. -----------------------

BUCKET_FAULTS: dict[str, tuple[Any, str, str]] = {
    "not a list": ("x", "REGISTER_MALFORMED", ""),
    "with 33 markers": (TOO_MANY, "REGISTER_BUCKET_TOO_LARGE", ""),
    "with marker 0 a number": ([5], "REGISTER_MALFORMED", "[0]"),
    "with marker 0 too long": ([TOO_LONG], "REGISTER_MARKER_TOO_LONG", "[0]"),
}
"""A fault of each sub-check after the bucket names, the code and the field's suffix."""

UNKNOWN_BUCKETS = ("asides", "zeugmas")
"""Unknown bucket names: one sorts before every bucket, one after."""


def _bucket_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for bucket in ("openings", "transitions", "closings"):
        for fault, (value, _code, _suffix) in BUCKET_FAULTS.items():
            for unknown in UNKNOWN_BUCKETS:
                markers = {"openings": ["So,"], "closings": [""], bucket: value, unknown: []}
                name = (
                    f"step 9: unknown bucket {unknown} sorted {_side(unknown, bucket)} "
                    f"{bucket} {fault} (bucket names first)"
                )
                cases[name] = (
                    _pack(discourse_markers=markers),
                    None,
                    ("REGISTER_UNKNOWN_BUCKET", f"{MARKERS}.{unknown}"),
                )
    nested: dict[str, tuple[dict[str, Any], Want]] = {
        "openings[0] a number and transitions not a list (per bucket: openings first)": (
            {"openings": [5], "transitions": "t"},
            ("REGISTER_MALFORMED", f"{MARKERS}.openings[0]"),
        ),
        "openings[0] too long and closings with 33 markers (per bucket: openings first)": (
            {"openings": [TOO_LONG], "closings": TOO_MANY},
            ("REGISTER_MARKER_TOO_LONG", f"{MARKERS}.openings[0]"),
        ),
        "transitions[0] too long and closings not a list (per bucket: transitions first)": (
            {"transitions": [TOO_LONG], "closings": "c"},
            ("REGISTER_MARKER_TOO_LONG", f"{MARKERS}.transitions[0]"),
        ),
    }
    for name, (buckets, want) in nested.items():
        markers = {"openings": ["So,"], "closings": [""], **buckets}
        cases[f"step 9: {name}"] = (_pack(discourse_markers=markers), None, want)
    return cases


# Step 10: keys known; flat values in bounds; per_intent an object; intent names; per intent.

LATER_OVERRIDE_FAULTS: dict[str, tuple[dict[str, Any], Want]] = {
    "disclosure_domain_count 9": (
        {"disclosure_domain_count": 9},
        ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{OVERRIDES}.disclosure_domain_count"),
    ),
    "per_intent a number": (
        {"per_intent": 5},
        ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", PER_INTENT),
    ),
    "per_intent with an unknown intent ABOUT": (
        {"per_intent": {"ABOUT": {}}},
        ("REGISTER_UNKNOWN_INTENT", f"{PER_INTENT}.ABOUT"),
    ),
    "per_intent CAUSE a number": (
        {"per_intent": {"CAUSE": 5}},
        ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{PER_INTENT}.CAUSE"),
    ),
    "per_intent CAUSE with an unknown key colour": (
        {"per_intent": {"CAUSE": {"colour": 1}}},
        ("REGISTER_UNKNOWN_OVERRIDE", f"{PER_INTENT}.CAUSE.colour"),
    ),
    "per_intent CAUSE with disclosure_domain_count 9": (
        {"per_intent": {"CAUSE": {"disclosure_domain_count": 9}}},
        ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{PER_INTENT}.CAUSE.disclosure_domain_count"),
    ),
}
"""A fault of each sub-check after the top-level keys, and its answer alone."""

UNKNOWN_KEYS = ("colour", "verbosity")
"""Unknown override keys: colour sorts before disclosure_domain_count and per_intent,
verbosity after both."""

INTENT_FAULTS = (
    "per_intent CAUSE a number",
    "per_intent CAUSE with an unknown key colour",
    "per_intent CAUSE with disclosure_domain_count 9",
)
UNKNOWN_INTENTS = ("ABOUT", "ZEBRA")
"""Unknown intent names: ABOUT sorts before CAUSE, ZEBRA after it."""


def _override_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for fault, (overrides, _want) in LATER_OVERRIDE_FAULTS.items():
        faulty = next(iter(overrides))
        for unknown in UNKNOWN_KEYS:
            name = (
                f"step 10: unknown key {unknown} sorted {_side(unknown, faulty)} {fault} "
                "(keys known first)"
            )
            cases[name] = (
                _pack(realizer_overrides={**overrides, unknown: 1}),
                None,
                ("REGISTER_UNKNOWN_OVERRIDE", f"{OVERRIDES}.{unknown}"),
            )
        if faulty == "per_intent":
            name = f"step 10: disclosure_domain_count 9 and {fault} (flat values first)"
            cases[name] = (
                _pack(realizer_overrides={**overrides, "disclosure_domain_count": 9}),
                None,
                LATER_OVERRIDE_FAULTS["disclosure_domain_count 9"][1],
            )
    for fault in INTENT_FAULTS:
        value = LATER_OVERRIDE_FAULTS[fault][0]["per_intent"]["CAUSE"]
        for unknown in UNKNOWN_INTENTS:
            name = (
                f"step 10: unknown intent {unknown} sorted {_side(unknown, 'CAUSE')} "
                f"{fault[len('per_intent ') :]} (intent names first)"
            )
            per_intent = {"CAUSE": value, unknown: {}}
            cases[name] = (
                _pack(realizer_overrides={"per_intent": per_intent}),
                None,
                ("REGISTER_UNKNOWN_INTENT", f"{PER_INTENT}.{unknown}"),
            )
    for unknown in UNKNOWN_KEYS:
        name = (
            f"step 10: in CAUSE, unknown key {unknown} sorted "
            f"{_side(unknown, 'disclosure_domain_count')} disclosure_domain_count 9 "
            "(an intent's keys first)"
        )
        per_intent = {"CAUSE": {"disclosure_domain_count": 9, unknown: 1}}
        cases[name] = (
            _pack(realizer_overrides={"per_intent": per_intent}),
            None,
            ("REGISTER_UNKNOWN_OVERRIDE", f"{PER_INTENT}.CAUSE.{unknown}"),
        )
    nested: dict[str, tuple[dict[str, Any], Want]] = {
        "CAUSE with disclosure_domain_count 9 and DEFINITION with an unknown key": (
            {"CAUSE": {"disclosure_domain_count": 9}, "DEFINITION": {"colour": 1}},
            ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{PER_INTENT}.CAUSE.disclosure_domain_count"),
        ),
        "CAUSE with an unknown key and DEFINITION a number": (
            {"CAUSE": {"colour": 1}, "DEFINITION": 5},
            ("REGISTER_UNKNOWN_OVERRIDE", f"{PER_INTENT}.CAUSE.colour"),
        ),
        "CAUSE with disclosure_domain_count 9 and DEFINITION a number": (
            {"CAUSE": {"disclosure_domain_count": 9}, "DEFINITION": 5},
            ("REGISTER_OVERRIDE_OUT_OF_BOUNDS", f"{PER_INTENT}.CAUSE.disclosure_domain_count"),
        ),
    }
    for name, (per_intent, want) in nested.items():
        cases[f"step 10: {name} (per intent, sorted: CAUSE first)"] = (
            _pack(realizer_overrides={"per_intent": per_intent}),
            None,
            want,
        )
    return cases


# Steps 2 to 4: members missing (REQUIRED_FIELDS order), unknown (sorted), not strings. ----

LATER_STEP_FAULTS: dict[str, tuple[dict[str, Any], str | None]] = {
    "version a number (step 4)": ({"version": 5}, None),
    "schema_version 9.9.9 (step 5)": ({"schema_version": "9.9.9"}, None),
    "register_id bad id (step 6)": ({"register_id": "bad id"}, None),
    "another expected id (step 7)": ({}, "other_v1"),
    "depth_preference loud (step 8)": ({"depth_preference": "loud"}, None),
    "an unknown bucket (step 9)": (
        {MARKERS: {"openings": ["So,"], "closings": [""], "middles": []}},
        None,
    ),
    "an unknown override (step 10)": ({OVERRIDES: {"colour": 1}}, None),
}
"""A fault of each step after step 3, on a member an unknown field zz sorts after."""


def _field_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for fault, (edits, expected_id) in LATER_STEP_FAULTS.items():
        name = f"steps 3 to 10: unknown field zz sorted after the member of {fault}"
        cases[name] = (
            {**_pack(**edits), "zz": 1},
            expected_id,
            ("REGISTER_MALFORMED", "zz"),
        )
    pairs: dict[str, tuple[dict[str, Any], Want]] = {
        "step 2: version a number, display_name missing (later in REQUIRED_FIELDS)": (
            {**_pack(version=5, display_name=None)},
            ("REGISTER_MISSING_FIELD", "display_name"),
        ),
        "step 2: version missing, display_name a number (earlier in REQUIRED_FIELDS)": (
            {**_pack(version=None, display_name=5)},
            ("REGISTER_MISSING_FIELD", "version"),
        ),
        "step 2: an unknown field aa sorted before a missing version": (
            {**_pack(version=None), "aa": 1},
            ("REGISTER_MISSING_FIELD", "version"),
        ),
        "step 2: a missing version and an unknown field zz sorted after it": (
            {**_pack(version=None), "zz": 1},
            ("REGISTER_MISSING_FIELD", "version"),
        ),
        "step 3: depth_preference a number and an unknown field dz sorted after it": (
            {**_pack(depth_preference=5), "dz": 1},
            ("REGISTER_MALFORMED", "dz"),
        ),
        "step 3: an unknown field colour sorted before a non-string version": (
            {**_pack(version=5), "colour": 1},
            ("REGISTER_MALFORMED", "colour"),
        ),
    }
    for name, (pack, want) in pairs.items():
        cases[name] = (pack, None, want)
    return cases


CASES: dict[str, Case] = {**_bucket_cases(), **_override_cases(), **_field_cases()}
NAMES = sorted(CASES)


@requirement(
    "LOAD-ORDER-801",
    "register.validate of a pack with two faults of one step's ordered sub-checks (or of "
    "steps 2 to 10) answers the earlier sub-check even when the later one's fault sits on a "
    "member that sorts first: an unknown bucket before any bucket is read, an unknown "
    "override key before any value's bounds or per_intent, an unknown intent before any "
    "intent's value, an intent's unknown key before its values, unknown and missing fields "
    "before any type; and, where the docs nest per bucket or per intent, the first member's "
    "faults before the next member's",
    family="loader",
    capabilities=("registers.validate",),
    seed=SUBCHECKS,
    strategy=lambda ctx: st.sampled_from(NAMES),
    cover=coverage.each("two faults of ordered sub-checks over members", NAMES),
)
def subchecks_over_members(engine: EngineClient, name: str) -> None:
    pack, expected_id, (code, field) = CASES[name]
    args: dict[str, Any] = {"pack": pack}
    if expected_id is not None:
        args["expected_id"] = expected_id
    try:
        engine.call("register.validate", args, checked=False)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == (code, field), (
            f"{name}: register.validate refused with {got[0]} naming {got[1]!r}; each "
            f"sub-check runs over every member before the next: {code} naming {field!r}"
        )
        return
    raise AssertionError(f"{name}: register.validate accepted a pack with two faults")
