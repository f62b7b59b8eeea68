"""What a restart must not rebuild: a conversation lived across two restarts, built so that every
field the life persists differs from what a port could rebuild it from (docs/state.md § The
life; docs/benchmarks.md § The no-drift soak of one life).

Each field of the ``life`` record and of a ``vault`` record is persisted on its own because no
other field gives it back (docs/state.md § The life: "What a tally keeps ... is exactly what
recall reports in the uninterrupted session too, so persisting it is the whole of the life").
The conversation below makes each plausible rebuild give another answer than the record, and
follows each restart with the turns that expose the fields (a RECALL of each lemma and its
vault hit in the trace hash, a subjectless RECALL, a word that refers back, a verification that
reads the latest claim):

* ``latest_claim``: lemma A is corrected twice (the claim corrected) early, then said of three
  more times, so at the second restart its latest claim is in none of the three things kept,
  and at the first it is kept but not the latest thing said;
* ``count``: A is mentioned more than three times, and E is recalled (a RECALL counts, it is
  not said), so no count is the length of ``said``;
* ``first_turn``: E's first mention is a RECALL, so its first turn is before its earliest
  thing said; A's first thing said falls out of ``said``; no lemma mentioned twice has its
  first turn equal to its last;
* ``last_turn``: B's latest mention before the first restart is a RECALL of it, so its last
  turn is not its latest thing said;
* ``said``: A keeps three things said at the first restart, the oldest a correction (its claim
  kept) and one exactly 160 code points long (kept whole);
* recency: the lemmas' order of latest thing said (D, A, C, E, B) is neither their order of
  first mention (A, E, B, C, D) nor that of their last turn (B first), nor address order;
* ``context``: the turn before the first restart asks about a word no pack knows, so the
  latest subject is no lemma of the vault; the turn before the second restart has no subject,
  so the latest subject is not the latest turn's;
* ``turns``: the turn before each restart stores nothing, so the turns lived are not one past
  the latest ``last_turn``.

The first restart follows a clean close, the second a SIGKILL between turns (or the other way
round), each by a fresh engine process on the same directory.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import uninterrupted
from conformance.state.driver import scratch
from conformance.state.killer import Spawn, spawner
from conformance.state.life import fresh, open_session, record_of

LIFE = ("sessions", "state", "state.life")
UNKNOWN_WORD = "florbix"
"""A word no language pack holds: a subject that is no lemma of the vault."""
SAID_CHARS = 160
"""docs/state.md § The life: a thing said of 160 code points is kept whole."""
RESTARTS = (12, 20)
"""The turns each restart resumes at (docs/state.md § The life: ``turns``)."""


def _padded(lemma: str) -> str:
    """``What is <lemma>?`` padded to exactly :data:`SAID_CHARS` code points once normalised."""
    bare = f"What is {lemma}? "
    return bare + "x" * (SAID_CHARS - len(bare))


def rebuild_prompts(lemmas: list[str]) -> list[str]:
    """The conversation over five lemmas A to E (see the module docstring); turn numbers in
    the comments are ``turn_idx``."""
    a, b, c, d, e = (lemma.capitalize() for lemma in lemmas)
    la, lb, lc, ld, le = lemmas
    return [
        f"{a} is a kind of {lb}.",  # 0: A first said
        f"What did I say about {le}?",  # 1: E first mentioned, by a RECALL
        f"No, {la} is {lb}.",  # 2: A's first claim
        f"No, {la} is {lc}.",  # 3: A's claim corrected: the latest claim
        f"{b} is a kind of {la}.",  # 4: B first said
        f"What is {le}?",  # 5: E's only thing said
        _padded(la),  # 6: A, 160 code points
        f"Compare {lc} and {la}.",  # 7: C first
        f"What is {la}?",  # 8: A: said [8, 6, 3], the claim kept but not the latest
        f"What is {ld}?",  # 9: D first
        f"What did I say about {lb}?",  # 10: B's last turn a RECALL
        f"Tell me about {UNKNOWN_WORD}.",  # 11: a subject no lemma; first restart after
        "Tell me more about it.",  # 12: refers to the unknown word
        "What have I told you so far?",  # 13: the latest three said: D, A, C
        f"What did I say about {la}?",  # 14: A's whole tally
        f"What is {la}?",  # 15: A said [15, 8, 6]: the claim falls out
        f"Is {la} {lc}?",  # 16: reads A's latest claim
        f"What did I say about {le}?",  # 17: E's tally
        f"What is {lb}?",  # 18: B's tally
        "What have I told you so far?",  # 19: no subject; second restart after
        "Tell me more about it.",  # 20: refers to B
        f"What did I say about {la}?",  # 21: A's latest claim in none of its said
        "What have I told you so far?",  # 22
        f"Is {la} {lb}?",  # 23: the latest claim, not the first
        f"What did I say about {lc}?",  # 24
        f"What did I say about {ld}?",  # 25
    ]


def five_lemmas(engine: EngineClient, seed: int) -> list[str]:
    """Five one-word noun lemmas of the engine's lexicon, chosen by *seed*."""
    rows = engine.call("lexicon.list", {})["lemmas"]
    nouns = sorted(
        row["lemma"] for row in rows if row["lemma"].isalpha() and row.get("pos") == "noun"
    )
    words = nouns if len(nouns) >= 5 else sorted(r["lemma"] for r in rows if r["lemma"].isalpha())
    return random.Random(seed).sample(words, 5)


