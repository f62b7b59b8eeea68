"""What a record may hold depends on its generation's schema version (docs/state.md § The
persistent core): a kind is known from the version that introduced it, so a ``life`` or
``vault`` record in a generation of schema version 1 to 3 is malformed, and a field the
record's schema version does not know (``label`` before 2, ``evidence`` before 3) is
malformed. Read from a generation whose checksums hold, a malformed record is
``STATE_RECORD_MALFORMED``, never a fall back to the older valid generation beside it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import load, scratch

STATE = ("state",)
LIFE: dict[str, Any] = {
    "kind": "life",
    "key": "life",
    "turns": 0,
    "context": None,
    "rotor": ["3ff0000000000000"] + ["0000000000000000"] * 31,
}
VAULT: dict[str, Any] = {
    "kind": "vault",
    "key": "0123456789abcdef" * 4,
    "lemma": "light",
    "count": 1,
    "first_turn": 0,
    "last_turn": 0,
    "latest_claim": None,
    "said": [],
}
LABELLED = {"kind": "recognizer", "key": "r", "pattern": "p", "weight": 1, "label": "x"}
EVIDENCED = {
    "kind": "candidate",
    "key": "c",
    "lemma": "w",
    "score": 1,
    "status": "coherent",
    "evidence": 2,
}

CASES: dict[str, tuple[dict[str, Any], int, bool]] = {
    **{f"a life record at schema {v}": (LIFE, v, False) for v in (1, 2, 3)},
    **{f"a vault record at schema {v}": (VAULT, v, False) for v in (1, 2, 3)},
    "a recognizer's label at schema 1": (LABELLED, 1, False),
    "a candidate's evidence at schema 1": (EVIDENCED, 1, False),
    "a candidate's evidence at schema 2": (EVIDENCED, 2, False),
    "a recognizer's label at schema 2": (LABELLED, 2, True),
    "a candidate's evidence at schema 3": (EVIDENCED, 3, True),
}
"""``name: (the one record of the core, the generation's schema version, whether it loads)``."""
NAMES = sorted(CASES)


@requirement(
    "STATE-SCHEMA-451",
    "a record its generation's schema version does not know is malformed: a life or vault "
    "record at schema 1 to 3, a recognizer's label at schema 1, a candidate's evidence at "
    "schema 1 or 2 are refused by load with STATE_RECORD_MALFORMED, never fallen back from "
    "to the valid generation before; label at 2 and evidence at 3 load",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The persistent core (a kind is known from the version that "
    "introduced it; a field the record's schema version does not know is malformed)",
    strategy=lambda ctx: st.sampled_from(NAMES),
    max_examples=len(NAMES),
    cover=coverage.each("records and versions", NAMES),
)
def records_known_to_their_version(engine: EngineClient, name: str) -> None:
    record, version, loads = CASES[name]
    core = oracle.encode_core([record])
    with scratch() as root:
        directory = root / "state"
        oracle.write_generation(directory, 1, b"", schema_version=version, point=False)
        oracle.write_generation(directory, 2, core, schema_version=version)
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            assert not loads, f"{name}: refused with {refusal.code}, but the record is known"
            assert refusal.code == "STATE_RECORD_MALFORMED", (
                f"{name}: refused with {refusal.code}, not STATE_RECORD_MALFORMED"
            )
            return
        assert loads, (
            f"{name}: loaded generation {got.get('generation')} "
            f"(recovered {got.get('recovered')!r}), expected STATE_RECORD_MALFORMED"
        )
        want = (2, oracle.identity(version, core))
        assert (got["generation"], got["identity"]) == want, (
            f"{name}: loaded {(got['generation'], got['identity'])}, expected {want}"
        )
