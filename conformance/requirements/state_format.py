"""Every persisted file read back by the suite, field by field, as docs/state.md defines it.

The other state requirements mostly judge an engine through the protocol, which an engine
that writes a field in another encoding and reads it back its own way passes. Here a
generated conversation lives on a store across a restart, then the suite opens the state
directory and reads each file with its own reader (``conformance.state.format``): every
field's encoding and type, and its relation to what the protocol answered. The other
direction: a directory the suite writes itself from the life it read is loaded by the
engine and resumed as the uninterrupted conversation.
"""

from __future__ import annotations

import copy
import hashlib
import math
import zlib
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.algebra_oracle import condition
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.oracle import FOUR_REGISTERS
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import lemmas_of, uninterrupted
from conformance.state import format as fmt
from conformance.state.conversation import conversation, prompt
from conformance.state.driver import scratch
from conformance.state.life import record_of
from conformance.state.oracle import schema_of
from conformance.state.tally import Lived, Tally, live

LIFE = ("sessions", "state", "state.life")
SEED = (
    "docs/state.md § Directory layout; § The persistent core; § The manifest; § The life; "
    "§ Identity and lineage; § Journals"
)
SCENARIO = st.tuples(
    st.sampled_from(FOUR_REGISTERS),
    st.integers(0, 2**16),
    st.integers(2, 6),
    st.integers(2, 6),
).map(list)
"""``[register_id, seed, turns before the restart, turns after it]``."""
COVER = [[None, 7, 3, 3], ["terse_v1", 8, 4, 2], ["convivial_v1", 9, 2, 5], [None, 11, 2, 4]]
"""By the seed, one, two and no greetings: a first close before any subject (null context)
and a lemma first named at turn 0."""

CONDITION_SLACK = 1e-12
"""How far the versor condition the suite computes from a persisted rotor may be from the
one the turn answered: both are rounding-sized (under 1e-12 in every measured life), and a
rotor read in another byte order or another encoding is off by about 1."""

PENDING_CAP = 256
"""docs/state.md § Pending proposals: at most 256 pending; past them, proposals spill."""
EARLIER = [{"earlier": n} for n in range(PENDING_CAP - 1)]
"""Proposals the suite frames into ``proposals.journal`` before the first open: one short of
the cap, so of the proposals sent the first is queued and the others spill."""

PROPOSALS: list[EncodableObject] = [
    {"lemma": "caf\u00e9", "note": "two-byte"},
    {"lemma": "\u4e2d", "weight": 2**60},
    {"lemma": "\U0001f600", "why": 'astral, and a "quote"\n'},
]
"""Proposals whose canonical JSON has characters of every UTF-8 width, an escape and a
large integer: a header that counts anything but bytes is off."""


GREETINGS = ("Hi.", "Hello there.")
"""Turns that name no subject: the life's latest subject is still null after them, so the
generation a first session of two turns leaves holds a life record whose context is null."""


def _prompts(lemmas: list[str], seed: int, turns: int, known: set[str]) -> list[str]:
    """None, one or two greetings (no subject yet; by the seed, so a lemma is also first
    named at turn 0), a lesson, then a generated conversation: corrections and recalls find
    something, and some subjects are written as plurals of their lemmas (the vault is keyed
    by the lemma, never by the word as written)."""
    body = conversation(lemmas, max(turns - 3, 0), seed, known)
    greetings = GREETINGS[: seed % (len(GREETINGS) + 1)]
    return [*greetings, prompt("teach", lemmas[0], lemmas[1]), *body][:turns]


def _known(engine: EngineClient) -> set[str]:
    return {row["lemma"] for row in engine.call("lexicon.list", {})["lemmas"]}


def _claims(results: list[dict[str, Any]], engine: EngineClient) -> dict[int, str] | None:
    """Per turn of a correction, the claim its ``says`` states (engines claiming
    ``answers``), or None when the engine does not say."""
    if "answers" not in engine.capabilities():
        return None
    return {
        r["turn_idx"]: r["says"]["claim"]
        for r in results
        if r.get("intent") == "CORRECTION" and isinstance(r.get("says"), dict)
    }


