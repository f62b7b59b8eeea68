"""The bounds of the life's records (docs/state.md § Records: `life` and `vault`), on both
sides: a record at a bound is stored as given, one past it refuses its batch naming the field.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, load, put, scratch

LIFE = ("state", "state.life")
ADDRESS = "0123456789abcdef" * 4
ONE = "3ff0000000000000"
ZERO = "0000000000000000"
EVERY_DIGIT = "0123456789abcdef"
"""A bit pattern using each of the sixteen lowercase hex digits once (a double like any other)."""


def _said(count: int, turn_idx: int = 0) -> list[dict[str, Any]]:
    return [{"claim": None, "text": f"t{i}", "turn_idx": turn_idx + i} for i in range(count)]


VAULT: dict[str, Any] = {
    "kind": "vault",
    "key": ADDRESS,
    "lemma": "light",
    "count": 3,
    "first_turn": 0,
    "last_turn": 2,
    "latest_claim": None,
    "said": _said(3),
}
LIFE_RECORD: dict[str, Any] = {
    "kind": "life",
    "key": "life",
    "turns": 3,
    "context": None,
    "rotor": [ONE] + [ZERO] * 31,
}

RECORDS: dict[str, tuple[dict[str, Any], str | None]] = {
    "a vault record with three things said": (VAULT, None),
    "a vault record with nothing said": ({**VAULT, "said": []}, None),
    "a vault record of zero counts and turns": (
        {**VAULT, "count": 0, "first_turn": 0, "last_turn": 0, "said": _said(1)},
        None,
    ),
    "a vault record with four things said": ({**VAULT, "said": _said(4)}, "said"),
    "a vault key of 63 hex digits": ({**VAULT, "key": ADDRESS[:63]}, "key"),
    "a vault key of 65 hex digits": ({**VAULT, "key": ADDRESS + "0"}, "key"),
    "a vault key in upper case": ({**VAULT, "key": ADDRESS.upper()}, "key"),
    "a vault count of -1": ({**VAULT, "count": -1}, "count"),
    "a thing said at turn -1": ({**VAULT, "said": _said(1, -1)}, "said"),
    "a life record of 32 bit patterns at turn 0": ({**LIFE_RECORD, "turns": 0}, None),
    "a life of -1 turns": ({**LIFE_RECORD, "turns": -1}, "turns"),
    "a rotor of 31 bit patterns": ({**LIFE_RECORD, "rotor": LIFE_RECORD["rotor"][:31]}, "rotor"),
    "a rotor of 33 bit patterns": (
        {**LIFE_RECORD, "rotor": [*LIFE_RECORD["rotor"], ZERO]},
        "rotor",
    ),
    "a bit pattern of 15 hex digits": ({**LIFE_RECORD, "rotor": [ONE[:15]] + [ZERO] * 31}, "rotor"),
    "a bit pattern of 17 hex digits": (
        {**LIFE_RECORD, "rotor": [ONE + "0"] + [ZERO] * 31},
        "rotor",
    ),
    "a bit pattern in upper case": ({**LIFE_RECORD, "rotor": [ONE.upper()] + [ZERO] * 31}, "rotor"),
    "bit patterns holding every hex digit": (
        {**LIFE_RECORD, "rotor": [EVERY_DIGIT, EVERY_DIGIT[::-1]] + [ZERO] * 30},
        None,
    ),
}
"""``name: (record, the field its refusal names)``; None: the record is valid and stored."""


@requirement(
    "STATE-VAULT-001",
    "life and vault records are checked at their bounds: at most 3 things said (4 refused), a "
    "vault key of exactly 64 lowercase hex digits, counts and turns >= 0 (0 stored, -1 "
    "refused), a rotor of exactly 32 bit patterns of 16 lowercase hex digits (any of the "
    "sixteen, all of them in one pattern too); a refusal is "
    "STATE_BAD_MUTATION naming the field",
    family="state",
    capabilities=LIFE,
    seed="docs/state.md § The persistent core (the life and vault records)",
    strategy=lambda ctx: st.sampled_from(sorted(RECORDS)),
    cover=coverage.each("records", sorted(RECORDS)),
)
def life_record_bounds(engine: EngineClient, name: str) -> None:
    record, field = RECORDS[name]
    with scratch() as root, Stores(engine) as stores:
        store = stores.open(root)["store"]
        try:
            engine.call("state.apply", {"store": store, "mutations": [put(record)]}, checked=False)
        except EngineRefused as refusal:
            assert field is not None, f"{name}: a valid record refused with {refusal.code}"
            got = (refusal.code, refusal.field)
            want = ("STATE_BAD_MUTATION", f"mutations[0].record.{field}")
            assert got == want, f"{name}: refused with {got}, expected {want}"
            return
        assert field is None, f"{name}: stored, but past the bound of {field}"
        stores.close(store)
        identity = oracle.identity(
            oracle.schema_of(engine.capabilities()), oracle.encode_core([record])
        )
        assert load(engine, root)["identity"] == identity, f"{name}: stored differently"
