"""The life survives a SIGKILL: resuming a conversation on a state store gives the records of
the uninterrupted conversation, byte for byte (docs/protocol.md § Sessions on a store)."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.registry import requirement
from conformance.state import format as fmt
from conformance.state.conversation import conversation, prompt
from conformance.state.driver import scratch
from conformance.state.killer import spawner
from conformance.state.life import KillPoint, live_until_killed, record_of, resume_and_finish

LIFE = ("sessions", "state", "state.life")
LEMMAS_PER_LIFE = 6
"""Lemmas one conversation talks about: few enough that subjects come back."""

SCENARIO = st.tuples(
    st.sampled_from(FOUR_REGISTERS),
    st.integers(0, 2**16),
    st.integers(4, 10),
    st.integers(1, 10),
    st.one_of(st.none(), st.integers(0, 999)),
).map(list)
"""``[register_id, seed, turns, answered before the kill, phase (None: between turns)]``."""

COVER = [
    [None, 29, 8, 3, None],
    ["default_neutral_v1", 30, 8, 4, 500],
    ["terse_v1", 31, 6, 2, 0],
    ["convivial_v1", 32, 9, 5, 999],
]
"""Every register once, kills between turns and in flight at both ends of the window."""


def lemmas_of(engine: EngineClient, seed: int) -> list[str]:
    """A few one-word lemmas of the engine's lexicon, chosen by *seed*."""
    rows = engine.call("lexicon.list", {})["lemmas"]
    words = sorted(row["lemma"] for row in rows if row["lemma"].isalpha())
    return random.Random(seed).sample(words, min(LEMMAS_PER_LIFE, len(words)))


def life_prompts(engine: EngineClient, seed: int, turns: int) -> list[str]:
    """A generated conversation that teaches first and ends by recalling the whole session,
    so what was taught before a kill is read after it."""
    lemmas = lemmas_of(engine, seed)
    body = conversation(lemmas, turns - 2, seed)
    return [prompt("teach", lemmas[0], lemmas[1]), *body, prompt("recall_all", "", "")]


def uninterrupted(engine: EngineClient, register_id: str | None, prompts: list[str]) -> list[str]:
    """The records of one session that lives every prompt without a store."""
    session = engine.call("session.open", {"register_id": register_id})["session"]
    try:
        return [
            record_of(engine.call("session.chat", {"session": session, "text": text}))
            for text in prompts
        ]
    finally:
        engine.call("session.close", {"session": session})


