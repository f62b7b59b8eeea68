"""A directory the suite writes at an older schema version, opened, mutated and
checkpointed by the engine, then read back by the suite field by field (docs/state.md
§ Schema versions, § Identity and lineage, § The manifest, § Mutations): what a migration
writes and how the boot event after the suite's own lineage is numbered."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.requirements.state import records as st_records
from conformance.requirements.state_format import SEED, frame
from conformance.state import format as fmt
from conformance.state.driver import put, scratch
from conformance.state.oracle import (
    BASE_SCHEMA_VERSION,
    at_version,
    encode_core,
    schema_of,
    write_generation,
)

WRITTEN = 7
"""The generation the suite writes its old directory at."""
DANGLING = 9
"""The generation a dangling ``CURRENT`` names (none is there)."""
OLD_LINEAGE = [1, 4, 2]
"""Boot numbers the suite records before the engine's open: the next is one more than the
highest recorded (5), not one more than the last (3) nor than the number of events (4)."""

MIGRATION = st.tuples(
    st.integers(1, BASE_SCHEMA_VERSION),
    st_records,
    st.lists(
        st.one_of(
            st_records.map(lambda rows: ["put", rows]),
            st.just(["turn"]),
            st.integers(0, 11).map(lambda i: ["delete", i]),
        ),
        max_size=6,
    ),
    st.integers(1, 3),
    st.booleans(),
).map(list)
"""``[schema version written, records, batches, checkpoints, dangling]``: a directory the
suite writes at that version (with *dangling*, its ``CURRENT`` names a generation that is
not there, so the open falls back), then batches of puts, deletes (of the i-th record held,
if any) and turns, each batch followed by a checkpoint while checkpoints last."""


def _boot(boot: int) -> dict[str, Any]:
    return {
        "boot": boot,
        "from_version": None if boot == 1 else 1,
        "identity": fmt.identity(1, b""),
        "parent": None if boot == 1 else fmt.identity(1, b""),
        "reason": "fresh" if boot == 1 else "resume",
        "recovered": None,
        "to_version": 1,
    }


@requirement(
    "STATE-FORMAT-003",
    "a directory the suite writes at a schema version from 1 to 3 (records with and without "
    "their additive-optional fields, boot events numbered 1, 4 and 2), opened, mutated and "
    "checkpointed: the suite's own reader finds each new generation's manifest at the "
    "engine's current schema version, with its turn count, the identity formula and its "
    "number past the suite's, its core the canonical encoding of the records the mutations "
    "leave, the boot event numbered 5 with the old version, why it fell back (a dangling "
    "CURRENT), the parent the old state's identity, and the lines the suite wrote kept byte "
    "for byte",
    family="state",
    capabilities=("state",),
    seed=f"{SEED}; § Schema versions; § Mutations",
    strategy=lambda ctx: MIGRATION,
    max_examples=10,
)
def migrated_files_read_back(engine: EngineClient, scenario: list[Any]) -> None:
    version, rows, batches, checkpoints, dangling = scenario
    current = schema_of(engine.capabilities())
    held = {(r["kind"], r["key"]): at_version(r, version) for r in rows}
    turns = len(rows) % 3
    old_core = encode_core(held.values())
    with scratch() as root:
        directory = root / "old"
        write_generation(directory, WRITTEN, old_core, version, turns)
        lineage = b"".join(frame(_boot(b)) for b in OLD_LINEAGE)
        (directory / "lineage.journal").write_bytes(lineage)
        if dangling:
            (directory / "CURRENT").write_bytes(f"gen-{DANGLING:08d}\n".encode("ascii"))
        opened = engine.call("state.open", {"dir": str(directory)})
        store = opened["store"]
        answers: list[dict[str, Any]] = []
        committed = (old_core, turns) if version == current else None
        try:
            for batch in batches:
                mutations: list[dict[str, Any]] = []
                if batch[0] == "put":
                    mutations = [put(r) for r in batch[1]]
                    held.update({(r["kind"], r["key"]): r for r in batch[1]})
                elif batch[0] == "turn":
                    mutations, turns = [{"op": "turn"}], turns + 1
                elif held:
                    kind, key = sorted(held)[batch[1] % len(held)]
                    mutations = [{"op": "delete", "kind": kind, "key": key}]
                    del held[(kind, key)]
                engine.call("state.apply", {"store": store, "mutations": mutations})
                if len(answers) < checkpoints:
                    answers.append(engine.call("state.checkpoint", {"store": store}))
                    committed = (encode_core(held.values()), turns)
        finally:
            closed = engine.call("state.close", {"store": store})
        core = encode_core(held.values())
        dirty = committed != (core, turns)
        numbers = [a["generation"] for a in [*answers, closed]]
        last = WRITTEN + len(answers) + dirty
        want_numbers = [*range(WRITTEN + 1, WRITTEN + 1 + len(answers)), last]
        assert numbers == want_numbers, (
            f"checkpoints and the close answered generations {numbers} past the suite's "
            f"{WRITTEN}, not {want_numbers} (the close commits only what changed)"
        )
        pointer = fmt.read_pointer((directory / "CURRENT").read_bytes())
        named = DANGLING if dangling and last == WRITTEN else last
        assert pointer == named, f"CURRENT names {pointer}, state.close answered {closed}"
        path = directory / f"gen-{last:08d}"
        manifest, written = fmt.read_generation(path, current)
        got = {k: manifest[k] for k in ("generation", "schema_version", "turn_count", "identity")}
        want = {
            "generation": pointer,
            "schema_version": current,
            "turn_count": turns,
            "identity": fmt.identity(current, core),
        }
        assert got == want, f"the live manifest holds {got}, not {want}"
        assert written == core, (
            f"core.jsonl is {written[:300]!r}, the records the mutations leave are {core[:300]!r}"
        )
        data = (directory / "lineage.journal").read_bytes()
        assert data.startswith(lineage), "the boot events the suite wrote were rewritten"
        events = fmt.read_journal(data[len(lineage) :], "lineage.journal past the suite's lines")
        assert len(events) == 1, f"one open appended {len(events)} boot events"
        event = fmt.read_boot(events[0], "the boot event")
        reason = "resume" if version == current else "schema_migration"
        want_event = {
            "boot": max(OLD_LINEAGE) + 1,
            "from_version": version,
            "identity": opened["identity"],
            "parent": fmt.identity(version, old_core),
            "reason": reason,
            "recovered": opened.get("recovered"),
            "to_version": current,
        }
        recovered = opened.get("recovered")
        assert (recovered is not None) == dangling, (
            f"state.open answered recovered {recovered!r} with CURRENT "
            f"{'dangling' if dangling else 'naming the suite generation'}"
        )
        assert event == want_event, f"the boot event is {event}, not {want_event}"
        assert opened["identity"] == fmt.identity(current, old_core), (
            f"state.open answered identity {opened['identity']}, the old records at version "
            f"{current} give {fmt.identity(current, old_core)}"
        )