class Life:
    """One conversation lived on a store in two sessions with a restart between them."""

    def __init__(self, engine: EngineClient, directory: Path, register_id: str | None) -> None:
        self.engine = engine
        self.directory = directory
        self.register_id = register_id
        self.opens: list[dict[str, Any]] = []
        self.closes: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.snapshots: list[Lived] = []
        self.proposed: list[dict[str, Any]] = []

    def session(self, prompts: list[str], known: set[str], lived: Lived) -> None:
        """Open the store, live *prompts* in one session on it, close both."""
        opened = self.engine.call("state.open", {"dir": str(self.directory)})
        self.opens.append(opened)
        store = opened["store"]
        try:
            args = {"register_id": self.register_id, "store": store}
            session = self.engine.call("session.open", args)
            assert session.get("turn_idx") == lived.turns, (
                f"after {lived.turns} turns, session.open answered {session}"
            )
            for text in prompts:
                result = self.engine.call(
                    "session.chat", {"session": session["session"], "text": text}
                )
                self.results.append(result)
                live(lived, text, result, known)
                self.snapshots.append(copy.deepcopy(lived))
            self.engine.call("session.close", {"session": session["session"]})
            if len(self.opens) == 2:
                for proposal in PROPOSALS:
                    sent: EncodableObject = {"store": store, "proposal": proposal}
                    answer = self.engine.call("state.propose", sent)
                    self.proposed.append(answer)
        finally:
            self.closes.append(self.engine.call("state.close", {"store": store}))


def _entries(directory: Path) -> dict[str, Path]:
    return {path.name: path for path in directory.iterdir()}


def _check_rotor(rotor: list[str], answered: float, where: str) -> list[float]:
    values = [fmt.double(b) for b in rotor]
    wild = [v for v in values if not math.isfinite(v)]
    assert not wild, f"{where}: read as big-endian bit patterns, the rotor holds {wild[:3]}"
    try:
        got = condition(values)
    except OverflowError:
        got = math.inf
    assert abs(got - answered) <= CONDITION_SLACK, (
        f"{where}: the rotor read as big-endian binary64 bit patterns has versor condition "
        f"{got!r}, the turn answered {answered!r} (a rotor in another byte order or encoding?)"
    )
    return values


def _check_vault(
    records: list[dict[str, Any]], lived: Lived, claims: dict[int, str] | None, where: str
) -> dict[str, str]:
    """The vault records against the modelled tallies; returns each lemma's key."""
    by_lemma: dict[str, dict[str, Any]] = {}
    for record in records:
        lemma = record["lemma"]
        assert lemma not in by_lemma, f"{where}: two vault records of {lemma!r}"
        by_lemma[lemma] = record
    assert sorted(by_lemma) == sorted(lived.tallies), (
        f"{where}: vault records of {sorted(by_lemma)}, the turns named {sorted(lived.tallies)}"
    )
    for lemma, tally in lived.tallies.items():
        _check_tally(by_lemma[lemma], tally, claims, f"{where}: the vault record of {lemma!r}")
        address = fmt.vault_address(lemma)
        assert by_lemma[lemma]["key"] == address, (
            f"{where}: the vault record of {lemma!r} is keyed {by_lemma[lemma]['key']}, its "
            f"address (docs/trace-hash.md § Vault addresses) is {address}"
        )
    return {lemma: record["key"] for lemma, record in by_lemma.items()}