@requirement(
    "STATE-LIFE-001",
    "a generated conversation (teach, recall, correct, compare, under every register) lived in "
    "a session on a state store, SIGKILLed between turns or with a turn in flight and "
    "resumed by a fresh process on the same directory, gives the turn records (trace hash, "
    "surfaces, variant id, grounding, turn index) of the uninterrupted conversation byte for "
    "byte; the resumed session starts at the last answered turn or the one in flight",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store; docs/state.md § The life; issue 29 § Deliver 2",
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers and kill points", COVER),
    max_examples=6,
)
def life_survives_a_kill(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed, turns, answered, phase = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    spawn = spawner(command, "fork" in engine.capabilities(), ahead=1)
    prompts = life_prompts(engine, seed, turns)
    answered = min(answered, len(prompts) - 1)
    whole = uninterrupted(engine, register_id, prompts)
    with scratch() as root:
        directory = str(root / "life")
        point = KillPoint(answered, phase)
        before = live_until_killed(spawn, directory, register_id, prompts, point)
        assert len(before) == answered, f"{len(before)} turns answered before the kill"
        resumed_at, after = resume_and_finish(spawn, directory, register_id, prompts)
    allowed = {answered} if phase is None else {answered, answered + 1}
    assert resumed_at in allowed, (
        f"killed after {answered} answered turns"
        f"{'' if phase is None else ' with one in flight'}, the session resumed at turn "
        f"{resumed_at}, not {sorted(allowed)}"
    )
    lived = dict(enumerate(before)) | dict(enumerate(after, start=resumed_at))
    for index in sorted(lived):
        assert lived[index] == whole[index], (
            f"turn {index} ({prompts[index]!r}) after a kill at turn {answered}: "
            f"{lived[index]} is not the uninterrupted record {whole[index]}"
        )


def _refusal(engine: EngineClient, op: str, args: dict[str, Any]) -> tuple[str, str | None]:
    """``(code, field)`` of *op*'s refusal; AssertionError when it is answered. The request
    may be malformed on purpose, so strict mode does not validate it."""
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        return refusal.code, refusal.field
    raise AssertionError(f"{op} {args} was answered")


def _generations(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if fmt.generation_number(p.name) is not None)


def _close_under_session(engine: EngineClient, directory: Path, store: str) -> None:
    """``state.close`` of *store* while a session still lives on it. docs/protocol.md §
    Persisted-state ops: "`state.close` ... commits only if dirty, releases the lock";
    docs/state.md § Single writer: "The holder writes its pid into `LOCK` ... and clears it on
    close"; § Commit protocol: "`state.close` of a clean store never commits".
    The session does not keep the store: the directory reopens at once, with that session
    still open (it ends only at its next turn)."""
    was = engine.call("state.digest", {"store": store})
    generations = _generations(directory)
    current = directory / "CURRENT"
    pointer = current.read_bytes() if current.is_file() else None
    closed = engine.call("state.close", {"store": store})
    if not was["dirty"]:
        kept = {k: was[k] for k in ("generation", "identity", "turn_count")}
        assert closed == kept, (
            f"state.close of a clean store a session lives on answered {closed}, not the last "
            f"checkpoint {kept}: a clean store's close never commits (docs/state.md § Commit "
            "protocol)"
        )
        assert _generations(directory) == generations, (
            f"state.close of a clean store a session lives on left {_generations(directory)}, "
            f"not {generations}: a clean store's close never commits"
        )
        assert (current.read_bytes() if current.is_file() else None) == pointer, (
            "state.close of a clean store a session lives on rewrote CURRENT"
        )
    lock = directory / "LOCK"
    left = lock.read_bytes() if lock.is_file() and not lock.is_symlink() else b""
    assert not re.search(rb"[0-9]", left), (
        f"after state.close of a store a session still lives on, LOCK holds {left!r}: the holder "
        "clears it on close (docs/state.md § Single writer)"
    )
    try:
        reopened = engine.call("state.open", {"dir": str(directory)})
    except EngineRefused as refusal:
        raise AssertionError(
            f"state.open after state.close of a store a session still lives on: "
            f"{refusal.code} {refusal.message!r}; state.close releases the lock "
            "(docs/protocol.md § Persisted-state ops), whatever session is still open"
        ) from None
    try:
        found = {k: reopened[k] for k in ("generation", "identity", "turn_count")}
        want = {k: closed[k] for k in ("generation", "identity", "turn_count")}
        assert found == want, (
            f"reopened after state.close of a store a session lives on: {found}, not what the "
            f"close answered {want}"
        )
    finally:
        engine.call("state.close", {"store": reopened["store"]})


@requirement(
    "STATE-LIFE-002",
    "a store carries the life of one session at a time: a second session.open on it is "
    "STATE_IN_USE (field store) until the first session closes; an unknown store is "
    "STATE_NOT_OPEN (field store), and so is a closed one (with a session still on it, and "
    "with none); state.close with a session still on the store releases the lock (LOCK "
    "holds no pid, and the directory reopens while that session lives) and, the store being "
    "clean, commits nothing; a turn whose store was closed answers STATE_NOT_OPEN and ends "
    "the session (SESSION_UNKNOWN from then on)",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Refusals); § Persisted-state ops "
    "(state.close: commits only if dirty, releases the lock); docs/state.md § Single writer "
    "(LOCK cleared on close); § Commit protocol (a clean store's close never commits)",
    max_examples=1,
)
def one_life_per_store(engine: EngineClient, _: object) -> None:
    with scratch() as root:
        store = engine.call("state.open", {"dir": str(root / "life")})["store"]
        first = engine.call("session.open", {"register_id": None, "store": store})["session"]
        engine.call("session.chat", {"session": first, "text": "What is light?"})
        second = _refusal(engine, "session.open", {"register_id": None, "store": store})
        assert second == ("STATE_IN_USE", "store"), f"a second session on a store: {second}"
        engine.call("session.close", {"session": first})
        again = engine.call("session.open", {"register_id": None, "store": store})
        assert again.get("turn_idx") == 1, f"the store's next session starts at {again}"
        unknown = _refusal(engine, "session.open", {"register_id": None, "store": "no-such"})
        assert unknown == ("STATE_NOT_OPEN", "store"), f"an unknown store: {unknown}"
        _close_under_session(engine, root / "life", store)
        lived_on = _refusal(engine, "session.open", {"register_id": None, "store": store})
        assert lived_on == ("STATE_NOT_OPEN", "store"), (
            f"session.open on a closed store a session still lives on: {lived_on}; a closed "
            "handle is STATE_NOT_OPEN (docs/protocol.md § Sessions on a store)"
        )
        turn = {"session": again["session"], "text": "What is light?"}
        closed = _refusal(engine, "session.chat", turn)
        assert closed == ("STATE_NOT_OPEN", "store"), f"a turn on a closed store: {closed}"
        ended = _refusal(engine, "session.chat", turn)
        assert ended[0] == "SESSION_UNKNOWN", f"the next turn of that session: {ended}"
        alone = _refusal(engine, "session.open", {"register_id": None, "store": store})
        assert alone == ("STATE_NOT_OPEN", "store"), (
            f"session.open on a closed store no session lives on: {alone}; a closed handle is "
            "STATE_NOT_OPEN, not only an unknown one (docs/protocol.md § Sessions on a store)"
        )