def _segment(
    spawn: Spawn,
    directory: str,
    register_id: str | None,
    prompts: list[str],
    span: tuple[int, int],
    clean: bool,
) -> list[str]:
    """A fresh engine process lives ``prompts[start:stop]`` on *directory*, resuming at
    *start*; then the session and store are closed (*clean*) or the process is SIGKILLed."""
    start, stop = span
    engine = fresh(spawn)
    try:
        store, session, turn_idx = open_session(engine, directory, register_id)
        assert turn_idx == start, (
            f"a fresh process on a store after {start} turns resumed at turn_idx {turn_idx}"
        )
        records = [
            record_of(engine.call("session.chat", {"session": session, "text": text}))
            for text in prompts[start:stop]
        ]
        if clean:
            engine.call("session.close", {"session": session})
            engine.call("state.close", {"store": store})
        return records
    finally:
        engine.kill()


SCENARIO = st.tuples(st.sampled_from(FOUR_REGISTERS), st.integers(0, 2**16), st.booleans()).map(
    list
)
"""``[register_id, seed (the lemmas), the first restart after a clean close]``."""
COVER = [[None, 0, True], ["terse_v1", 1, False]]


@requirement(
    "STATE-LIFE-701",
    "a conversation built so that each field of the life differs from what a port could "
    "rebuild it from (a latest claim corrected and then said of three more times, counts "
    "above three and counting RECALLs, a first mention by RECALL, a last mention by RECALL, "
    "three things said with a claim and one of 160 code points, a recency order unlike the "
    "order of first mention or of last turn, a latest subject no vault lemma, a last turn "
    "with no subject), lived in a session on a store across two restarts by fresh processes "
    "(a clean close, a SIGKILL between turns) and followed by turns that read every field "
    "(a RECALL of each lemma, a subjectless RECALL, a word that refers back, a verification), "
    "gives the turn records of the uninterrupted session byte for byte",
    family="state",
    capabilities=LIFE,
    seed="docs/state.md § The life (each field; What is bounded, and how); docs/benchmarks.md "
    "§ The no-drift soak of one life; docs/protocol.md § Sessions on a store",
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers and restarts", COVER),
    max_examples=2,
)
def restart_rebuilds_nothing(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed, first_clean = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    spawn = spawner(command, "fork" in engine.capabilities(), ahead=1)
    prompts = rebuild_prompts(five_lemmas(engine, seed))
    whole = uninterrupted(engine, register_id, prompts)
    bounds = (0, *RESTARTS, len(prompts))
    lived: list[str] = []
    with scratch() as root:
        directory = str(root / "life")
        for part, span in enumerate(zip(bounds, bounds[1:], strict=False)):
            clean = first_clean == (part % 2 == 0)
            lived += _segment(spawn, directory, register_id, prompts, span, clean)
    for index, (got, want) in enumerate(zip(lived, whole, strict=True)):
        restarts = [at for at in RESTARTS if at <= index]
        assert got == want, (
            f"turn {index} ({prompts[index]!r}) after restarts at turns {restarts}: {got} is "
            f"not the uninterrupted record {want}"
        )