def _check_tally(
    record: dict[str, Any], tally: Tally, claims: dict[int, str] | None, where: str
) -> None:
    numbers = {k: record[k] for k in ("count", "first_turn", "last_turn")}
    want = {"count": tally.count, "first_turn": tally.first_turn, "last_turn": tally.last_turn}
    assert numbers == want, (
        f"{where}: {numbers}, the turns that named it give {want} (turn_idx counts from 0)"
    )
    said = record["said"]
    shape = [(s["turn_idx"], s["text"]) for s in said]
    model = [(s["turn_idx"], s["text"]) for s in tally.said]
    assert shape == model, f"{where}: said {shape}, the latest things said are {model}"
    for entry, modelled in zip(said, tally.said, strict=True):
        if not modelled["corrected"]:
            assert entry["claim"] is None, (
                f"{where}: turn {entry['turn_idx']} has claim {entry['claim']!r}"
            )
            continue
        assert isinstance(entry["claim"], str) and entry["claim"], (
            f"{where}: the correction of turn {entry['turn_idx']} has claim {entry['claim']!r}"
        )
        if claims is not None:
            assert entry["claim"] == claims[entry["turn_idx"]], (
                f"{where}: turn {entry['turn_idx']}'s claim {entry['claim']!r}, its says "
                f"claims {claims[entry['turn_idx']]!r}"
            )
    latest = record["latest_claim"]
    if not tally.corrections:
        assert latest is None, f"{where}: latest_claim {latest!r} with no correction"
        return
    assert isinstance(latest, str) and latest, (
        f"{where}: latest_claim {latest!r} after a correction"
    )
    turn = tally.corrections[-1]
    in_said = [s["claim"] for s in said if s["turn_idx"] == turn]
    expected = claims[turn] if claims is not None else (in_said[0] if in_said else latest)
    assert latest == expected, (
        f"{where}: latest_claim {latest!r}, the latest correction's {expected!r}"
    )