SAID_CHARS = 160
"""docs/state.md § The life: a thing said is kept cut at 160 characters (code points)."""
SAID_KEPT = 3
"""docs/state.md § The life: a tally keeps the latest three things said."""
PADS = {
    "ASCII": "x",
    "two-byte": "\u00e9",
    "three-byte": "\u4e2d",
    "astral": "\U0001f600",
    "upper case, doubled spaces, decomposed": "e\u0301",
    "read otherwise (contraction, misspelling, \u2019, interjection, please)": "x",
}
"""Characters of each UTF-8 width that a prompt is padded with (already normalised: NFC,
lower case), so its normalised input is exactly as long as asked; the last is sent
unnormalised (upper case, spaces doubled, ``é`` decomposed) and normalises to as many
code points as asked, so its raw text is longer than what the vault keeps. The one read
otherwise asks ``Hmm, what\u2019s <lemma>, plz? Teh end.`` in upper case: the vault keeps it as
step 1 leaves it (``hmm, what's <lemma>, plz? teh end.``), never as the later steps read it
(``teh`` mended to ``the``; ``what's`` and ``plz`` spelt out; the interjection and the
trailing ``please`` unwrapped)."""
UNNORMALISED = "upper case, doubled spaces, decomposed"
READ_OTHERWISE = "read otherwise (contraction, misspelling, \u2019, interjection, please)"
SAID_SCENARIO = st.tuples(
    st.sampled_from(sorted(PADS)),
    st.lists(st.sampled_from([0, 159, 160, 161, 162, 321]), min_size=1, max_size=5),
).map(list)
"""``[pad, lengths]``: one turn per length, each a prompt of that many code points (0: the
bare question)."""
SAID_COVER = [[pad, [159, 160, 161, 0]] for pad in sorted(PADS) if pad != READ_OTHERWISE] + [
    ["astral", [321]],
    [READ_OTHERWISE, [0, 161]],
]
"""Each pad at the bound and one past it on both sides, four turns (the first falls out)."""


def _said_prompt(lemma: str, length: int, pad: str, kind: str = "") -> str:
    """``what is <lemma>?`` (read otherwise: ``hmm, what's <lemma>, plz? teh end.``) padded
    with *pad* characters to *length* code points (once normalised: a decomposed pad
    character is one code point after NFC)."""
    bare = f"hmm, what's {lemma}, plz? teh end." if kind == READ_OTHERWISE else f"what is {lemma}?"
    room = length - len(bare) - 1
    return bare if room < 1 else f"{bare} {pad * room}"


def _sent(prompt: str, pad: str) -> str:
    """*prompt* as sent: unnormalised for the unnormalised pad (for the one read otherwise:
    upper case, U+2019 for its apostrophe), else as it is."""
    if pad == READ_OTHERWISE:
        return prompt.upper().replace("'", "\u2019")
    return prompt.upper().replace(" ", "  ") + "  " if pad == UNNORMALISED else prompt


def _normalised(prompt: str) -> str:
    """docs/intents.md step 1 on the prompts of this requirement (NFC, one kind of apostrophe,
    lower case, single spaces, stripped)."""
    return " ".join(unicodedata.normalize("NFC", prompt).replace("\u2019", "'").lower().split())


def _vault_said(root: Any, lemma: str) -> object:
    """The ``said`` member of *lemma*'s vault record in the live generation's core.jsonl."""
    core = fmt.live_core(root).decode("utf-8")
    try:
        records = [json.loads(line) for line in core.splitlines() if line]
    except ValueError as exc:
        raise AssertionError(f"core.jsonl holds a line that is not JSON: {exc}") from None
    found = [
        r
        for r in records
        if isinstance(r, dict) and r.get("kind") == "vault" and r.get("lemma") == lemma
    ]
    assert len(found) == 1, f"core.jsonl holds {len(found)} vault records of {lemma!r}"
    return found[0].get("said")


