"""A store whose core holds no ``life`` record holds a fresh life (docs/state.md § The life):
a session opened on it starts a fresh life (turn 0, no subject, the identity rotor, an empty
vault), so its turns are those of a session that never had a store. Two such cores: one at
the engine's current schema version holding ``vault`` records without a ``life`` record
("not a life and are ignored"), and a generation the suite writes at schema version 1 to 3
(recognizer, candidate and session records, no kind of version 4), whose records are kept
and whose first checkpoint (the session's first turn) writes the current version."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.oracle import CONVIVIAL, FOUR_REGISTERS, NEUTRAL, TERSE
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import lemmas_of, uninterrupted
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.conversation import conversation, prompt
from conformance.state.driver import Stores, scratch
from conformance.state.life import record_of

LIFE = ("sessions", "state", "state.life")
GENERATION = 3
OLD_TURNS = 7
"""The turn count of the generation the suite writes."""
TURNS = 5
"""Generated turns before the closing recalls."""
ORPHANS = "vault tallies, no life"
"""The start whose core (at the engine's current version) holds vault records only."""
STARTS: tuple[str | int, ...] = (ORPHANS, *range(1, oracle.BASE_SCHEMA_VERSION + 1))
"""What the store holds before the session: vault tallies without a life, or a generation
of schema version 1, 2 or 3."""

SCENARIO = st.tuples(
    st.sampled_from(FOUR_REGISTERS), st.integers(0, 2**16), st.sampled_from(STARTS)
).map(list)
"""``[register_id, seed, start]``."""
COVER = [[register_id, 40 + i, ORPHANS] for i, register_id in enumerate(FOUR_REGISTERS)] + [
    [NEUTRAL, 44, 1],
    [CONVIVIAL, 45, 2],
    [None, 46, 3],
]
"""Vault tallies under every register; each older schema version once."""


def orphan_vault(lemma: str) -> dict[str, Any]:
    """A vault tally for *lemma* that a life would recall: seven observations, a claim and
    one thing said."""
    return {
        "kind": "vault",
        "key": fmt.vault_address(lemma),
        "lemma": lemma,
        "count": 7,
        "first_turn": 0,
        "last_turn": 6,
        "latest_claim": f"{lemma} is remembered",
        "said": [{"claim": None, "text": f"{lemma} was said before", "turn_idx": 6}],
    }


def old_records(version: int, register_id: str | None, lemma: str) -> list[dict[str, Any]]:
    """What a generation of schema *version* (1 to 3) holds: recognizers and candidates with
    and without the additive-optional fields that version knows (``label`` from 2,
    ``evidence`` from 3), and a ``session`` record naming another register than
    *register_id*, which the session's turns write anew."""
    other = TERSE if register_id != TERSE else CONVIVIAL
    written: list[dict[str, Any]] = [
        {"kind": "recognizer", "key": "migrated-plain", "pattern": "hello", "weight": 1},
        {
            "kind": "recognizer",
            "key": "migrated-label",
            "pattern": "hi",
            "weight": 2,
            "label": "migrated",
        },
        {
            "kind": "candidate",
            "key": "migrated-bare",
            "lemma": lemma,
            "score": 3,
            "status": "speculative",
        },
        {
            "kind": "candidate",
            "key": "migrated-evidence",
            "lemma": lemma,
            "score": 5,
            "status": "coherent",
            "evidence": 4,
        },
        {"kind": "session", "key": "session", "register_id": other},
    ]
    return [oracle.at_version(record, version) for record in written]


def _migrated_checkpoint(
    directory: Path,
    versions: tuple[int, int],
    kept: list[bytes],
    register_id: str | None,
    turn: int,
) -> None:
    """After turn *turn* (from 0) of a session on the generation the suite wrote at the first
    of *versions*: ``CURRENT`` names one generation per turn past the suite's, at the
    engine's current version (the second), counting one more turn per turn past the suite's
    count, its core holding every record the suite wrote but the session record byte for
    byte, and the session record naming the session's register."""
    written, version = versions
    current = fmt.read_pointer((directory / "CURRENT").read_bytes())
    want = GENERATION + turn + 1
    assert current == want, (
        f"after turn {turn} on a store migrated from schema version {written}, CURRENT names "
        f"generation {current}, not {want}: a session on a store commits one generation per turn"
    )
    try:
        manifest, core = fmt.read_generation(directory / f"gen-{current:08d}", version)
    except fmt.FormatError as exc:
        raise AssertionError(
            f"after turn {turn} on a store migrated from schema version {written}, the live "
            f"generation does not read at the current version {version}: {exc}"
        ) from None
    assert manifest["schema_version"] == version, (
        f"the checkpoint of turn {turn} on a store migrated from schema version {written} "
        f"wrote schema version {manifest['schema_version']}, not the current {version}: its "
        "first checkpoint writes the current version"
    )
    counted = OLD_TURNS + turn + 1
    assert manifest["turn_count"] == counted, (
        f"the checkpoint of turn {turn} on a store migrated from schema version {written} "
        f"counts {manifest['turn_count']} turns, not the suite's {OLD_TURNS} and one per turn"
    )
    lines = set(oracle.core_lines(core))
    lost = [line for line in kept if line not in lines]
    assert not lost, (
        f"the checkpoint of turn {turn} on a store migrated from schema version {written} "
        f"lost or rewrote the records {lost}: a migrated store's records are kept"
    )
    session = oracle.encode_core(
        [{"kind": "session", "key": "session", "register_id": register_id}]
    )
    assert session in lines, (
        f"the checkpoint of turn {turn} holds no session record naming {register_id!r}"
    )


@requirement(
    "STATE-LIFE-451",
    "a store whose core holds no life record holds a fresh life: a session opened on one whose "
    "core holds vault tallies of the lemmas it talks about but no life record (the vault "
    "records are ignored), or on a generation the suite wrote at schema version 1, 2 or 3 "
    "(recognizers, candidates, a session record under another register), opens at turn_idx 0 "
    "and answers every turn (recalls included) as a session without a store does; on the "
    "migrated store each turn commits the next generation at the engine's current schema "
    "version, its turn count one more, every record the suite wrote but the session record "
    "kept byte for byte, and the session record naming the session's register",
    family="state",
    capabilities=LIFE,
    seed="docs/state.md § The life (a store whose core holds no life record, a fresh directory "
    "or a generation of schema 1 to 3, holds a fresh life; vault records without a life "
    "record are not a life and are ignored; its records are kept and its first checkpoint "
    "writes the current version); docs/protocol.md § Sessions on a store (Each turn)",
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers and starts", COVER),
    max_examples=8,
)
def orphan_vault_is_ignored(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed, start = scenario
    lemmas = lemmas_of(engine, seed)
    prompts = [
        *conversation(lemmas, TURNS, seed),
        prompt("recall", lemmas[0], ""),
        prompt("recall_all", "", ""),
    ]
    whole = uninterrupted(engine, register_id, prompts)
    version = oracle.schema_of(engine.capabilities())
    if start == ORPHANS:
        written, kept = version, []
        core = oracle.encode_core([orphan_vault(lemma) for lemma in lemmas])
    else:
        written = int(start)
        rows = old_records(written, register_id, lemmas[0])
        core = oracle.encode_core(rows)
        kept = [oracle.encode_core([row]) for row in rows if row["kind"] != "session"]
    what = "vault records without a life" if start == ORPHANS else f"schema version {start}"
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        oracle.write_generation(directory, GENERATION, core, written, turn_count=OLD_TURNS)
        store = stores.open(directory)["store"]
        opened = engine.call("session.open", {"register_id": register_id, "store": store})
        assert opened.get("turn_idx") == 0, (
            f"a session on {what} opened at turn_idx {opened.get('turn_idx')!r}, not 0"
        )
        session = opened["session"]
        try:
            for index, text in enumerate(prompts):
                got = record_of(engine.call("session.chat", {"session": session, "text": text}))
                assert got == whole[index], (
                    f"turn {index} ({text!r}) on {what}: {got}, "
                    f"not the storeless session's {whole[index]}"
                )
                if start != ORPHANS:
                    _migrated_checkpoint(directory, (written, version), kept, register_id, index)
        finally:
            engine.call("session.close", {"session": session})
