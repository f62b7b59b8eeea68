"""What counts as a proposal when an open finds the journals: entries only (docs/state.md
§ Pending proposals and backpressure).

The pending count is the number of entries of ``proposals.journal``, and new proposals
spill while the overflow journal holds an entry, "a line that reads back; corrupt lines
and a torn tail do not count". A corrupt line is kept in its journal (§ Journals), so an
engine that counts lines, or spills because the overflow file is not empty, answers a
pending count past the entries, or spills with no entry waiting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

EARLIER = [{"claim": "0", "lemma": "earlier"}, {"claim": "1", "lemma": "earlier"}]
LATER = {"claim": "2", "lemma": "later"}


def corrupt(payload: dict[str, Any]) -> bytes:
    """A complete journal line for *payload* whose CRC-32 does not match it."""
    line = oracle.frame(payload)
    crc = int(line[9:17], 16) ^ 1
    return line[:9] + b"%08x" % crc + line[17:]


CASES: dict[str, dict[str, bytes]] = {
    "overflow holds only a corrupt line": {"overflow.journal": corrupt(EARLIER[0])},
    "overflow holds a corrupt line and a torn tail": {
        "overflow.journal": corrupt(EARLIER[0]) + oracle.frame(EARLIER[1])[:-3],
    },
    "pending entries around a corrupt line": {
        "proposals.journal": oracle.frame(EARLIER[0]) + corrupt(LATER) + oracle.frame(EARLIER[1]),
    },
    "pending entries, then corrupt lines": {
        "proposals.journal": b"".join(oracle.frame(p) for p in EARLIER)
        + corrupt(LATER)
        + b"not a framed line\n",
    },
}
"""What the journals hold before a writer's open (the other journal absent)."""


def _entries(engine: EngineClient, directory: Path, name: str) -> list[Any]:
    args: EncodableObject = {"dir": str(directory), "name": name, "repair": False}
    entries: list[Any] = engine.call("state.journal", args)["entries"]
    return entries


@requirement(
    "STATE-PROPOSE-601",
    "an open counts the proposals its journals hold by their entries only: corrupt lines "
    "(kept in the file) and a torn tail are not pending proposals and do not make new ones "
    "spill, so with no overflow entry and fewer than 256 pending a proposal is queued and "
    "answers pending = the entries of proposals.journal + 1",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Pending proposals and backpressure (an entry is a line that reads "
    "back; the pending count is the number of entries of proposals.journal)",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    max_examples=len(CASES),
    cover=coverage.each("journals found", sorted(CASES)),
)
def only_entries_count(engine: EngineClient, name: str) -> None:
    with scratch() as directory, Stores(engine) as stores:
        for file, data in CASES[name].items():
            (directory / file).write_bytes(data)
        waiting = _entries(engine, directory, "proposals")
        store = stores.open(directory)["store"]
        answer = engine.call("state.propose", {"store": store, "proposal": LATER})
        stores.close(store)
        want = {"queued": True, "spilled": False, "pending": len(waiting) + 1}
        got = {key: answer.get(key) for key in want}
        assert got == want, f"{name}: a proposal answered {got}, not {want}"
        pending = _entries(engine, directory, "proposals")
        assert pending == [*waiting, LATER], f"{name}: proposals.journal holds {pending}"
        assert _entries(engine, directory, "overflow") == [], f"{name}: a proposal spilled"
