"""The known-answer vectors of canonical JSON, written by the engine itself.

``conformance/data/vectors/canonical.jsonl`` gives the canonical text of each value of
docs/spec.md § Canonical JSON: every escape, the characters never escaped (those an
HTML-safe encoder would), astral and private-use keys, proper-prefix keys, integers at the
bounds. An engine shows its encoder wherever it writes canonical JSON to a file the docs
define: a proposal's payload in ``proposals.journal`` (docs/state.md § Journals). Each
vector value an encoder must encode is proposed, as the member ``v`` of the proposal (a
proposal is an object), and the payload must be that text byte for byte.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, scratch

FRAME_HEADER = 18
"""``<length, 8 hex> <CRC-32, 8 hex> ``: the bytes before a journal line's payload."""


def value_vectors() -> list[dict[str, Any]]:
    """The vectors of plain values whose canonical text an encoder must produce."""
    text = resources.files("conformance.data.vectors").joinpath("canonical.jsonl")
    rows = [json.loads(line) for line in text.read_text("utf-8").splitlines() if line]
    return [r for r in rows if r["structure"] == "value" and r["canonical"] is not None]


@requirement(
    "STATE-CANON-002",
    "every known-answer vector of canonical JSON that an encoder must encode (escapes, the "
    "characters never escaped, astral, private-use and proper-prefix keys, integers at the "
    "bounds) is written to proposals.journal, proposed as the member v of a proposal, as "
    "exactly its canonical text, and state.journal reads each back equal",
    family="state",
    capabilities=("state",),
    seed="docs/spec.md § Canonical JSON (the known-answer vectors); docs/state.md § Journals "
    "(the payload is canonical JSON)",
)
def vectors_written_canonically(engine: EngineClient, _: object) -> None:
    vectors = value_vectors()
    with scratch() as directory:
        with Stores(engine) as stores:
            store = stores.open(directory)["store"]
            for vector in vectors:
                answer = engine.call(
                    "state.propose", {"store": store, "proposal": {"v": vector["value"]}}
                )
                assert answer.get("queued") is True, f"{vector['name']}: answered {answer}"
            stores.close(store)
        lines = (directory / "proposals.journal").read_bytes().split(b"\n")
        read = engine.call("state.journal", {"dir": str(directory), "name": "proposals"})
    assert len(lines) == len(vectors) + 1, (
        f"proposals.journal holds {len(lines) - 1} lines for {len(vectors)} proposals"
    )
    for vector, line in zip(vectors, lines, strict=False):
        want = b'{"v":' + vector["canonical"].encode("utf-8") + b"}"
        got = line[FRAME_HEADER:]
        assert got == want, (
            f"vector {vector['name']!r}: proposals.journal holds {got[:200]!r}, not the "
            f"canonical text {want[:200]!r}"
        )
    entries = read.get("entries")
    wanted = [{"v": vector["value"]} for vector in vectors]
    assert entries == wanted, f"state.journal reads back {str(entries)[:300]}, not the proposals"