@requirement(
    "STATE-SAID-001",
    "a vault record keeps the latest three things said of its lemma, the latest first, each "
    "the turn's normalised input cut at 160 code points: 160 kept whole, 161 cut to 160, an "
    "astral character counting once (not two UTF-16 units, not four bytes), and step 1 only: "
    "a contraction, a misspelt form word, an interjection and please kept as written",
    family="state",
    capabilities=LIFE,
    seed="docs/state.md § The life (said: cut at 160 characters); docs/trace-hash.md (vault_hits)",
    strategy=lambda ctx: SAID_SCENARIO,
    cover=coverage.each("pads and lengths", SAID_COVER),
    max_examples=7,
)
def said_is_bounded(engine: EngineClient, scenario: list[Any]) -> None:
    pad, lengths = scenario
    lemma = lemmas_of(engine, 0)[0]
    prompts = [_sent(_said_prompt(lemma, length, PADS[pad], pad), pad) for length in lengths]
    with scratch() as root:
        store = engine.call("state.open", {"dir": str(root / "life")})["store"]
        session = engine.call("session.open", {"register_id": None, "store": store})["session"]
        try:
            for text in prompts:
                turn = engine.call("session.chat", {"session": session, "text": text})
                assert turn.get("subject") == lemma, (
                    f"{text[:40]!r}: subject {turn.get('subject')!r}"
                )
        finally:
            engine.call("session.close", {"session": session})
            engine.call("state.close", {"store": store})
        said = _vault_said(root / "life", lemma)
    want = [
        {"claim": None, "text": _normalised(prompts[i])[:SAID_CHARS], "turn_idx": i}
        for i in reversed(range(len(prompts)))
    ][:SAID_KEPT]
    assert said == want, (
        f"{len(prompts)} turns about {lemma!r} padded with {pad} characters to {lengths} code "
        f"points: said {said!r}, the spec keeps {want!r}"
    )


UNKNOWN_REGISTER = "no_such_register_v1"
"""A well-formed register id no engine ships: loading it is refused (``REGISTER_*``)."""

OPEN_ORDER = [
    ["store not a string", {"register_id": UNKNOWN_REGISTER, "store": 7}, "PROTOCOL_BAD_ARGS"],
    [
        "files malformed, store unknown",
        {"register_id": None, "store": "no-such", "files": 5},
        "PROTOCOL_BAD_ARGS",
    ],
    [
        "store unknown, register unknown",
        {"register_id": UNKNOWN_REGISTER, "store": "no-such"},
        "STATE_NOT_OPEN",
    ],
    [
        "store in use, register unknown",
        {"register_id": UNKNOWN_REGISTER, "store": "<open>"},
        "STATE_IN_USE",
    ],
    [
        "store in use, files malformed",
        {"register_id": None, "store": "<open>", "files": 5},
        "PROTOCOL_BAD_ARGS",
    ],
]
"""``[case, session.open args ("<open>": the store a session lives on), the code]``."""

OPEN_FIELDS = {"PROTOCOL_BAD_ARGS": None, "STATE_NOT_OPEN": "store", "STATE_IN_USE": "store"}


@requirement(
    "STATE-LIFE-003",
    "session.open with store checks its arguments (store a string, files) before the op; the "
    "op checks the store handle (STATE_NOT_OPEN), then whether a session lives on it "
    "(STATE_IN_USE), and only then loads the register",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Refusals)",
    strategy=lambda ctx: st.sampled_from(OPEN_ORDER),
    cover=coverage.each("two faults at once", OPEN_ORDER),
    max_examples=4,
)
def store_before_register(engine: EngineClient, case: list[Any]) -> None:
    name, args, code = case
    with scratch() as root:
        store = engine.call("state.open", {"dir": str(root / "life")})["store"]
        session = engine.call("session.open", {"register_id": None, "store": store})["session"]
        try:
            sent = {k: (store if v == "<open>" else v) for k, v in args.items()}
            got_code, got_field = _refusal(engine, "session.open", sent)
        finally:
            engine.call("session.close", {"session": session})
            engine.call("state.close", {"store": store})
    field = OPEN_FIELDS[code] or ("store" if "files" not in args else "files")
    assert (got_code, got_field) == (code, field), (
        f"{name}: session.open {sent} answered {got_code} (field {got_field}), not {code} "
        f"(field {field})"
    )


COMMITTERS = ("state.close", "state.checkpoint")
"""What commits a session's turn whose checkpoint was refused: the close alone, or a
checkpoint before it (docs/protocol.md § Sessions on a store: "a later `state.checkpoint` or
`state.close` commits it")."""

REFUSED_LIFE = [
    "Parent is a kind of relative.",
    "No, parent is kin.",
    "What did I say about parent?",
]
"""Taught, then corrected in the turn whose checkpoint is refused, then recalled."""

