"""The entries of the delta generations a writer writes (docs/state.md § Delta generations:
``{"op":"put","record":<record>}`` "for a record the state holds that the base lacks or
holds otherwise", ``{"op":"delete",...}`` "for a record the base holds and the state does
not", ordered by ``(kind, key)``, "each pair at most once"; "no other member is written").

STATE-DELTA-358: one store puts 48 records and checkpoints, then changes them batch after
batch in the ways a port that tracks what a batch *touched* rather than what *differs from
the base* gets wrong: a record put again as it is, a record changed and put back to the
base's value within one batch or over two checkpoints, a record put then deleted (the base
never held it), a delete and a put of the same pair. After each checkpoint every delta
generation on disk is read: its entries must be exactly those the rule gives from its base's
``core.jsonl`` and the state the checkpoint acknowledged, in order, each a put of the
normalised record or a delete of ``kind`` and ``key``. A reader applies such extra entries
without complaint, so only the written file shows them. An engine that writes only full
generations passes (writing deltas is optional).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state.driver import Stores, put, scratch

DELTA = ("state", "state.delta")
Record = dict[str, Any]


def _record(index: int, weight: int = 0) -> Record:
    return {"kind": "recognizer", "key": f"r{index:02d}", "pattern": f"p{index}", "weight": weight}


def _delete(index: int) -> dict[str, Any]:
    return {"op": "delete", "kind": "recognizer", "key": f"r{index:02d}"}


FIRST = [put(_record(i)) for i in range(48)]
BATCHES: list[tuple[str, list[dict[str, Any]]]] = [
    (
        "r00 put again as it is, r01 changed, r02 changed and put back, r03 deleted, r50 new, "
        "r51 put then deleted",
        [
            put(_record(0)),
            put(_record(1, 7)),
            put(_record(2, 9)),
            put(_record(2)),
            _delete(3),
            put(_record(50)),
            put(_record(51)),
            _delete(51),
        ],
    ),
    (
        "r01 put back to the base's value, r00 and r04 put again as they are, r03 put back as "
        "the base held it, r52 put then deleted",
        [
            put(_record(1)),
            put(_record(0)),
            put(_record(4)),
            put(_record(3)),
            put(_record(52)),
            _delete(52),
        ],
    ),
    (
        "r05 deleted then put back changed, r06 changed, r50 deleted",
        [_delete(5), put(_record(5, 3)), put(_record(6, 4)), _delete(50)],
    ),
]
"""Each batch after the first checkpoint, each checkpointed."""


def _frames(data: bytes, where: str) -> list[Any]:
    payloads = []
    for number, line in enumerate(data.split(b"\n")[:-1], start=1):
        assert len(line) > 18, f"{where}: line {number} is no frame: {line[:80]!r}"
        payloads.append(json.loads(line[18:]))
    assert data == b"" or data.endswith(b"\n"), f"{where} does not end with a line feed"
    return payloads


def _core(path: Path) -> dict[tuple[str, str], Record]:
    records = {}
    for line in path.read_bytes().splitlines():
        record = json.loads(line)
        records[(record["kind"], record["key"])] = record
    return records


def _expected(
    base: dict[tuple[str, str], Record], state: dict[tuple[str, str], Record]
) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for pair in sorted(set(base) | set(state), key=lambda p: (p[0].encode(), p[1].encode())):
        if pair not in state:
            entries.append({"op": "delete", "kind": pair[0], "key": pair[1]})
        elif base.get(pair) != state[pair]:
            entries.append({"op": "put", "record": state[pair]})
    return entries


def _state_after(records: dict[tuple[str, str], Record], mutations: list[dict[str, Any]]) -> None:
    for mutation in mutations:
        if mutation["op"] == "put":
            record = mutation["record"]
            records[(record["kind"], record["key"])] = dict(record)
        else:
            records.pop((mutation["kind"], mutation["key"]), None)


@requirement(
    "STATE-DELTA-358",
    "a delta generation a writer writes holds exactly the entries docs/state.md gives from "
    "its base and the state it commits, in (kind, key) order: no put of a record put again "
    "as it is or changed and put back to the base's value (in one batch or over two "
    "checkpoints), no delete of a record put and deleted since the base, a delete and a put "
    "of the same pair as one put; an engine that writes only full generations passes",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: a put for a record the state holds that the base "
    "lacks or holds otherwise, a delete for a record the base holds and the state does not, "
    "ordered by (kind, key), each pair at most once",
    max_examples=1,
)
def written_delta_entries(engine: EngineClient, _: object) -> None:
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        state: dict[tuple[str, str], Record] = {}
        for name, mutations in [("the first batch", FIRST), *BATCHES]:
            engine.call("state.apply", {"store": store, "mutations": mutations})
            _state_after(state, mutations)
            done = engine.call("state.checkpoint", {"store": store})
            gen = directory / f"gen-{done.get('generation'):08d}"
            if not (gen / "delta.jsonl").is_file():
                continue
            manifest = json.loads((gen / "manifest.json").read_bytes())
            base = directory / f"gen-{manifest['base']['generation']:08d}" / "core.jsonl"
            want = _expected(_core(base), state)
            got = _frames((gen / "delta.jsonl").read_bytes(), f"{gen.name}/delta.jsonl")
            assert got == want, (
                f"after the batch where {name}, {gen.name}/delta.jsonl holds {got}, not the "
                f"entries the base and the state give: {want} (a put only for a record the "
                f"base lacks or holds otherwise, a delete only for one the base holds)"
            )
