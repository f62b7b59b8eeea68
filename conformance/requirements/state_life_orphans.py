"""``vault`` records without a ``life`` record are not a life and are ignored (docs/state.md
§ The life): a session opened on a store whose core holds vault tallies but no life record
starts a fresh life (turn 0, no subject, the identity rotor, an empty vault), so its turns
are those of a session that never had a store."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import lemmas_of, uninterrupted
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.conversation import conversation, prompt
from conformance.state.driver import Stores, scratch
from conformance.state.life import record_of

LIFE = ("sessions", "state", "state.life")
GENERATION = 3
TURNS = 5
"""Generated turns before the closing recalls."""

SCENARIO = st.tuples(st.sampled_from(FOUR_REGISTERS), st.integers(0, 2**16)).map(list)
COVER = [[register_id, 40 + i] for i, register_id in enumerate(FOUR_REGISTERS)]


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


@requirement(
    "STATE-LIFE-451",
    "vault records without a life record are ignored: a session opened on a store whose "
    "core holds vault tallies of the lemmas it talks about but no life record opens at "
    "turn_idx 0 and answers every turn (recalls included) as a session without a store does",
    family="state",
    capabilities=LIFE,
    seed="docs/state.md § The life (vault records without a life record are not a life "
    "and are ignored; no life record: a fresh life)",
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers", COVER),
    max_examples=4,
)
def orphan_vault_is_ignored(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed = scenario
    lemmas = lemmas_of(engine, seed)
    prompts = [
        *conversation(lemmas, TURNS, seed),
        prompt("recall", lemmas[0], ""),
        prompt("recall_all", "", ""),
    ]
    whole = uninterrupted(engine, register_id, prompts)
    version = oracle.schema_of(engine.capabilities())
    core = oracle.encode_core([orphan_vault(lemma) for lemma in lemmas])
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        oracle.write_generation(directory, GENERATION, core, version, turn_count=7)
        store = stores.open(directory)["store"]
        opened = engine.call("session.open", {"register_id": register_id, "store": store})
        assert opened.get("turn_idx") == 0, (
            f"a session on vault records without a life opened at turn_idx "
            f"{opened.get('turn_idx')!r}, not 0"
        )
        session = opened["session"]
        try:
            for index, text in enumerate(prompts):
                got = record_of(engine.call("session.chat", {"session": session, "text": text}))
                assert got == whole[index], (
                    f"turn {index} ({text!r}) on vault records without a life: {got}, "
                    f"not the storeless session's {whole[index]}"
                )
        finally:
            engine.call("session.close", {"session": session})