REFUSED_FIRST = [REFUSED_LIFE[0], REFUSED_LIFE[2]]
"""Taught in the refused first turn of a fresh store, then recalled."""

REFUSED_STARTS = {"after a committed turn": REFUSED_LIFE, "first turn, fresh store": REFUSED_FIRST}
"""Where the refused turn falls: after a turn committed ``gen-00000001``, or the first turn of
a fresh store (no generation yet, so no last checkpoint to go back to); the refused turn is
the one before last."""

REFUSED_CASES = [[start, committer] for start in REFUSED_STARTS for committer in COMMITTERS]
"""``[where the refused turn falls, what commits it]``."""


@requirement(
    "STATE-LIFE-004",
    "a turn of a session on a store whose checkpoint is refused (a symbolic link where commit "
    "step 1 removes debris: STATE_SYMLINK), after a committed turn or as the first turn of a "
    "fresh store (no generation yet), ends the session and stays applied to the store in "
    "memory: a session opened on the same handle at once resumes after it (the store no "
    "longer carries the ended session), a later state.checkpoint commits it (state.load "
    "reads it durable before the close), and so does state.close alone, and the next "
    "session resumes after it with the record the uninterrupted session gives",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Refusals: a refused turn ends the session; "
    'a store carries the life of one session at a time; "A turn whose checkpoint is refused '
    "stays applied to the store in memory ... a later `state.checkpoint` or `state.close` "
    'commits it, and the next session on the store resumes after it"); docs/state.md § I/O '
    "errors",
    strategy=lambda ctx: st.sampled_from(REFUSED_CASES),
    cover=coverage.each("where the refused turn falls, what commits it", REFUSED_CASES),
    max_examples=4,
)
def refused_turn_stays_applied(engine: EngineClient, case: list[str]) -> None:
    start, committer = case
    life = REFUSED_STARTS[start]
    refused_at = len(life) - 2
    after = refused_at + 1
    whole = uninterrupted(engine, None, life)
    with scratch() as root:
        directory = root / "life"
        store = engine.call("state.open", {"dir": str(directory)})["store"]
        session = engine.call("session.open", {"register_id": None, "store": store})["session"]
        for said in life[:refused_at]:
            engine.call("session.chat", {"session": session, "text": said})
        debris = directory / "staging-refused"
        debris.symlink_to(root / "nowhere")
        turn = {"session": session, "text": life[refused_at]}
        refused = _refusal(engine, "session.chat", turn)
        assert refused[0] == "STATE_SYMLINK", (
            f"{start}: a turn whose commit meets a link: {refused}"
        )
        ended = _refusal(engine, "session.chat", turn)
        assert ended[0] == "SESSION_UNKNOWN", f"{start}: the next turn of that session: {ended}"
        debris.unlink()
        try:
            again = engine.call("session.open", {"register_id": None, "store": store})
        except EngineRefused as refusal:
            raise AssertionError(
                f"{start}: session.open on the same store handle after the refused turn ended "
                f"its session: {refusal.code} (field {refusal.field!r}); the session ended, so "
                f"no session lives on the store"
            ) from None
        assert again.get("turn_idx") == after, (
            f"{start}: a session opened on the store after the refused turn answered {again}: "
            f"the refused turn stays applied in memory, so the next session resumes after it "
            f"(turn_idx {after})"
        )
        engine.call("session.close", {"session": again["session"]})
        if committer == "state.checkpoint":
            done = engine.call("state.checkpoint", {"store": store})
            assert done.get("turn_count") == after, (
                f"{start}: state.checkpoint after the refused turn: {done}"
            )
            durable = engine.call("state.load", {"dir": str(directory)})
            assert (durable.get("turn_count"), durable.get("identity")) == (
                after,
                done.get("identity"),
            ), (
                f"{start}: after state.checkpoint the directory holds {durable}, not the refused "
                f"turn's state {done}: a later state.checkpoint commits it (docs/protocol.md § "
                "Sessions on a store)"
            )
        closed = engine.call("state.close", {"store": store})
        assert closed.get("turn_count") == after, (
            f"{start}: state.close after the refused turn: {closed}"
        )
        store = engine.call("state.open", {"dir": str(directory)})["store"]
        opened = engine.call("session.open", {"register_id": None, "store": store})
        assert opened.get("turn_idx") == after, f"{start}: the next session resumes at {opened}"
        text = {"session": opened["session"], "text": life[after]}
        got = record_of(engine.call("session.chat", text))
        engine.call("state.close", {"store": store})
    assert got == whole[after], (
        f"{start}: after the refused turn, {got} is not the uninterrupted {whole[after]}"
    )
