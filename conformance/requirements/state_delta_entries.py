"""The entries a reader of a delta generation applies (docs/state.md § Delta generations):
a key at its bound of 128 code points (astral characters among them, which are one code point
each but two UTF-16 units and four UTF-8 bytes) in a delete and in a put, a delete of a pair
the base does not hold (it removes nothing), a put of a record the base holds as it is (it
stores it again), and several such entries in one delta. Each loads to the state the entries
give, as its full form would, never STATE_RECORD_MALFORMED and never a fall back.

STATE-DELTA-355.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import DELTA, VERSION, _frame, write_delta
from conformance.state import oracle
from conformance.state.driver import Stores, load, scratch

Record = dict[str, Any]
Entry = dict[str, Any]

ALPHABET = ("a", "z", "\u00e9", "e", "\u0301", "\u4e2d", "\U0001f600", "\U00010348")
"""Characters of a drawn key: ASCII, Latin-1, a combining mark, a CJK character and two
astral ones."""
KEY_TAIL = st.text(st.sampled_from(ALPHABET), min_size=127, max_size=127)
"""The last 127 code points of a drawn key of 128; its first is always astral."""


def _recognizer(key: str, weight: int) -> Record:
    return {"kind": "recognizer", "key": key, "pattern": "p", "weight": weight}


BASE_A = _recognizer("a", 1)
BASE_C = {"kind": "candidate", "key": "m", "lemma": "m", "score": 2, "status": "coherent"}


def _case(name: str, long_key: str) -> tuple[list[Record], list[Entry], list[Record]]:
    """The base's records, the entries of the delta and the records they give, for case
    *name*; *long_key* is a key of exactly 128 code points."""
    held = _recognizer(long_key, 5)
    if name == "a delete of a key of 128 code points":
        return [BASE_A, held], [{"op": "delete", "kind": "recognizer", "key": long_key}], [BASE_A]
    if name == "a put of a record whose key is 128 code points":
        return [BASE_A], [{"op": "put", "record": held}], [BASE_A, held]
    if name == "a delete of a pair the base does not hold":
        return [BASE_A], [{"op": "delete", "kind": "recognizer", "key": "b"}], [BASE_A]
    if name == "a delete of a kind the base holds none of":
        return [BASE_A], [{"op": "delete", "kind": "vault", "key": "0" * 64}], [BASE_A]
    if name == "a put of a record the base holds as it is":
        return [BASE_A, BASE_C], [{"op": "put", "record": BASE_A}], [BASE_A, BASE_C]
    if name == "a delete of an absent pair, a put of a held record as it is, a real put":
        entries: list[Entry] = [
            {"op": "delete", "kind": "candidate", "key": "absent"},
            {"op": "put", "record": BASE_C},
            {"op": "put", "record": _recognizer("b", 2)},
        ]
        return [BASE_A, BASE_C], entries, [BASE_A, _recognizer("b", 2), BASE_C]
    raise KeyError(name)


CASES = (
    "a delete of a key of 128 code points",
    "a put of a record whose key is 128 code points",
    "a delete of a pair the base does not hold",
    "a delete of a kind the base holds none of",
    "a put of a record the base holds as it is",
    "a delete of an absent pair, a put of a held record as it is, a real put",
)


FIXED_TAIL = "".join(ALPHABET[i % len(ALPHABET)] for i in range(127))
"""The tail of the coverage cases' key: every character of :data:`ALPHABET`, in turn."""


def _plan(ctx: object) -> coverage.Plan:
    """Each case once, with the key of :data:`FIXED_TAIL`."""
    cases = tuple(coverage.Case([name, FIXED_TAIL], (("entries", name),)) for name in CASES)
    return coverage.Plan(cases, (("entries", len(CASES)),))


@requirement(
    "STATE-DELTA-355",
    "a delta generation whose entries delete or put a key of exactly 128 code points (astral "
    "characters among them), delete a pair the base does not hold, or put a record the base "
    "holds as it is, also several such entries at once, loads to the identity and records "
    "those entries give, as its full form does: neither STATE_RECORD_MALFORMED nor a fall back",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: a delete names a key that is a non-empty string "
    "of at most 128 code points; a reader applies every entry of this form, a delete of a "
    "pair the base does not hold removes nothing",
    strategy=lambda ctx: st.tuples(st.sampled_from(CASES), KEY_TAIL),
    max_examples=2 * len(CASES),
    cover=_plan,
)
def delta_entries_applied(engine: EngineClient, drawn: tuple[str, str] | list[str]) -> None:
    name, tail = drawn
    long_key = "\U0001f600" + tail
    base, entries, target = _case(name, long_key)
    identity = oracle.identity(VERSION, oracle.encode_core(target))
    with scratch() as directory:
        oracle.write_generation(directory, 1, oracle.encode_core(base), VERSION, 1)
        data = b"".join(_frame(entry) for entry in entries)
        write_delta(directory, 2, 1, data, identity, 2)
        (directory / "CURRENT").write_bytes(b"gen-00000002\n")
        want = {"generation": 2, "identity": identity, "records": len(target)}
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            raise AssertionError(
                f"{name}: state.load refused with {refusal.code}; the entries give "
                f"{len(target)} records, identity {identity}"
            ) from None
        seen = {key: got.get(key) for key in want}
        assert seen == want and not got.get("recovered"), (
            f"{name}: state.load gave {got}; the entries applied to the base give {want}"
        )
        _reopened(engine, directory, identity, name)


def _reopened(engine: EngineClient, directory: Path, identity: str, name: str) -> None:
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        digest = engine.call("state.digest", {"store": store})
        assert digest.get("identity") == identity, (
            f"{name}: state.digest after opening the delta generation: {digest}, not {identity}"
        )
