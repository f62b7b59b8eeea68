"""The bounds of the guarded reader a pack file is read with (docs/registers.md § Loading,
step 4), on both sides: past a bound the load is refused before the pack is parsed
(``REGISTER_MALFORMED``, field null); at the bound the file is read and the pack's own
checks answer, naming the field that holds the value.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

SLOT = '"@@slot@@"'
DEPTH_FIELD = "realizer_overrides.disclosure_domain_count"
INTENT_FIELD = "realizer_overrides.per_intent.DEFINITION.disclosure_domain_count"
OUT_OF_BOUNDS = "REGISTER_OVERRIDE_OUT_OF_BOUNDS"


def _lists(levels: int) -> str:
    return "[" * levels + "]" * levels


def _objects(levels: int) -> str:
    return '{"a":' * (levels - 1) + "{}" + "}" * (levels - 1)


FLAT = {"disclosure_domain_count": "@@slot@@"}
"""The slot as the flat depth: the pack object is level 1, realizer_overrides level 2."""
PER_INTENT = {"per_intent": {"DEFINITION": {"disclosure_domain_count": "@@slot@@"}}}
"""The slot as a per_intent depth: four levels hold it."""

VALUES: dict[str, tuple[dict[str, Any], str, str | None]] = {
    "an integer of 1,000 digits": (FLAT, "9" * 1000, DEPTH_FIELD),
    "a negative integer of 1,000 digits": (FLAT, "-" + "9" * 1000, DEPTH_FIELD),
    "an integer of 1,001 digits": (FLAT, "9" * 1001, None),
    "a negative integer of 1,001 digits": (FLAT, "-" + "9" * 1001, None),
    "a per_intent integer of 1,001 digits": (PER_INTENT, "1" * 1001, None),
    "the largest double": (FLAT, "1.7976931348623157e308", DEPTH_FIELD),
    "1.8e308, too large for a double": (FLAT, "1.8e308", None),
    "NaN": (FLAT, "NaN", None),
    "lists to 64 levels": (FLAT, _lists(62), DEPTH_FIELD),
    "lists to 65 levels": (FLAT, _lists(63), None),
    "objects to 64 levels": (PER_INTENT, _objects(60), INTENT_FIELD),
    "objects to 65 levels": (PER_INTENT, _objects(61), None),
}
"""``name: (overrides holding the slot, the JSON text put there, the field the refusal
names)``; a field of None is the reader's refusal (``REGISTER_MALFORMED``, field null)."""


def _pack_file(register_id: str, overrides: dict[str, Any], literal: str) -> str:
    text = json.dumps(gen.pack(register_id, overrides=overrides), indent=2, sort_keys=True)
    assert text.count(SLOT) == 1
    return base64.b64encode((text.replace(SLOT, literal) + "\n").encode()).decode("ascii")


@requirement(
    "LOAD-READ-001",
    "a pack file past a bound of the guarded reader (an integer of more than 1,000 digits, "
    "the sign not counted; a number too large for a double; NaN; nesting deeper than 64 "
    "levels, arrays and objects alike) is refused with REGISTER_MALFORMED, field null; at "
    "the bound the file is read and the pack's own check names the field",
    family="loader",
    capabilities=("registers.load",),
    seed="docs/registers.md § Loading (step 4: the guarded reader)",
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(sorted(VALUES))).map(list),
    cover=coverage.each("values", [["r", name] for name in sorted(VALUES)]),
    max_examples=6,
)
def pack_reader_bounds(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, name = scenario
    overrides, literal, field = VALUES[name]
    files = {f"{register_id}.json": _pack_file(register_id, overrides, literal)}
    try:
        engine.call("register.load", {"register_id": register_id, "files": files})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name}: an unratified pack holding it loaded")
    want = ("REGISTER_MALFORMED", None) if field is None else (OUT_OF_BOUNDS, field)
    what = "past the reader's bound" if field is None else "within the reader's bounds"
    assert got == want, f"{name} ({what}): refused with {got}, expected {want}"