def _check_generation(
    path: Path,
    *,
    version: int,
    lived: Lived,
    register_id: str | None,
    answered: float,
    claims: dict[int, str] | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One generation directory read whole; returns its manifest and its life record."""
    number = fmt.generation_number(path.name)
    manifest, core = fmt.read_generation(path, version)
    where = f"{path.name}/manifest.json"
    assert manifest["generation"] == number, f"{where}: generation {manifest['generation']}"
    assert manifest["schema_version"] == version, (
        f"{where}: schema_version {manifest['schema_version']}"
    )
    assert manifest["identity"] == fmt.identity(version, core), (
        f"{where}: identity {manifest['identity']}, the formula over its core gives "
        f"{fmt.identity(version, core)}"
    )
    assert manifest["turn_count"] == lived.turns, (
        f"{where}: turn_count {manifest['turn_count']} after {lived.turns} turns"
    )
    records = fmt.read_core(core, version)
    kinds = {r["kind"] for r in records}
    assert kinds <= {"session", "life", "vault"}, f"{path.name}/core.jsonl: kinds {sorted(kinds)}"
    session = [r for r in records if r["kind"] == "session"]
    assert session and session[0]["register_id"] == register_id, (
        f"{path.name}/core.jsonl: session records {session}, the session's register {register_id!r}"
    )
    lives = [r for r in records if r["kind"] == "life"]
    assert lives, f"{path.name}/core.jsonl holds no life record after {lived.turns} turns"
    life = lives[0]
    assert (life["turns"], life["context"]) == (lived.turns, lived.context), (
        f"{path.name}/core.jsonl: life turns {life['turns']} and context {life['context']!r}, "
        f"the session lived {lived.turns} turns and its latest subject is {lived.context!r}"
    )
    _check_rotor(life["rotor"], answered, f"{path.name}/core.jsonl life.rotor")
    vault = [r for r in records if r["kind"] == "vault"]
    keys = _check_vault(vault, lived, claims, f"{path.name}/core.jsonl")
    return manifest, {"life": life, "keys": keys}


def _check_lineage(directory: Path, lived_life: Life, version: int) -> None:
    events = fmt.read_journal((directory / "lineage.journal").read_bytes(), "lineage.journal")
    events = [fmt.read_boot(e, f"lineage.journal line {i}") for i, e in enumerate(events, 1)]
    opens, closes = lived_life.opens, lived_life.closes
    got = [
        (e["boot"], e["reason"], e["parent"], e["from_version"], e["to_version"]) for e in events
    ]
    want = [
        (1, "fresh", None, None, version),
        (2, "resume", closes[0]["identity"], version, version),
    ]
    assert got == want, f"lineage.journal (boot, reason, parent, from, to): {got}, not {want}"
    assert [e["identity"] for e in events] == [o["identity"] for o in opens], (
        "lineage.journal's identities are not the ones state.open answered"
    )
    assert [e["recovered"] for e in events] == [None, None], "a boot without a fall back recovered"
    assert [o.get("boot") for o in opens] == [1, 2], (
        f"state.open answered boots {[o.get('boot') for o in opens]}"
    )


@requirement(
    "STATE-FORMAT-001",
    "a generated conversation (none to two greetings, then teach, recall, correct, compare, "
    "under every register) lived on a store in two sessions with a restart between them, "
    "then proposals: the suite's own reader of docs/state.md finds, at the first close and "
    "at the end, CURRENT naming the last generation (one per turn), each "
    "manifest canonical with its checksum, file SHA-256, identity formula, schema version "
    "and turn count, each core.jsonl canonical, ordered and typed, the life record's turns, "
    "latest subject (null before any) and rotor (big-endian bit patterns whose versor "
    "condition is the one the turn answered), one vault record per lemma the turns named "
    "with their count, first and "
    "latest turn (from 0), things said and claims, lineage events framed and numbered from 1 "
    "with the identities state.open answered, and proposals framed (length in bytes, lowercase "
    "hex) holding the canonical JSON sent",
    family="state",
    capabilities=LIFE,
    seed=SEED,
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers and restarts", COVER),
    max_examples=4,
)
def files_read_back(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed, before, after = scenario
    known = _known(engine)
    prompts = _prompts(lemmas_of(engine, seed), seed, before + after, known)
    version = schema_of(engine.capabilities())
    with scratch() as root:
        directory = root / "life"
        life = Life(engine, directory, register_id)
        lived = Lived()
        directory.mkdir()
        earlier = b"".join(frame(p) for p in EARLIER)
        (directory / "proposals.journal").write_bytes(earlier)
        life.session(prompts[:before], known, lived)
        first = directory / f"gen-{before:08d}"
        _check_generation(
            first,
            version=version,
            lived=life.snapshots[before - 1],
            register_id=register_id,
            answered=life.results[before - 1]["versor_condition"],
            claims=_claims(life.results, engine),
        )
        life.session(prompts[before:], known, lived)
        turns = len(prompts)
        closes = life.closes
        assert [c["generation"] for c in closes] == [before, turns], (
            f"state.close answered generations {[c['generation'] for c in closes]} after "
            f"{before} and {turns} turns, each committed as the next generation from 1"
        )
        entries = _entries(directory)
        pointer = fmt.read_pointer(entries["CURRENT"].read_bytes())
        assert pointer == turns, f"CURRENT names generation {pointer} after {turns} turns"
        generations = sorted(n for n in map(fmt.generation_number, entries) if n is not None)
        bases = fmt.bases_named(directory, [turns - 1, turns])
        assert generations == sorted({turns - 1, turns, *bases}), (
            f"generations on disk {generations}, not {turns - 1} and {turns} and the bases "
            f"they name {sorted(bases)} (docs/state.md § Commit protocol, step 6)"
        )
        layout = {"LOCK", "CURRENT", "lineage.journal", "proposals.journal", "overflow.journal"}
        extra = sorted(set(entries) - layout - {f"gen-{n:08d}" for n in generations})
        assert not extra, f"entries no clean close leaves: {extra}"
        lock = entries["LOCK"].read_bytes() if "LOCK" in entries else b""
        assert lock == b"", f"LOCK holds {lock!r} after the last close released it"
        claims = _claims(life.results, engine)
        keys: dict[str, str] = {}
        for number in generations:
            manifest, read = _check_generation(
                entries[f"gen-{number:08d}"],
                version=version,
                lived=life.snapshots[number - 1],
                register_id=register_id,
                answered=life.results[number - 1]["versor_condition"],
                claims=claims,
            )
            for lemma, key in read["keys"].items():
                assert keys.setdefault(lemma, key) == key, (
                    f"the vault key of {lemma!r} changed from {keys[lemma]} to {key}"
                )
        assert (manifest["identity"], manifest["turn_count"]) == (
            closes[-1]["identity"],
            closes[-1]["turn_count"],
        ), f"the live manifest is not what state.close answered: {closes[-1]}"
        _check_lineage(directory, life, version)
        _check_proposals(entries, earlier, life.proposed)


def frame(payload: dict[str, Any]) -> bytes:
    """A journal line per docs/state.md § Journals, framed by the suite."""
    data = canonical_json(payload).encode("utf-8")
    return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"


def _check_proposals(entries: dict[str, Path], earlier: bytes, answers: list[Any]) -> None:
    """The suite's 255 lines kept as they were, then the first proposal sent queued as the
    256th, the others spilled to ``overflow.journal``, each framed as the docs frame it."""
    spilled = [(a.get("queued"), a.get("spilled"), a.get("pending")) for a in answers]
    want = [(True, False, PENDING_CAP)] + [(False, True, PENDING_CAP)] * (len(PROPOSALS) - 1)
    assert spilled == want, f"state.propose answered (queued, spilled, pending) {spilled}"
    pending = entries["proposals.journal"].read_bytes()
    assert pending.startswith(earlier), "the proposals the suite framed were rewritten"
    queued = fmt.read_journal(pending[len(earlier) :], "proposals.journal past the suite's lines")
    assert queued == PROPOSALS[:1], f"proposals.journal appended {queued}, not {PROPOSALS[:1]}"
    assert "overflow.journal" in entries, "two proposals spilled, and overflow.journal is missing"
    overflow = fmt.read_journal(entries["overflow.journal"].read_bytes(), "overflow.journal")
    assert overflow == PROPOSALS[1:], f"overflow.journal holds {overflow}, not {PROPOSALS[1:]}"


def write_directory(
    directory: Path, generation: int, records: list[dict[str, Any]], version: int, turns: int
) -> bytes:
    """The suite's own writer: ``gen-N/`` (core.jsonl, manifest.json) and ``CURRENT``, per
    docs/state.md; returns the core's bytes."""
    ordered = sorted(records, key=lambda r: (r["kind"].encode(), r["key"].encode()))
    core = b"".join(canonical_json(r).encode("utf-8") + b"\n" for r in ordered)
    body = {
        "files": {"core.jsonl": hashlib.sha256(core).hexdigest()},
        "generation": generation,
        "identity": fmt.identity(version, core),
        "schema_version": version,
        "turn_count": turns,
    }
    checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    gen = directory / f"gen-{generation:08d}"
    gen.mkdir(parents=True)
    (gen / "core.jsonl").write_bytes(core)
    manifest = canonical_json({**body, "checksum": checksum}).encode("utf-8") + b"\n"
    (gen / "manifest.json").write_bytes(manifest)
    (directory / "CURRENT").write_bytes(f"gen-{generation:08d}\n".encode("ascii"))
    return core


def modelled_records(
    lived: Lived,
    register_id: str | None,
    rotor: list[str],
    keys: dict[str, str],
    claims: dict[int, str],
) -> list[dict[str, Any]]:
    """The records of a life the suite models: its turns, latest subject and tallies from
    the turns answered, the rotor's doubles re-encoded by the suite, each lemma under the
    key the engine gave its address, each correction's claim as *claims* has it."""
    records: list[dict[str, Any]] = [
        {"kind": "session", "key": "session", "register_id": register_id},
        {
            "kind": "life",
            "key": "life",
            "turns": lived.turns,
            "context": lived.context,
            "rotor": [fmt.bits(fmt.double(b)) for b in rotor],
        },
    ]
    for lemma, tally in lived.tallies.items():
        latest = claims[tally.corrections[-1]] if tally.corrections else None
        records.append(
            {
                "kind": "vault",
                "key": keys[lemma],
                "lemma": lemma,
                "count": tally.count,
                "first_turn": tally.first_turn,
                "last_turn": tally.last_turn,
                "latest_claim": latest,
                "said": [
                    {
                        "claim": claims[s["turn_idx"]] if s["corrected"] else None,
                        "text": s["text"],
                        "turn_idx": s["turn_idx"],
                    }
                    for s in tally.said
                ],
            }
        )
    return records


WRITTEN_GENERATION = 41
"""The generation the suite writes its directory at: not one a fresh store would reach."""


@requirement(
    "STATE-FORMAT-002",
    "a state directory the suite writes itself per docs/state.md (the life it models from the "
    "turns a session answered: turns, latest subject, vault tallies, the rotor re-encoded as "
    "big-endian bit patterns) loads with the identity of the formula, its generation and turn "
    "count, and a session resumed on it gives the turn records of the uninterrupted "
    "conversation byte for byte",
    family="state",
    capabilities=LIFE,
    seed=f"{SEED}; docs/protocol.md § Sessions on a store",
    strategy=lambda ctx: SCENARIO,
    cover=coverage.each("registers and restarts", COVER),
    max_examples=4,
)
def suite_written_directory_resumes(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, seed, before, after = scenario
    known = _known(engine)
    prompts = _prompts(lemmas_of(engine, seed), seed, before + after, known)
    version = schema_of(engine.capabilities())
    whole = uninterrupted(engine, register_id, prompts)
    with scratch() as root:
        lived_dir = root / "lived"
        life = Life(engine, lived_dir, register_id)
        lived = Lived()
        life.session(prompts[:before], known, lived)
        pointer = fmt.read_pointer((lived_dir / "CURRENT").read_bytes())
        generation = lived_dir / f"gen-{pointer:08d}"
        records = fmt.read_core(fmt.read_generation(generation, version)[1], version)
        (read_life,) = [r for r in records if r["kind"] == "life"]
        keys = {r["lemma"]: r["key"] for r in records if r["kind"] == "vault"}
        claims = _claims(life.results, engine) or {
            s["turn_idx"]: s["claim"]
            for r in records
            if r["kind"] == "vault"
            for s in r["said"]
            if s["claim"] is not None
        } | _latest_claims(records, lived)
        written = modelled_records(lived, register_id, read_life["rotor"], keys, claims)
        directory = root / "written"
        core = write_directory(directory, WRITTEN_GENERATION, written, version, before)
        loaded = engine.call("state.load", {"dir": str(directory)})
        want = {
            "identity": fmt.identity(version, core),
            "generation": WRITTEN_GENERATION,
            "turn_count": before,
            "schema_version": version,
            "recovered": None,
            "fresh": False,
            "records": len(written),
        }
        got = {k: loaded.get(k) for k in want}
        assert got == want, f"state.load of the directory the suite wrote: {got}, not {want}"
        resumed = Life(engine, directory, register_id)
        resumed.session(prompts[before:], known, copy.deepcopy(lived))
    for index, result in enumerate(resumed.results, start=before):
        assert record_of(result) == whole[index], (
            f"turn {index} ({prompts[index]!r}) resumed from the suite's directory: "
            f"{record_of(result)} is not the uninterrupted record {whole[index]}"
        )


def _latest_claims(records: list[dict[str, Any]], lived: Lived) -> dict[int, str]:
    """For an engine that does not say its claims: each tally's latest correction's claim,
    as its vault record holds it (a correction older than the things said kept)."""
    found = {}
    for record in records:
        if record["kind"] != "vault":
            continue
        tally = lived.tallies.get(record["lemma"])
        if tally is not None and tally.corrections and record["latest_claim"] is not None:
            found[tally.corrections[-1]] = record["latest_claim"]
    return found
