"""A proposal's payload is its canonical JSON, byte for byte, whatever the object holds
(docs/state.md § Pending proposals and backpressure: "A proposal is a JSON object whose
canonical JSON ... is the journal payload"; "an integer of any magnitude is always written
as its exact digits").

``STATE-PROPOSE-602``: integers past the canonical range (2^53 + 1, -(2^63), 10^30, one of
300 digits), nested in arrays and objects. A port that parses numbers into doubles writes
``9007199254740992`` for 2^53 + 1 or ``1e+30``; one that applies the hashed range to
proposals refuses them. ``STATE-PROPOSE-603``: objects whose parts other languages' encoders
write as something else (:data:`~conformance.loose_values.EMPTY_SHAPES`: the empty object,
which PHP writes as ``[]``, empty containers, falsy members, integer-like keys, deep
nesting). Each is queued, ``state.journal`` reads it back equal, and the journal line's
payload is the canonical JSON of the proposal.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance import coverage
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.loose_values import EMPTY_SHAPES
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

BIG: dict[str, int] = {
    "2^53 + 1": 2**53 + 1,
    "-(2^63)": -(2**63),
    "10^30": 10**30,
    "300 digits": int("9" * 300),
}


def _proposal(name: str) -> EncodableObject:
    value = BIG[name]
    return {"claim": "big", "lemma": name, "n": value, "nested": [{"m": -value}, value + 2]}


@requirement(
    "STATE-PROPOSE-602",
    "a proposal holding integers past the canonical range (2^53 + 1, -(2^63), 10^30, 300 "
    "digits; nested too) is queued, read back equal, and its journal line's payload is its "
    "canonical JSON with every digit exact",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Pending proposals and backpressure (an integer of any magnitude is "
    "written as its exact digits)",
    strategy=lambda ctx: st.sampled_from(sorted(BIG)),
    max_examples=len(BIG),
    cover=coverage.each("integers", sorted(BIG)),
)
def proposal_integers_exact(engine: EngineClient, name: str) -> None:
    _written_as_itself(engine, name, _proposal(name))


@requirement(
    "STATE-PROPOSE-603",
    "a proposal that is the empty object, or holds empty objects and lists, falsy members "
    '(0, false, null, "", "0"), integer-like keys or deep nesting, is queued, read back '
    "equal, and its journal line's payload is its canonical JSON",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Pending proposals and backpressure (a proposal is a JSON object "
    "whose canonical JSON is the journal payload)",
    strategy=lambda ctx: st.sampled_from(sorted(EMPTY_SHAPES)),
    max_examples=len(EMPTY_SHAPES),
    cover=coverage.each("proposal shapes", sorted(EMPTY_SHAPES)),
)
def proposal_shapes_written_as_themselves(engine: EngineClient, name: str) -> None:
    _written_as_itself(engine, name, EMPTY_SHAPES[name])


def _written_as_itself(engine: EngineClient, name: str, proposal: EncodableObject) -> None:
    """Propose *proposal* to a fresh store: it is queued, read back equal, and written as
    its canonical JSON."""
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        answer = engine.call("state.propose", {"store": store, "proposal": proposal})
        stores.close(store)
        assert answer.get("queued") is True, f"{name}: the proposal answered {answer}"
        args: EncodableObject = {"dir": str(directory), "name": "proposals", "repair": False}
        read = engine.call("state.journal", args)["entries"]
        assert canonical_json(read) == canonical_json([proposal]), (
            f"{name}: state.journal reads {read}, not {[proposal]}"
        )
        data = (directory / "proposals.journal").read_bytes()
        want = canonical_json(proposal).encode("utf-8")
        lines = oracle.journal_lines(data)
        assert len(lines) == 1 and lines[0][18:-1] == want, (
            f"{name}: the journal holds {data[:200]!r}, not the payload {want[:120]!r}"
        )
